"""Requests built from the client's arguments and results read from responses: shared by the sync
and asyncio clients so that both say the same thing."""

from __future__ import annotations

from collections.abc import Iterable

from cipherd.envelope import Mode
from cipherd.errors import from_item_error
from cipherd.legacy import LegacyCiphertext
from cipherd.types import (
    BlindIndex,
    CiphertextItem,
    DataKey,
    EncryptItem,
    IndexItem,
    Inspection,
    ItemResult,
    Normalization,
    ReIndexed,
    Rewrapped,
)
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import keys_pb2


def mode_to_proto(mode: Mode | str | None) -> keys_pb2.Mode.ValueType:
    """MODE_UNSPECIFIED for None (the server's default), else the proto enum of a header mode name."""
    if mode is None:
        return keys_pb2.MODE_UNSPECIFIED
    return keys_pb2.Mode.Value("MODE_" + Mode(mode).value.upper())


def mode_from_proto(mode: keys_pb2.Mode.ValueType) -> Mode:
    return Mode(keys_pb2.Mode.Name(mode).removeprefix("MODE_").lower())


def _encrypt_item(item: EncryptItem | bytes) -> EncryptItem:
    return item if isinstance(item, EncryptItem) else EncryptItem(item)


def encrypt_batch_request(
    key_name: str, items: Iterable[EncryptItem | bytes], subject: str = "", renew_erased_subject: bool = False
) -> pb.EncryptBatchRequest:
    return pb.EncryptBatchRequest(
        key_name=key_name,
        items=[
            pb.EncryptBatchItem(reference=i.reference, plaintext=i.plaintext, context=i.context, subject=i.subject)
            for i in map(_encrypt_item, items)
        ],
        subject=subject,
        renew_erased_subject=renew_erased_subject,
    )


def encrypt_stream_request(
    item: EncryptItem | bytes, key_name: str, subject: str = "", renew_erased_subject: bool = False
) -> pb.EncryptStreamRequest:
    i = _encrypt_item(item)
    return pb.EncryptStreamRequest(
        reference=i.reference,
        key_name=i.key_name or key_name,
        plaintext=i.plaintext,
        context=i.context,
        subject=i.subject or subject,
        renew_erased_subject=renew_erased_subject,
    )


def _ciphertext_item(item: CiphertextItem | LegacyCiphertext | str) -> CiphertextItem:
    return item if isinstance(item, CiphertextItem) else CiphertextItem(item)


def _cipherd_ciphertext(item: CiphertextItem) -> str:
    if isinstance(item.ciphertext, LegacyCiphertext):
        raise TypeError("a LegacyCiphertext cannot be decrypted, only rewrapped (re_encrypt*, with a key_name)")
    return item.ciphertext


def decrypt_batch_request(items: Iterable[CiphertextItem | str], expected_key: str = "") -> pb.DecryptBatchRequest:
    return pb.DecryptBatchRequest(
        expected_key=expected_key,
        items=[
            pb.DecryptBatchItem(
                reference=i.reference, ciphertext=_cipherd_ciphertext(i), context=i.context, expected_key=i.expected_key
            )
            for i in map(_ciphertext_item, items)
        ],
    )


def decrypt_stream_request(item: CiphertextItem | str, expected_key: str = "") -> pb.DecryptStreamRequest:
    i = _ciphertext_item(item)
    return pb.DecryptStreamRequest(
        reference=i.reference,
        ciphertext=_cipherd_ciphertext(i),
        context=i.context,
        expected_key=i.expected_key or expected_key,
    )


def legacy_to_proto(legacy: LegacyCiphertext) -> pb.LegacyCiphertext:
    message = pb.LegacyCiphertext(key_name=legacy.key_name, key_version=legacy.key_version, iv=legacy.iv)
    if legacy.raw is not None:
        message.raw = legacy.raw
    elif legacy.hex is not None:
        message.hex = legacy.hex
    elif legacy.base64 is not None:
        message.base64 = legacy.base64
    return message


def re_encrypt_request(
    ciphertext: str | LegacyCiphertext, context: bytes, key_name: str, expected_key: str = ""
) -> pb.ReEncryptRequest:
    if isinstance(ciphertext, LegacyCiphertext):
        return pb.ReEncryptRequest(
            legacy=legacy_to_proto(ciphertext), context=context, key_name=key_name, expected_key=expected_key
        )
    return pb.ReEncryptRequest(ciphertext=ciphertext, context=context, key_name=key_name, expected_key=expected_key)


def re_encrypt_batch_request(
    items: Iterable[CiphertextItem | LegacyCiphertext | str], key_name: str, expected_key: str = ""
) -> pb.ReEncryptBatchRequest:
    request = pb.ReEncryptBatchRequest(key_name=key_name, expected_key=expected_key)
    for i in map(_ciphertext_item, items):
        if isinstance(i.ciphertext, LegacyCiphertext):
            request.items.add(
                reference=i.reference,
                legacy=legacy_to_proto(i.ciphertext),
                context=i.context,
                expected_key=i.expected_key,
            )
        else:
            request.items.add(
                reference=i.reference, ciphertext=i.ciphertext, context=i.context, expected_key=i.expected_key
            )
    return request


def re_encrypt_stream_request(
    item: CiphertextItem | LegacyCiphertext | str, key_name: str, expected_key: str = ""
) -> pb.ReEncryptStreamRequest:
    i = _ciphertext_item(item)
    request = pb.ReEncryptStreamRequest(
        reference=i.reference,
        context=i.context,
        key_name=i.key_name or key_name,
        expected_key=i.expected_key or expected_key,
    )
    if isinstance(i.ciphertext, LegacyCiphertext):
        request.legacy.CopyFrom(legacy_to_proto(i.ciphertext))
    else:
        request.ciphertext = i.ciphertext
    return request


def encrypt_result(r: pb.EncryptBatchResult) -> ItemResult[str]:
    if r.HasField("ciphertext"):
        return ItemResult(r.reference, r.ciphertext, None, r.key_version)
    return ItemResult(r.reference, None, from_item_error(r.error))


def decrypt_result(r: pb.DecryptBatchResult) -> ItemResult[bytes]:
    if r.HasField("plaintext"):
        return ItemResult(r.reference, r.plaintext, None, r.key_version)
    return ItemResult(r.reference, None, from_item_error(r.error))


def rewrap_result(r: pb.ReEncryptBatchResult) -> ItemResult[Rewrapped]:
    if r.HasField("ciphertext"):
        return ItemResult(
            r.reference, Rewrapped(r.ciphertext, r.key_version, r.source_key_version), None, r.key_version
        )
    return ItemResult(r.reference, None, from_item_error(r.error))


def rewrapped(response: pb.ReEncryptResponse) -> Rewrapped:
    return Rewrapped(response.ciphertext, response.key_version, response.source_key_version)


def inspection(response: pb.InspectResponse) -> Inspection:
    return Inspection(
        response.key_name,
        response.key_version,
        mode_from_proto(response.mode),
        response.current_version,
        response.behind_current,
        response.subject_bound,
    )


def _normalization(normalization: Normalization | None) -> pb.Normalization | None:
    if normalization is None:
        return None
    return pb.Normalization(trim=normalization.trim, nfkc=normalization.nfkc, casefold=normalization.casefold)


def _value_bytes(value: bytes | str) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else value


def compute_index_request(
    key_name: str,
    value: bytes | str,
    normalization: Normalization | None,
    length_bytes: int,
    key_version: int,
    all_versions: bool,
) -> pb.ComputeIndexRequest:
    return pb.ComputeIndexRequest(
        key_name=key_name,
        value=_value_bytes(value),
        normalization=_normalization(normalization),
        length_bytes=length_bytes,
        key_version=key_version,
        all_versions=all_versions,
    )


def blind_index(response: pb.ComputeIndexResponse) -> BlindIndex:
    return BlindIndex(response.index, response.key_version, {v.key_version: v.index for v in response.versions})


def compute_index_batch_request(
    key_name: str,
    items: Iterable[IndexItem | bytes | str],
    normalization: Normalization | None,
    length_bytes: int,
) -> pb.ComputeIndexBatchRequest:
    return pb.ComputeIndexBatchRequest(
        key_name=key_name,
        normalization=_normalization(normalization),
        length_bytes=length_bytes,
        items=[
            pb.ComputeIndexBatchItem(reference=i.reference, value=_value_bytes(i.value))
            if isinstance(i, IndexItem)
            else pb.ComputeIndexBatchItem(value=_value_bytes(i))
            for i in items
        ],
    )


def index_results(response: pb.ComputeIndexBatchResponse) -> list[ItemResult[bytes]]:
    return [
        ItemResult(r.reference, r.index, None, r.key_version)
        if r.HasField("index")
        else ItemResult(r.reference, None, from_item_error(r.error))
        for r in response.results
    ]


def re_index_request(
    index_key_name: str,
    ciphertext: str,
    context: bytes,
    normalization: Normalization | None,
    length_bytes: int,
    expected_key: str,
) -> pb.ReIndexRequest:
    return pb.ReIndexRequest(
        ciphertext=ciphertext,
        context=context,
        index_key_name=index_key_name,
        normalization=_normalization(normalization),
        length_bytes=length_bytes,
        expected_key=expected_key,
    )


def re_indexed(response: pb.ReIndexResponse) -> ReIndexed:
    return ReIndexed(response.index, response.key_version, response.source_key_version)


def re_index_batch_request(
    index_key_name: str,
    items: Iterable[CiphertextItem | str],
    normalization: Normalization | None,
    length_bytes: int,
    expected_key: str,
) -> pb.ReIndexBatchRequest:
    request = pb.ReIndexBatchRequest(
        index_key_name=index_key_name,
        normalization=_normalization(normalization),
        length_bytes=length_bytes,
        expected_key=expected_key,
    )
    for i in map(_ciphertext_item, items):
        if isinstance(i.ciphertext, LegacyCiphertext):
            raise TypeError("a LegacyCiphertext cannot be re-indexed: rewrap it into a cipherd key first (re_encrypt*)")
        request.items.add(reference=i.reference, ciphertext=i.ciphertext, context=i.context)
    return request


def re_index_results(response: pb.ReIndexBatchResponse) -> list[ItemResult[ReIndexed]]:
    return [
        ItemResult(r.reference, ReIndexed(r.index, r.key_version, r.source_key_version), None, r.key_version)
        if r.HasField("index")
        else ItemResult(r.reference, None, from_item_error(r.error))
        for r in response.results
    ]


def data_key(response: pb.GenerateDataKeyResponse, omit_plaintext: bool) -> DataKey:
    return DataKey(None if omit_plaintext else response.plaintext_key, response.wrapped_key, response.key_version)
