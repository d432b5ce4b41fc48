"""SubjectService requests built from the client's arguments and its answers read: shared by the sync and asyncio
clients."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

from google.protobuf import timestamp_pb2

from cipherd.errors import CipherdError, from_item_error
from cipherd.subjects import ErasureOutcome, ErasureReceipt, SubjectErasure, SubjectItem, SubjectState, SubjectStatus
from cipherd.types import ItemResult
from cipherd.v1 import subject_service_pb2 as subject_pb

# Subjects per EraseSubjects call; the server's default limit of batch items is 4096.
MAX_SUBJECTS_PER_CALL = 1000


def _time(timestamp: timestamp_pb2.Timestamp, present: bool) -> datetime | None:
    return timestamp.ToDatetime(tzinfo=UTC) if present else None


def erasure(e: subject_pb.SubjectErasure) -> SubjectErasure:
    receipt = None
    if e.HasField("receipt"):
        r = e.receipt
        receipt = ErasureReceipt(
            r.key_name, r.subject_hash, r.erase_time.ToDatetime(tzinfo=UTC), r.trail, r.audit_seq, r.record_hash
        )
    outcome = subject_pb.SubjectErasureOutcome.Name(e.outcome).removeprefix("SUBJECT_ERASURE_OUTCOME_").lower()
    return SubjectErasure(ErasureOutcome(outcome), _time(e.erase_time, e.HasField("erase_time")), receipt)


def erase_requests(key_name: str, items: Iterable[SubjectItem | str]) -> Iterator[subject_pb.EraseSubjectsRequest]:
    """EraseSubjects requests of at most MAX_SUBJECTS_PER_CALL items each, in order."""
    chunk: list[subject_pb.EraseSubjectsItem] = []
    for item in items:
        i = item if isinstance(item, SubjectItem) else SubjectItem(item)
        chunk.append(subject_pb.EraseSubjectsItem(reference=i.reference, subject=i.subject))
        if len(chunk) == MAX_SUBJECTS_PER_CALL:
            yield subject_pb.EraseSubjectsRequest(key_name=key_name, items=chunk)
            chunk = []
    if chunk:
        yield subject_pb.EraseSubjectsRequest(key_name=key_name, items=chunk)


def erase_results(
    request: subject_pb.EraseSubjectsRequest, response: subject_pb.EraseSubjectsResponse
) -> list[ItemResult[SubjectErasure]]:
    """One result per item of the request, in order; a CipherdError when the server answered another count, so
    that no item is lost without a word."""
    if len(response.results) != len(request.items):
        raise CipherdError(f"the server answered {len(response.results)} results for {len(request.items)} subjects")
    return [
        ItemResult(r.reference, None, from_item_error(r.error))
        if r.HasField("error")
        else ItemResult(r.reference, erasure(r.erasure), None)
        for r in response.results
    ]


def status(response: subject_pb.GetSubjectResponse) -> SubjectStatus:
    state = subject_pb.SubjectState.Name(response.state).removeprefix("SUBJECT_STATE_").lower()
    return SubjectStatus(
        SubjectState(state),
        _time(response.create_time, response.HasField("create_time")),
        _time(response.erase_time, response.HasField("erase_time")),
        response.key_version,
    )
