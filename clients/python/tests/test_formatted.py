"""Format-preserving values: the calls of FormatPreservingService, their types (a ciphertext travels with its key
version) and key creation with a format. A fake FormatPreservingService and KeyAdminService record what requests
carry (the real server cannot be asked); the others run against the real jar."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from google.rpc.error_details_pb2 import ErrorInfo
from google.rpc.status_pb2 import Status
from grpc_status import rpc_status

import cipherd
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import format_preserving_service_pb2 as fpe
from cipherd.v1 import format_preserving_service_pb2_grpc, key_admin_service_pb2_grpc, keys_pb2
from cipherd.v1 import key_admin_service_pb2 as admin
from server import RunningServer

NO_VERSION = "FF1 values carry no version: pass the key_version EncryptFormatted returned"


def _result(reference: str, value: str, version: int, source: int = 0) -> fpe.FormattedBatchResult:
    if value == "bad":
        error = pb.ItemError(code=3, reason="INVALID_ARGUMENT", message="character 2 is not in the key's alphabet")
        return fpe.FormattedBatchResult(reference=reference, error=error)
    return fpe.FormattedBatchResult(reference=reference, value=value, key_version=version, source_key_version=source)


class _Formatted(format_preserving_service_pb2_grpc.FormatPreservingServiceServicer):
    """ "Encrypts" by reversing at version 3, refuses key_version 0 as the server does for a key without a version
    prefix, fails an item whose value is "bad", and records every request."""

    def __init__(self) -> None:
        self.requests: list[Any] = []
        # The next stream call ends with UNAVAILABLE after that many answers (0: never), once.
        self.fail_stream_after = 0

    def _stream(self, requests: Iterator[Any], context: grpc.ServicerContext, answer: Any, wrap: Any) -> Iterator[Any]:
        fail_after, self.fail_stream_after = self.fail_stream_after, 0
        for answered, request in enumerate(requests):
            if fail_after and answered == fail_after:
                # Read the rest first: a status sent while the client is still writing reaches the
                # async client, now and then, as grpc-core's INTERNAL for the failed write instead.
                for _ in requests:
                    pass
                context.abort(grpc.StatusCode.UNAVAILABLE, "the fake server went away")
            self.requests.append(request)
            yield wrap(result=answer(request))

    def EncryptFormattedStream(self, requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:  # noqa: N802
        return self._stream(
            requests,
            context,
            lambda r: _result(r.reference, r.value if r.value == "bad" else r.value[::-1], 3),
            fpe.EncryptFormattedStreamResponse,
        )

    def DecryptFormattedStream(self, requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:  # noqa: N802
        return self._stream(
            requests,
            context,
            lambda r: _result(r.reference, r.value if r.value == "bad" else r.value[::-1], r.key_version),
            fpe.DecryptFormattedStreamResponse,
        )

    def ReEncryptFormattedStream(self, requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:  # noqa: N802
        return self._stream(
            requests,
            context,
            lambda r: _result(r.reference, r.value if r.value == "bad" else "re-" + r.value, 4, r.key_version),
            fpe.ReEncryptFormattedStreamResponse,
        )

    def _versioned(self, request: Any, context: grpc.ServicerContext) -> None:
        self.requests.append(request)
        if request.key_version == 0:
            info = ErrorInfo(domain="cipherd.io", reason="INVALID_ARGUMENT")
            status = Status(code=grpc.StatusCode.INVALID_ARGUMENT.value[0], message=NO_VERSION)
            status.details.add().Pack(info)
            context.abort_with_status(rpc_status.to_status(status))

    def EncryptFormatted(self, request: Any, context: grpc.ServicerContext) -> fpe.EncryptFormattedResponse:  # noqa: N802
        self.requests.append(request)
        return fpe.EncryptFormattedResponse(value=request.value[::-1], key_version=3)

    def DecryptFormatted(self, request: Any, context: grpc.ServicerContext) -> fpe.DecryptFormattedResponse:  # noqa: N802
        self._versioned(request, context)
        return fpe.DecryptFormattedResponse(value=request.value[::-1], key_version=request.key_version)

    def ReEncryptFormatted(self, request: Any, context: grpc.ServicerContext) -> fpe.ReEncryptFormattedResponse:  # noqa: N802
        self._versioned(request, context)
        return fpe.ReEncryptFormattedResponse(
            value="re-" + request.value, key_version=4, source_key_version=request.key_version
        )

    def MaskFormatted(self, request: Any, context: grpc.ServicerContext) -> fpe.MaskFormattedResponse:  # noqa: N802
        self._versioned(request, context)
        return fpe.MaskFormattedResponse(masked="•••• 4242", key_version=request.key_version)

    def EncryptFormattedBatch(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        self.requests.append(request)
        results = [_result(i.reference, i.value if i.value == "bad" else i.value[::-1], 3) for i in request.items]
        return fpe.EncryptFormattedBatchResponse(results=results)

    def DecryptFormattedBatch(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        self.requests.append(request)
        results = [
            _result(i.reference, i.value if i.value == "bad" else i.value[::-1], i.key_version or request.key_version)
            for i in request.items
        ]
        return fpe.DecryptFormattedBatchResponse(results=results)

    def ReEncryptFormattedBatch(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        self.requests.append(request)
        results = [_result(i.reference, i.value, 4, i.key_version or request.key_version) for i in request.items]
        return fpe.ReEncryptFormattedBatchResponse(results=results)


class _Admin(key_admin_service_pb2_grpc.KeyAdminServiceServicer):
    """Records CreateKey and ImportKey and answers with the key they describe."""

    def __init__(self, log: list[Any]) -> None:
        self.requests = log

    def _key(self, request: Any, imported: bool) -> keys_pb2.Key:
        self.requests.append(request)
        version = keys_pb2.KeyVersion(version=1, mode=request.mode, imported=imported, fpe_format=request.fpe_format)
        return keys_pb2.Key(key_name=request.key_name, current_version=1, versions=[version])

    def CreateKey(self, request: Any, context: grpc.ServicerContext) -> admin.CreateKeyResponse:  # noqa: N802
        return admin.CreateKeyResponse(key=self._key(request, False))

    def ImportKey(self, request: Any, context: grpc.ServicerContext) -> admin.ImportKeyResponse:  # noqa: N802
        return admin.ImportKeyResponse(key=self._key(request, True))


@pytest.fixture
def fake() -> Iterator[tuple[str, _Formatted]]:
    formatted = _Formatted()
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    format_preserving_service_pb2_grpc.add_FormatPreservingServiceServicer_to_server(formatted, server)
    key_admin_service_pb2_grpc.add_KeyAdminServiceServicer_to_server(_Admin(formatted.requests), server)  # type: ignore[abstract]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", formatted
    finally:
        server.stop(grace=None)


def test_unary_calls_send_key_value_context_and_version(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    with cipherd.Client(target, timeout=10) as c:
        ct = c.encrypt_formatted("cards", "1234567890", context=b"users.card")
        assert ct == cipherd.FormattedValue("0987654321", 3)
        assert c.decrypt_formatted("cards", ct, context=b"users.card") == "1234567890"
        moved = c.re_encrypt_formatted("cards", ct, context=b"users.card")
        assert (moved.value, moved.key_version, moved.source_key_version) == ("re-0987654321", 4, 3)
        assert c.mask_formatted("cards", ct, context=b"users.card") == "•••• 4242"
    encrypt, decrypt, rewrap, mask = formatted.requests
    assert (encrypt.key_name, encrypt.value, encrypt.context) == ("cards", "1234567890", b"users.card")
    for r in (decrypt, rewrap, mask):
        assert (r.key_name, r.value, r.context, r.key_version) == ("cards", "0987654321", b"users.card", 3)


def test_a_ciphertext_without_its_version_is_refused(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    with cipherd.Client(target, timeout=10) as c:
        with pytest.raises(TypeError, match="key version"):
            c.decrypt_formatted("cards", "0987654321")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="key version"):
            c.decrypt_formatted_batch("cards", ["0987654321"])  # type: ignore[list-item]
        with pytest.raises(TypeError):
            cipherd.FormattedValue("0987654321")  # type: ignore[call-arg]
        assert not formatted.requests
        with pytest.raises(cipherd.InvalidArgumentError, match="key_version"):
            c.mask_formatted("cards", cipherd.FormattedValue("0987654321", 0))


def test_batches_one_result_per_item_in_order_each_with_its_own_version(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    plain: list[cipherd.FormattedPlainItem | str] = [
        cipherd.FormattedPlainItem("123456", reference="a"),
        cipherd.FormattedPlainItem("bad", reference="b"),
        cipherd.FormattedPlainItem("654321", context=b"own", reference="c"),
        "111222",
    ]
    with cipherd.Client(target, timeout=10) as c:
        encrypted = c.encrypt_formatted_batch("ids", plain, context=b"batch")
        assert [r.reference for r in encrypted] == ["a", "b", "c", ""]
        assert encrypted[0].unwrap() == cipherd.FormattedValue("654321", 3)
        assert isinstance(encrypted[1].error, cipherd.InvalidArgumentError) and encrypted[1].key_version == 0
        items: list[cipherd.FormattedItem | cipherd.FormattedValue] = [
            cipherd.FormattedItem(encrypted[0].unwrap(), reference="a"),
            cipherd.FormattedValue("cba", 1),
            cipherd.FormattedItem(cipherd.FormattedValue("bad", 2), context=b"own", reference="b"),
        ]
        decrypted = c.decrypt_formatted_batch("ids", items, context=b"batch")
        assert [(r.value, r.key_version) for r in decrypted[:2]] == [("123456", 3), ("abc", 1)]
        assert isinstance(decrypted[2].error, cipherd.InvalidArgumentError)
        moved = c.re_encrypt_formatted_batch("ids", items)
        assert [(m.key_version, m.source_key_version) for m in (moved[0].unwrap(), moved[1].unwrap())] == [
            (4, 3),
            (4, 1),
        ]
    batch = formatted.requests[0]
    assert batch.context == b"batch" and [i.context for i in batch.items] == [b"", b"", b"own", b""]
    decrypt = formatted.requests[1]
    assert decrypt.key_version == 0 and [i.key_version for i in decrypt.items] == [3, 1, 2]


async def test_the_async_client_encrypts_and_decrypts_formatted_values(fake: tuple[str, _Formatted]) -> None:
    target, _ = fake
    async with cipherd.AsyncClient(target, timeout=10) as c:
        ct = await c.encrypt_formatted("ids", "42", context=b"x")
        assert await c.decrypt_formatted("ids", ct, context=b"x") == "42"
        results = await c.encrypt_formatted_batch("ids", ["1", "bad"])
        assert [r.ok for r in results] == [True, False]


def _column(n: int, bad: int = -1) -> list[cipherd.FormattedItem]:
    """n stored values "v<i>" at version 1 with references "0" to "n-1", "bad" at `bad`."""
    return [
        cipherd.FormattedItem(cipherd.FormattedValue("bad" if i == bad else f"v{i}", 1), reference=str(i))
        for i in range(n)
    ]


def test_re_encrypt_formatted_stream_answers_each_item_in_order_a_failed_one_alone(
    fake: tuple[str, _Formatted],
) -> None:
    target, formatted = fake
    with cipherd.Client(target, timeout=10) as c:
        results = list(c.re_encrypt_formatted_stream("cards", _column(1500, bad=700), context=b"payments.pan"))
    assert [r.reference for r in results] == [str(i) for i in range(1500)]
    assert isinstance(results[700].error, cipherd.InvalidArgumentError)
    moved = [r.unwrap() for i, r in enumerate(results) if i != 700]
    assert all(m.key_version == 4 and m.source_key_version == 1 for m in moved)
    assert [m.value for m in moved[:2]] == ["re-v0", "re-v1"]
    first = formatted.requests[0]
    assert (first.key_name, first.context, first.key_version) == ("cards", b"payments.pan", 1)


def test_encrypt_and_decrypt_formatted_streams_keep_order_and_an_items_own_context(
    fake: tuple[str, _Formatted],
) -> None:
    target, formatted = fake
    items = [
        cipherd.FormattedPlainItem("1234", reference="a"),
        cipherd.FormattedPlainItem("bad", reference="b"),
        cipherd.FormattedPlainItem("5678", context=b"own", reference="c"),
    ]
    with cipherd.Client(target, timeout=10) as c:
        encrypted = list(c.encrypt_formatted_stream("ids", items, context=b"users.id"))
        assert [r.reference for r in encrypted] == ["a", "b", "c"] and not encrypted[1].ok
        assert encrypted[0].unwrap() == cipherd.FormattedValue("4321", 3)
        assert [r.context for r in formatted.requests] == [b"users.id", b"users.id", b"own"]
        back = [cipherd.FormattedItem(encrypted[i].unwrap(), reference=ref) for i, ref in ((0, "a"), (2, "c"))]
        assert [r.unwrap() for r in c.decrypt_formatted_stream("ids", back)] == ["1234", "5678"]
    assert [r.key_version for r in formatted.requests[3:]] == [3, 3]


def test_a_broken_formatted_stream_resumes_after_its_last_reference(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    formatted.fail_stream_after = 900
    answered: list[str] = []
    with cipherd.Client(target, timeout=10) as c:
        with pytest.raises(cipherd.UnavailableError) as broken:
            for r in c.re_encrypt_formatted_stream("cards", _column(2000)):
                answered.append(r.reference)
        assert broken.value.last_reference == "899" and len(answered) == 900
        for r in c.re_encrypt_formatted_stream("cards", _column(2000), resume_after=broken.value.last_reference):
            answered.append(r.reference)
    assert answered == [str(i) for i in range(2000)]


async def test_the_async_client_streams_formatted_values_and_resumes(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    formatted.fail_stream_after = 300
    answered: list[str] = []
    async with cipherd.AsyncClient(target, timeout=10) as c:
        with pytest.raises(cipherd.UnavailableError) as broken:
            async for r in c.re_encrypt_formatted_stream("cards", _column(1000, bad=100)):
                answered.append(r.reference)
        resumed = c.re_encrypt_formatted_stream(
            "cards", _column(1000, bad=100), resume_after=broken.value.last_reference
        )
        answered += [r.reference async for r in resumed]
    assert answered == [str(i) for i in range(1000)]


def test_create_and_import_send_the_format(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    card = cipherd.FpeFormat(template=cipherd.FpeTemplate.CARD_NUMBER, accept_small_domain=True, mask_visible_suffix=4)
    with cipherd.Client(target, timeout=10) as c:
        key = c.create_key("cards", mode=cipherd.Mode.FF1, fpe_format=card)
        assert key.versions[0].mode is cipherd.Mode.FF1 and key.versions[0].fpe_format == card
        hexa = cipherd.FpeFormat(alphabet="0123456789abcdef", version_prefix_length=1)
        imported = c.import_key("tokens", bytes(32), mode="ff1", fpe_format=hexa)
        assert imported.versions[0].fpe_format == hexa
    create, imp = formatted.requests
    assert create.mode == keys_pb2.MODE_FF1
    assert create.fpe_format.template == keys_pb2.FPE_TEMPLATE_CARD_NUMBER and create.fpe_format.accept_small_domain
    assert imp.fpe_format.alphabet == "0123456789abcdef" and imp.fpe_format.version_prefix_length == 1


def test_formats_that_cannot_be_are_refused_before_sending(fake: tuple[str, _Formatted]) -> None:
    target, formatted = fake
    with pytest.raises(ValueError, match="exactly one"):
        cipherd.FpeFormat(alphabet="01", template=cipherd.FpeTemplate.DIGITS)
    with pytest.raises(ValueError, match="exactly one"):
        cipherd.FpeFormat()
    assert cipherd.FpeFormat(template="digits").template is cipherd.FpeTemplate.DIGITS  # type: ignore[arg-type]
    with cipherd.Client(target, timeout=10) as c:
        with pytest.raises(ValueError, match="needs fpe_format"):
            c.create_key("k", mode=cipherd.Mode.FF1)
        with pytest.raises(ValueError, match="Mode.FF1"):
            c.create_key("k", fpe_format=cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS))
        with pytest.raises(ValueError, match="Mode.FF1"):
            c.import_key("k", bytes(64), mode="siv", fpe_format=cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS))
    assert not formatted.requests


def test_every_api_template_has_a_name() -> None:
    names = {n.removeprefix("FPE_TEMPLATE_").lower() for n in keys_pb2.FpeTemplate.keys()} - {"unspecified"}  # noqa: SIM118
    assert names == {t.value for t in cipherd.FpeTemplate}


def test_reprs_never_show_a_plaintext() -> None:
    assert "4111" not in repr(cipherd.FormattedPlainItem("4111111111111111", reference="r"))


# Against the real server (they need issue 34's FormatPreservingService in the jar).


@pytest.fixture
def real(plain_server: RunningServer) -> Iterator[cipherd.Client]:
    with cipherd.Client(plain_server.target, timeout=30) as c:
        yield c


def _ff1_key(c: cipherd.Client, prefix: str, fmt: cipherd.FpeFormat) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:10]}"
    c.create_key(name, mode=cipherd.Mode.FF1, fpe_format=fmt)
    return name


def _luhn_valid(number: str) -> bool:
    digits = [int(ch) for ch in number if ch.isdigit()][::-1]
    return sum(d if i % 2 == 0 else (2 * d - 9 if d > 4 else 2 * d) for i, d in enumerate(digits)) % 10 == 0


def test_digits_round_trip_and_rewrap_across_a_rotation_on_the_real_server(real: cipherd.Client) -> None:
    key = _ff1_key(real, "py-fpe-digits", cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS))
    v1 = real.encrypt_formatted(key, "0123456789", context=b"users.national_id")
    assert v1.key_version == 1 and len(v1.value) == 10 and v1.value.isdigit() and v1.value != "0123456789"
    assert real.encrypt_formatted(key, "0123456789", context=b"users.national_id") == v1  # deterministic
    assert real.decrypt_formatted(key, v1, context=b"users.national_id") == "0123456789"
    real.rotate_key(key)
    moved = real.re_encrypt_formatted(key, v1, context=b"users.national_id")
    assert (moved.key_version, moved.source_key_version) == (2, 1) and moved.value != v1.value
    assert real.decrypt_formatted(key, moved, context=b"users.national_id") == "0123456789"
    wrong = real.decrypt_formatted(key, cipherd.FormattedValue(v1.value, 2), context=b"users.national_id")
    assert wrong != "0123456789" and len(wrong) == 10  # the wrong version is a wrong value, never an error
    with pytest.raises(cipherd.InvalidArgumentError):
        real.decrypt_formatted(key, cipherd.FormattedValue(v1.value, 0), context=b"users.national_id")
    assert real.get_key(key).versions[1].fpe_format == cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS)


def test_card_numbers_stay_luhn_valid_and_mask_on_the_real_server(real: cipherd.Client) -> None:
    refused = _ff1_key(real, "py-fpe-card-small", cipherd.FpeFormat(template=cipherd.FpeTemplate.CARD_NUMBER))
    with pytest.raises(cipherd.InvalidArgumentError) as raised:
        real.encrypt_formatted(refused, "4111 1111 1111 1111")
    assert "4111" not in str(raised.value)
    fmt = cipherd.FpeFormat(template=cipherd.FpeTemplate.CARD_NUMBER, accept_small_domain=True)
    key = _ff1_key(real, "py-fpe-card", fmt)
    ct = real.encrypt_formatted(key, "4111 1111 1111 1111")
    assert ct.value[:7] == "4111 11" and ct.value[-4:] == "1111" and _luhn_valid(ct.value)
    assert real.mask_formatted(key, ct) == "•••• •••• •••• 1111"
    results = real.encrypt_formatted_batch(key, ["5555 5555 5555 4444", "not a card"])
    assert results[0].ok and isinstance(results[1].error, cipherd.InvalidArgumentError)
    assert real.decrypt_formatted_batch(key, [results[0].unwrap()])[0].unwrap() == "5555 5555 5555 4444"


def test_a_version_prefix_needs_no_version_on_the_real_server(real: cipherd.Client) -> None:
    key = _ff1_key(real, "py-fpe-prefix", cipherd.FpeFormat(alphabet="0123456789abcdef", version_prefix_length=1))
    ct = real.encrypt_formatted(key, "deadbeef00")
    assert ct.key_version == 1 and len(ct.value) == 11 and ct.value[0] == "1"
    assert real.decrypt_formatted(key, cipherd.FormattedValue(ct.value, 0)) == "deadbeef00"


def test_formatted_streams_on_the_real_server_keep_order_and_resume(real: cipherd.Client) -> None:
    key = _ff1_key(real, "py-fpe-stream", cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS))
    plain = [cipherd.FormattedPlainItem(f"{i * 7919:010d}", reference=str(i)) for i in range(600)]
    plain[250] = cipherd.FormattedPlainItem("12345X7890", reference="250")
    encrypted = list(real.encrypt_formatted_stream(key, plain, context=b"users.national_id"))
    assert [r.reference for r in encrypted] == [str(i) for i in range(600)]
    assert isinstance(encrypted[250].error, cipherd.InvalidArgumentError)
    stored = [cipherd.FormattedItem(r.unwrap(), reference=r.reference) for r in encrypted if r.ok]
    decrypted = list(real.decrypt_formatted_stream(key, stored, context=b"users.national_id"))
    assert [r.unwrap() for r in decrypted] == [p.value for i, p in enumerate(plain) if i != 250]
    real.rotate_key(key)
    moved = []
    stream = real.re_encrypt_formatted_stream(key, stored, context=b"users.national_id")
    for r in stream:  # left after 300 items: the call is cancelled, and resumed after the last reference
        moved.append(r.unwrap())
        if len(moved) == 300:
            last = r.reference
            break
    stream.close()
    moved += [
        r.unwrap()
        for r in real.re_encrypt_formatted_stream(key, stored, context=b"users.national_id", resume_after=last)
    ]
    assert len(moved) == 599 and all((m.key_version, m.source_key_version) == (2, 1) for m in moved)
    assert real.decrypt_formatted(key, moved[-1], context=b"users.national_id") == plain[-1].value
