"""AuditService requests built from audit checkpoints, and their answers checked: shared by the sync and
asyncio clients."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cipherd.audit import Checkpoint
from cipherd.v1 import audit_service_pb2 as audit_pb

# VerifyAuditCheckpoints' limit per request.
MAX_CHECKPOINTS_PER_CALL = 10_000


def audit_requests(checkpoints: Sequence[Checkpoint]) -> Iterator[audit_pb.VerifyAuditCheckpointsRequest]:
    for start in range(0, len(checkpoints), MAX_CHECKPOINTS_PER_CALL):
        yield audit_pb.VerifyAuditCheckpointsRequest(
            checkpoints=[
                audit_pb.AuditCheckpoint(seq=c.seq, time=c.time, prev=c.prev, mac=c.mac)
                for c in checkpoints[start : start + MAX_CHECKPOINTS_PER_CALL]
            ]
        )


def verdicts(
    request: audit_pb.VerifyAuditCheckpointsRequest, response: audit_pb.VerifyAuditCheckpointsResponse
) -> list[bool]:
    """The response's verdicts, one per checkpoint of the request, or ValueError when it has another count."""
    if len(response.valid) != len(request.checkpoints):
        raise ValueError(f"the server answered {len(response.valid)} of {len(request.checkpoints)} checkpoints")
    return list(response.valid)
