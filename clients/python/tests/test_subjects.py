"""Data subjects: the subject options of the encrypting calls, SubjectService's calls and their types, the two
reasons' errors and the subject-bound header. A fake SubjectService and CryptoService record what requests carry
(the real server cannot be asked); the others run against the real jar."""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest
from google.protobuf import timestamp_pb2
from google.rpc.error_details_pb2 import ErrorInfo
from google.rpc.status_pb2 import Status
from grpc_status import rpc_status

import cipherd
from cipherd.envelope import SUBJECT_REF_SIZE
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import crypto_service_pb2_grpc, subject_service_pb2_grpc
from cipherd.v1 import subject_service_pb2 as subject_pb
from server import RunningServer

ERASED_AT = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)


def _ts(t: datetime) -> timestamp_pb2.Timestamp:
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(t)
    return ts


class _Subjects(subject_service_pb2_grpc.SubjectServiceServicer):
    """Erases subjects by id; an id starting "bad-" fails alone; `short` answers one result fewer than asked."""

    def __init__(self) -> None:
        self.erased: set[str] = set()
        self.calls: list[int] = []
        self.short = False

    def _erase(self, key_name: str, subject: str) -> subject_pb.SubjectErasure:
        if subject.startswith("nokey-"):
            return subject_pb.SubjectErasure(outcome=subject_pb.SUBJECT_ERASURE_OUTCOME_NO_KEY)
        if subject in self.erased:
            return subject_pb.SubjectErasure(
                outcome=subject_pb.SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED, erase_time=_ts(ERASED_AT)
            )
        self.erased.add(subject)
        receipt = subject_pb.ErasureReceipt(
            key_name=key_name,
            subject_hash="ab" * 32,
            erase_time=_ts(ERASED_AT),
            trail="audit.jsonl",
            audit_seq=len(self.erased),
            record_hash="cd" * 32,
        )
        return subject_pb.SubjectErasure(
            outcome=subject_pb.SUBJECT_ERASURE_OUTCOME_ERASED, erase_time=_ts(ERASED_AT), receipt=receipt
        )

    def EraseSubject(
        self, request: subject_pb.EraseSubjectRequest, context: grpc.ServicerContext
    ) -> subject_pb.EraseSubjectResponse:
        return subject_pb.EraseSubjectResponse(erasure=self._erase(request.key_name, request.subject))

    def EraseSubjects(
        self, request: subject_pb.EraseSubjectsRequest, context: grpc.ServicerContext
    ) -> subject_pb.EraseSubjectsResponse:
        self.calls.append(len(request.items))
        results = []
        for item in request.items:
            if item.subject.startswith("bad-"):
                error = pb.ItemError(
                    code=grpc.StatusCode.INVALID_ARGUMENT.value[0], reason="INVALID_ARGUMENT", message="m"
                )
                results.append(subject_pb.EraseSubjectsResult(reference=item.reference, error=error))
            else:
                erasure = self._erase(request.key_name, item.subject)
                results.append(subject_pb.EraseSubjectsResult(reference=item.reference, erasure=erasure))
        return subject_pb.EraseSubjectsResponse(results=results[1:] if self.short else results)

    def GetSubject(
        self, request: subject_pb.GetSubjectRequest, context: grpc.ServicerContext
    ) -> subject_pb.GetSubjectResponse:
        if request.subject in self.erased:
            return subject_pb.GetSubjectResponse(
                state=subject_pb.SUBJECT_STATE_ERASED, create_time=_ts(ERASED_AT), erase_time=_ts(ERASED_AT)
            )
        return subject_pb.GetSubjectResponse(state=subject_pb.SUBJECT_STATE_NO_KEY)


class _Crypto(crypto_service_pb2_grpc.CryptoServiceServicer):
    """Records every encrypting request; refuses an erased subject's Encrypt as the server does."""

    def __init__(self, subjects: _Subjects) -> None:
        self.requests: list[Any] = []
        self.subjects = subjects

    def Encrypt(self, request: pb.EncryptRequest, context: grpc.ServicerContext) -> pb.EncryptResponse:
        self.requests.append(request)
        if request.subject in self.subjects.erased and not request.renew_erased_subject:
            info = ErrorInfo(
                reason="SUBJECT_ERASED",
                domain="cipherd.io",
                metadata={"key": request.key_name, "erase_time": "2026-11-26T20:00:00Z"},
            )
            status = Status(code=grpc.StatusCode.FAILED_PRECONDITION.value[0], message="the subject was erased")
            status.details.add().Pack(info)
            context.abort_with_status(rpc_status.to_status(status))
        return pb.EncryptResponse(ciphertext="<users/s:gcm>AAAA")

    def EncryptBatch(self, request: pb.EncryptBatchRequest, context: grpc.ServicerContext) -> pb.EncryptBatchResponse:
        self.requests.append(request)
        return pb.EncryptBatchResponse(
            results=[pb.EncryptBatchResult(reference=i.reference, ciphertext="<k/s:gcm>AAAA") for i in request.items]
        )

    def EncryptStream(self, requests: Iterator[pb.EncryptStreamRequest], context: grpc.ServicerContext) -> Any:
        for request in requests:
            self.requests.append(request)
            yield pb.EncryptStreamResponse(
                result=pb.EncryptBatchResult(reference=request.reference, ciphertext="<k/s:gcm>AAAA")
            )

    def GenerateDataKey(
        self, request: pb.GenerateDataKeyRequest, context: grpc.ServicerContext
    ) -> pb.GenerateDataKeyResponse:
        self.requests.append(request)
        return pb.GenerateDataKeyResponse(wrapped_key="<k/s:gcm>AAAA", plaintext_key=bytes(32))


@pytest.fixture
def fake() -> Iterator[tuple[str, _Subjects, _Crypto]]:
    subjects = _Subjects()
    crypto = _Crypto(subjects)  # type: ignore[abstract]  # the encrypting calls only: the others stay UNIMPLEMENTED
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    subject_service_pb2_grpc.add_SubjectServiceServicer_to_server(subjects, server)
    crypto_service_pb2_grpc.add_CryptoServiceServicer_to_server(crypto, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", subjects, crypto
    finally:
        server.stop(grace=None)


def test_subject_options_reach_every_encrypting_request(fake: tuple[str, _Subjects, _Crypto]) -> None:
    target, _, crypto = fake
    items = [cipherd.EncryptItem(b"a", reference="a"), cipherd.EncryptItem(b"b", reference="b", subject="user-7")]
    with cipherd.Client(target, timeout=10) as c:
        c.encrypt("users", b"x", subject="user-8812", renew_erased_subject=True)
        c.encrypt_batch("users", items, subject="user-8812")
        assert [r.ok for r in c.encrypt_stream("users", items, subject="user-8812", renew_erased_subject=True)] == [
            True,
            True,
        ]
        c.generate_data_key("users", subject="user-9", renew_erased_subject=True)
        c.encrypt("users", b"plain")
    encrypt, batch, s1, s2, data_key, plain = crypto.requests
    assert (encrypt.subject, encrypt.renew_erased_subject) == ("user-8812", True)
    assert (batch.subject, batch.renew_erased_subject) == ("user-8812", False)
    assert [i.subject for i in batch.items] == ["", "user-7"]
    assert (s1.subject, s2.subject, s1.renew_erased_subject, s2.renew_erased_subject) == (
        "user-8812",
        "user-7",
        True,
        True,
    )
    assert (data_key.subject, data_key.renew_erased_subject) == ("user-9", True)
    assert (plain.subject, plain.renew_erased_subject) == ("", False)


def test_erase_subject_outcomes_receipt_status_and_the_erased_error(fake: tuple[str, _Subjects, _Crypto]) -> None:
    target, _, _ = fake
    with cipherd.Client(target, timeout=10) as c:
        first = c.erase_subject("users", "user-8812")
        assert first.outcome is cipherd.ErasureOutcome.ERASED and first.erase_time == ERASED_AT
        assert first.receipt == cipherd.ErasureReceipt("users", "ab" * 32, ERASED_AT, "audit.jsonl", 1, "cd" * 32)
        again = c.erase_subject("users", "user-8812")
        assert again.outcome is cipherd.ErasureOutcome.ALREADY_ERASED and again.receipt is None
        none = c.erase_subject("users", "nokey-1")
        assert none.outcome is cipherd.ErasureOutcome.NO_KEY and none.erase_time is None

        with pytest.raises(cipherd.SubjectErasedError) as raised:
            c.encrypt("users", b"x", subject="user-8812")
        assert isinstance(raised.value, cipherd.FailedPreconditionError)
        assert not isinstance(raised.value, cipherd.DecryptionFailedError)
        assert raised.value.erase_time == ERASED_AT and "user-8812" not in str(raised.value)
        c.encrypt("users", b"x", subject="user-8812", renew_erased_subject=True)

        status = c.get_subject("users", "user-8812")
        assert status == cipherd.SubjectStatus(cipherd.SubjectState.ERASED, ERASED_AT, ERASED_AT, 0)
        assert c.get_subject("users", "user-1").state is cipherd.SubjectState.NO_KEY


def test_erase_subjects_in_calls_of_1000_one_result_per_item(fake: tuple[str, _Subjects, _Crypto]) -> None:
    target, subjects, _ = fake
    ids: list[cipherd.SubjectItem | str] = [cipherd.SubjectItem(f"user-{i}", reference=str(i)) for i in range(2500)]
    ids[1234] = cipherd.SubjectItem("bad-1234", reference="1234")
    with cipherd.Client(target, timeout=10) as c:
        results = c.erase_subjects("users", ids)
        assert subjects.calls == [1000, 1000, 500]
        assert [r.reference for r in results] == [str(i) for i in range(2500)]
        assert isinstance(results[1234].error, cipherd.InvalidArgumentError)
        assert all(
            r.ok and r.unwrap().outcome is cipherd.ErasureOutcome.ERASED for i, r in enumerate(results) if i != 1234
        )
        subjects.short = True
        with pytest.raises(cipherd.CipherdError, match="answered 1 results for 2 subjects"):
            c.erase_subjects("users", ["a", "b"])


async def test_async_client_erases_and_reads_subjects(fake: tuple[str, _Subjects, _Crypto]) -> None:
    target, subjects, _ = fake
    async with cipherd.AsyncClient(target, timeout=10) as c:
        erased = await c.erase_subject("users", "user-1")
        results = await c.erase_subjects("users", ["user-1", "user-2"])
        status = await c.get_subject("users", "user-2")
    assert erased.outcome is cipherd.ErasureOutcome.ERASED
    assert [r.unwrap().outcome for r in results] == [
        cipherd.ErasureOutcome.ALREADY_ERASED,
        cipherd.ErasureOutcome.ERASED,
    ]
    assert status.state is cipherd.SubjectState.ERASED and subjects.calls == [2]


def test_reprs_never_show_a_subject() -> None:
    for value in (
        cipherd.SubjectItem("alice@example.com", reference="r1"),
        cipherd.EncryptItem(b"secret", reference="r1", subject="alice@example.com"),
    ):
        assert "alice@example.com" not in repr(value) and "r1" in repr(value)


def _subject_bound(mode: str, payload_length: int) -> str:
    return f"<users/s:{mode}>" + base64.b64encode(bytes([0x5A]) * payload_length).decode()


@pytest.mark.parametrize(("mode", "minimum"), [("gcm", 28), ("chacha", 28), ("xgcm", 40)])
def test_subject_bound_header_names_no_version(mode: str, minimum: int) -> None:
    text = _subject_bound(mode, SUBJECT_REF_SIZE + minimum)
    envelope = cipherd.parse_ciphertext(text)
    assert envelope.subject_bound and envelope.key_version == 0 and envelope.mode is cipherd.Mode(mode)
    assert envelope.header == f"<users/s:{mode}>" and envelope.format() == text


@pytest.mark.parametrize(
    ("text", "defect"),
    [
        (_subject_bound("gcm", SUBJECT_REF_SIZE + 27), "payload_length_invalid"),
        (_subject_bound("cbc", 64), "mode_unknown"),
        (_subject_bound("siv", 64), "mode_unknown"),
        (_subject_bound("hmac", 64), "mode_unknown"),
        ("<users/S:gcm>" + base64.b64encode(bytes(44)).decode(), "version_invalid"),
        ("<users/s1:gcm>" + base64.b64encode(bytes(44)).decode(), "version_invalid"),
        ("<users/s:gcm>", "payload_empty"),
    ],
)
def test_malformed_subject_bound_headers_are_refused(text: str, defect: str) -> None:
    with pytest.raises(cipherd.InvalidCiphertextError) as raised:
        cipherd.parse_ciphertext(text)
    assert raised.value.defect == defect


@pytest.fixture
def subjects_client(plain_server: RunningServer) -> Iterator[tuple[cipherd.Client, str]]:
    """The real server and a fresh gcm key."""
    key = f"subj-{uuid.uuid4().hex[:12]}"
    with cipherd.Client(plain_server.target, timeout=30) as c:
        c.create_key(key)
        yield c, key


def test_erasing_one_subject_leaves_the_others_on_the_real_server(subjects_client: tuple[cipherd.Client, str]) -> None:
    c, key = subjects_client
    alice = c.encrypt(key, b"alice@example.com", context=b"users.email", subject="user-1")
    bob = c.encrypt(key, b"bob@example.com", context=b"users.email", subject="user-2")
    assert cipherd.parse_ciphertext(alice).subject_bound and "user-1" not in alice
    assert c.inspect(alice).subject_bound
    erasure = c.erase_subject(key, "user-1")
    assert erasure.outcome is cipherd.ErasureOutcome.ERASED
    with pytest.raises(cipherd.SubjectErasedError) as raised:
        c.decrypt(alice, context=b"users.email")
    assert raised.value.erase_time == erasure.erase_time and "user-1" not in str(raised.value)
    assert c.decrypt(bob, context=b"users.email") == b"bob@example.com"
    with pytest.raises(cipherd.SubjectErasedError):
        c.encrypt(key, b"x", subject="user-1")
    renewed = c.encrypt(key, b"new", subject="user-1", renew_erased_subject=True)
    assert c.decrypt(renewed) == b"new"
    assert c.get_subject(key, "user-1").state is cipherd.SubjectState.ACTIVE
    results = c.erase_subjects(key, ["user-2", "user-never"])
    assert [r.unwrap().outcome for r in results] == [cipherd.ErasureOutcome.ERASED, cipherd.ErasureOutcome.NO_KEY]
    decrypted = c.decrypt_batch([cipherd.CiphertextItem(bob, context=b"users.email")])
    assert isinstance(decrypted[0].error, cipherd.SubjectErasedError)


@pytest.mark.parametrize(
    ("sent", "read"),
    [
        ("2026-11-26T20:00:00Z", ERASED_AT),
        ("2026-11-26T20:00:00.123456789Z", ERASED_AT.replace(microsecond=123456)),
        ("yesterday", None),
        ("", None),
    ],
)
def test_erase_time_is_read_from_the_metadata_to_the_microsecond(sent: str, read: datetime | None) -> None:
    error = cipherd.error_for(grpc.StatusCode.FAILED_PRECONDITION, "m", "SUBJECT_ERASED", {"erase_time": sent})
    assert isinstance(error, cipherd.SubjectErasedError) and error.erase_time == read
