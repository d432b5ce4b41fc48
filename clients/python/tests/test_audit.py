"""Every case of proto/testdata/audit/audit.json through cipherd.audit.verify, offline and with the MACs checked
by a server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest

import cipherd
from cipherd.audit import AuditHead, checkpoints, checkpoints_under, read_head, verify, verify_with_server
from cipherd.v1 import audit_service_pb2 as audit_pb
from cipherd.v1 import audit_service_pb2_grpc
from server import jar_and_java, start_server

VECTORS = Path(__file__).resolve().parents[3] / "proto" / "testdata" / "audit"
SPEC: dict[str, Any] = json.loads((VECTORS / "audit.json").read_text(encoding="utf-8"))
KEY = bytes.fromhex(SPEC["audit_key_hex"])


def _head(case: dict[str, Any]) -> AuditHead | None:
    return read_head(VECTORS / case["head"]) if "head" in case else None


@pytest.mark.parametrize("case", SPEC["cases"], ids=[c["name"] for c in SPEC["cases"]])
def test_vector(case: dict[str, Any]) -> None:
    result = verify([VECTORS / name for name in case["files"]], checkpoints_under(KEY), _head(case))

    assert result.intact == case["intact"], result.problem
    assert result.completeness_checked == ("head" in case)
    if "first_bad_line" in case:
        assert result.problem is not None and result.problem.startswith(case["first_bad_line"] + ":")
    for field in ("calls", "checkpoints", "torn"):
        if field in case:
            assert getattr(result, field) == case[field]


def test_without_the_key_the_chain_is_checked_but_not_the_macs() -> None:
    forged = verify([VECTORS / "forged.log"])
    edited = verify([VECTORS / "edited.log"])

    assert forged.intact and not forged.macs_checked
    assert not edited.intact


def test_a_checkpoint_under_another_key_fails() -> None:
    result = verify([VECTORS / "intact.log"], checkpoints_under(bytes(32)))

    assert result.problem is not None and "fails its MAC" in result.problem


class _AuditServer(audit_service_pb2_grpc.AuditServiceServicer):
    """An AuditService holding the vectors' audit key, as the real server holds its own (which no test can
    give it): it answers VerifyAuditCheckpoints with checkpoints_under(KEY)."""

    def __init__(self) -> None:
        self.requests: list[int] = []
        self.head: AuditHead | None = None  # what the key store holds for any trail
        self._check = checkpoints_under(KEY)

    def VerifyAuditCheckpoints(
        self, request: audit_pb.VerifyAuditCheckpointsRequest, context: grpc.ServicerContext
    ) -> audit_pb.VerifyAuditCheckpointsResponse:
        self.requests.append(len(request.checkpoints))
        return audit_pb.VerifyAuditCheckpointsResponse(
            valid=[self._check(c.seq, c.time, c.prev, c.mac) for c in request.checkpoints], head=self.head
        )

    def HashAuditValue(
        self, request: audit_pb.HashAuditValueRequest, context: grpc.ServicerContext
    ) -> audit_pb.HashAuditValueResponse:
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "not in this fake")


@pytest.fixture
def fake_audit() -> Iterator[tuple[cipherd.Client, _AuditServer]]:
    servicer = _AuditServer()
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    audit_service_pb2_grpc.add_AuditServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with cipherd.Client(f"127.0.0.1:{port}", timeout=10) as client:
            yield client, servicer
    finally:
        server.stop(grace=None)


@pytest.mark.parametrize("case", SPEC["cases"], ids=[c["name"] for c in SPEC["cases"]])
def test_vector_with_the_macs_checked_by_the_server(
    case: dict[str, Any], fake_audit: tuple[cipherd.Client, _AuditServer]
) -> None:
    client, servicer = fake_audit
    servicer.head = _head(case)
    files = [VECTORS / name for name in case["files"]]
    result, asked = verify_with_server(client, files)

    assert result.intact == case["intact"], result.problem
    assert result.macs_checked and asked == len(checkpoints(files))
    assert result.completeness_checked == ("head" in case)
    if "first_bad_line" in case:
        assert result.problem is not None and result.problem.startswith(case["first_bad_line"] + ":")
    # The head first (no checkpoints asked), then the checkpoints.
    assert servicer.requests == ([0, asked] if asked else [0])


@pytest.mark.parametrize(
    ("files", "head", "problem"),
    [
        (
            ["head-cut.log"],
            None,
            "head-cut.log:1: the trail's first line, seq 1, is a call line, not a start line: lines "
            "before it were removed",
        ),
        (
            ["tail-cut.log"],
            "intact.head.json",
            "tail-cut.log:7: the trail ends at seq 6, before the anchored head at "
            "seq 8: lines were removed from its end",
        ),
        (
            ["rechained-padded.log"],
            "intact.head.json",
            "rechained-padded.log:9: the line at seq 8 is not the anchored "
            "head (its hash is not the anchor's): the tail was rewritten",
        ),
        (
            ["cut-recorded.log"],
            None,
            "cut-recorded.log:5: the server found the trail cut at restart: its anchor was at "
            "seq 8, the files ended at seq 3",
        ),
        (
            ["rotated.log.20261124T080000.050Z", "rotated.log"],
            "rotated.head.json",
            "rotated.log.20261124T080000.050Z:1: "
            "the trail starts at seq 5, but its anchor starts it at seq 0: lines before were removed (missing: "
            "rotated.log.20261124T080000.020Z, seqs 0-4)",
        ),
        (
            ["rotated.log.20261124T080000.020Z", "rotated.log.20261124T080000.050Z", "wrong-from.log"],
            None,
            'wrong-from.log:1: the rotation line says the trail went on from "rotated.log.20261124T080000.040Z", but the '
            'file before it is "rotated.log.20261124T080000.050Z": files were removed, renamed or reordered',
        ),
    ],
)
def test_the_head_checks_name_what_is_missing(files: list[str], head: str | None, problem: str) -> None:
    """The same words as cipherctl's (clients/go/audit TestVerify_namesWhatTheHeadMisses)."""
    result = verify([VECTORS / f for f in files], None, read_head(VECTORS / head) if head else None)
    assert result.problem == problem


def test_checkpoints_are_read_as_written() -> None:
    found = checkpoints([VECTORS / "intact.log"])
    assert len(found) == SPEC["cases"][0]["checkpoints"]
    assert all(c.mac.startswith("hmac-sha256:") and len(c.prev) == 64 for c in found)
    assert [c.seq for c in found] == sorted(c.seq for c in found)


def test_a_server_without_an_audit_trail_has_no_audit_key(client: cipherd.Client) -> None:
    try:
        client.hash_audit_value("tenant-42")
    except cipherd.FailedPreconditionError:
        return
    except cipherd.CipherdError as e:
        if e.code is grpc.StatusCode.UNIMPLEMENTED:
            pytest.skip("the server does not implement AuditService.HashAuditValue yet")
        raise
    pytest.fail("a server without --audit-log hashed a value")


@pytest.mark.server
def test_the_real_servers_trail_verifies_with_its_checkpoints_checked_by_it(tmp_path: Path) -> None:
    """A server of its own writes its audit trail with a checkpoint every 50 ms and a rotation every 4 KiB;
    the trail verifies, every checkpoint checked by that server, and an edited copy does not."""
    jar, java = jar_and_java()
    usage = subprocess.run(
        [java, *os.environ.get("CIPHERD_JAVA_OPTS", "").split(), "-jar", str(jar), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "--audit-log" not in usage.stdout + usage.stderr:
        pytest.skip("the server does not implement --audit-log and AuditService yet")
    log = tmp_path / "audit.log"
    server = start_server(
        tmp_path / "server",
        ["--audit-log", str(log), "--audit-checkpoint-interval", "PT0.05S", "--audit-rotate-size", "4096"],
        grpc.insecure_channel,
    )
    try:
        with cipherd.Client(server.target) as client:
            client.create_key("audited")
            for i in range(40):
                client.encrypt("audited", f"secret-{i}".encode(), context=b"tenant-42")
            time.sleep(0.3)  # a checkpoint after the last call
            # The server keeps writing checkpoints (and rotating) while the trail is read: a rotation
            # between listing the files and reading audit.log shows as a gap, a line being appended as
            # a torn one. Read again (a trail that is really broken stays broken five times over).
            for _ in range(5):
                rotated = sorted(tmp_path.glob("audit.log.*"))
                files = [*rotated, log]
                result, asked = verify_with_server(client, files)
                if result.intact:
                    break
            assert result.intact, result.problem
            assert rotated and asked == result.checkpoints > 0 and result.calls >= 41
            hashed = client.hash_audit_value(b"tenant-42")
            assert re.fullmatch(r"hmac-sha256:[0-9a-f]{64}", hashed)
            assert client.hash_audit_value("tenant-42") == hashed != client.hash_audit_value("tenant-43")
            # The vectors' checkpoints were MACed with another audit key: this server refuses each one.
            vectors, vectors_asked = verify_with_server(client, [VECTORS / "intact.log"])
            assert vectors_asked == 3 and vectors.problem is not None and vectors.problem.endswith("fails its MAC")
    finally:
        server.stop()
    trail = b"".join(f.read_bytes() for f in files)
    assert b"secret-" not in trail and b"tenant-42" not in trail and hashed.encode() in trail

    lines = rotated[0].read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"seq":', b'"seq": ', 1)
    rotated[0].write_bytes(b"\n".join(lines))
    edited = verify(files)
    assert edited.problem is not None and re.match(rf"{re.escape(rotated[0].name)}:3: seq \d+ altered", edited.problem)


def test_an_altered_line_is_named_by_its_seq_too() -> None:
    assert (
        verify([VECTORS / "edited.log"]).problem
        == "edited.log:3: seq 2 altered (its hash is not the prev of the line after it)"
    )
