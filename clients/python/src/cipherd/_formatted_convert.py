"""FormatPreservingService's requests and results, from and to the values of cipherd.formatted."""

from __future__ import annotations

from collections.abc import Iterable

from cipherd.errors import from_item_error
from cipherd.formatted import (
    FormattedItem,
    FormattedPlainItem,
    FormattedRewrapped,
    FormattedValue,
    FpeFormat,
    FpeTemplate,
    as_formatted,
)
from cipherd.types import ItemResult
from cipherd.v1 import format_preserving_service_pb2 as fpe
from cipherd.v1 import keys_pb2


def format_to_proto(f: FpeFormat | None) -> keys_pb2.FpeFormat | None:
    if f is None:
        return None
    shape: dict[str, object] = (
        {"template": keys_pb2.FpeTemplate.Value("FPE_TEMPLATE_" + f.template.value.upper())}
        if f.template is not None
        else {"alphabet": f.alphabet}
    )
    return keys_pb2.FpeFormat(
        version_prefix_length=f.version_prefix_length,
        accept_small_domain=f.accept_small_domain,
        mask_visible_suffix=f.mask_visible_suffix,
        **shape,  # type: ignore[arg-type]
    )


def format_from_proto(version: keys_pb2.KeyVersion) -> FpeFormat | None:
    if not version.HasField("fpe_format"):
        return None
    f = version.fpe_format
    template = (
        FpeTemplate(keys_pb2.FpeTemplate.Name(f.template).removeprefix("FPE_TEMPLATE_").lower())
        if f.WhichOneof("shape") == "template"
        else None
    )
    return FpeFormat(f.alphabet, template, f.version_prefix_length, f.accept_small_domain, f.mask_visible_suffix)


def check_mode(mode: object, fpe_format: FpeFormat | None, creating: bool) -> None:
    """Refuses before sending a format without MODE_FF1, or (creating) MODE_FF1 without a format."""
    ff1 = mode is not None and str(getattr(mode, "value", mode)) == "ff1"
    if fpe_format is not None and not ff1:
        raise ValueError("fpe_format is for format-preserving keys only (mode=Mode.FF1)")
    if creating and ff1 and fpe_format is None:
        raise ValueError("a format-preserving key (mode=Mode.FF1) needs fpe_format")


def _plain(item: FormattedPlainItem | str) -> FormattedPlainItem:
    return item if isinstance(item, FormattedPlainItem) else FormattedPlainItem(item)


def _cipher(item: FormattedItem | FormattedValue) -> FormattedItem:
    return item if isinstance(item, FormattedItem) else FormattedItem(as_formatted(item))


def encrypt_batch_request(
    key_name: str, items: Iterable[FormattedPlainItem | str], context: bytes
) -> fpe.EncryptFormattedBatchRequest:
    return fpe.EncryptFormattedBatchRequest(
        key_name=key_name,
        context=context,
        items=[
            fpe.EncryptFormattedBatchItem(reference=i.reference, value=i.value, context=i.context)
            for i in map(_plain, items)
        ],
    )


def batch_items(items: Iterable[FormattedItem | FormattedValue]) -> list[fpe.FormattedBatchItem]:
    """Each item with its own version; the batch-wide key_version is never sent, so that no item falls back to
    another's version."""
    out = []
    for i in map(_cipher, items):
        ct = as_formatted(i.ciphertext)
        out.append(
            fpe.FormattedBatchItem(reference=i.reference, value=ct.value, context=i.context, key_version=ct.key_version)
        )
    return out


def encrypt_stream_request(
    item: FormattedPlainItem | str, key_name: str, context: bytes
) -> fpe.EncryptFormattedStreamRequest:
    i = _plain(item)
    return fpe.EncryptFormattedStreamRequest(
        reference=i.reference, key_name=key_name, value=i.value, context=i.context or context
    )


def decrypt_stream_request(
    item: FormattedItem | FormattedValue, key_name: str, context: bytes
) -> fpe.DecryptFormattedStreamRequest:
    i = _cipher(item)
    ct = as_formatted(i.ciphertext)
    return fpe.DecryptFormattedStreamRequest(
        reference=i.reference,
        key_name=key_name,
        value=ct.value,
        context=i.context or context,
        key_version=ct.key_version,
    )


def re_encrypt_stream_request(
    item: FormattedItem | FormattedValue, key_name: str, context: bytes
) -> fpe.ReEncryptFormattedStreamRequest:
    i = _cipher(item)
    ct = as_formatted(i.ciphertext)
    return fpe.ReEncryptFormattedStreamRequest(
        reference=i.reference,
        key_name=key_name,
        value=ct.value,
        context=i.context or context,
        key_version=ct.key_version,
    )


def value_result(r: fpe.FormattedBatchResult) -> ItemResult[FormattedValue]:
    if r.HasField("value"):
        return ItemResult(r.reference, FormattedValue(r.value, r.key_version), None, r.key_version)
    return ItemResult(r.reference, None, from_item_error(r.error))


def plaintext_result(r: fpe.FormattedBatchResult) -> ItemResult[str]:
    if r.HasField("value"):
        return ItemResult(r.reference, r.value, None, r.key_version)
    return ItemResult(r.reference, None, from_item_error(r.error))


def rewrap_result(r: fpe.FormattedBatchResult) -> ItemResult[FormattedRewrapped]:
    if r.HasField("value"):
        moved = FormattedRewrapped(r.value, r.key_version, r.source_key_version)
        return ItemResult(r.reference, moved, None, r.key_version)
    return ItemResult(r.reference, None, from_item_error(r.error))
