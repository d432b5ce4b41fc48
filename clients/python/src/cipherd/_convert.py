"""Requests built from the client's arguments and results read from responses: shared by the sync
and asyncio clients so that both say the same thing."""
from __future__ import annotations

from collections.abc import Iterable

from cipherd.envelope import Mode
from cipherd.errors import error_for
from cipherd.types import (
    BlindIndex, CiphertextItem, DataKey, EncryptItem, IndexItem, Inspection, ItemResult, Normalization, Rewrapped,
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


def encrypt_batch_request(key_name: str, items: Iterable[EncryptItem | bytes]) -> pb.EncryptBatchRequest:
    return pb.EncryptBatchRequest(key_name=key_name, items=[
        pb.EncryptBatchItem(reference=i.reference, plaintext=i.plaintext, context=i.context)
        if isinstance(i, EncryptItem) else pb.EncryptBatchItem(plaintext=i)
        for i in items])


def _ciphertext_items(items: Iterable[CiphertextItem | str]) -> list[CiphertextItem]:
    return [i if isinstance(i, CiphertextItem) else CiphertextItem(i) for i in items]


def decrypt_batch_request(items: Iterable[CiphertextItem | str]) -> pb.DecryptBatchRequest:
    return pb.DecryptBatchRequest(items=[
        pb.DecryptBatchItem(reference=i.reference, ciphertext=i.ciphertext, context=i.context)
        for i in _ciphertext_items(items)])


def re_encrypt_batch_request(items: Iterable[CiphertextItem | str], key_name: str) -> pb.ReEncryptBatchRequest:
    return pb.ReEncryptBatchRequest(key_name=key_name, items=[
        pb.ReEncryptBatchItem(reference=i.reference, ciphertext=i.ciphertext, context=i.context)
        for i in _ciphertext_items(items)])


def stream_request(item: CiphertextItem | str) -> pb.ReEncryptStreamRequest:
    i = item if isinstance(item, CiphertextItem) else CiphertextItem(item)
    return pb.ReEncryptStreamRequest(reference=i.reference, ciphertext=i.ciphertext, context=i.context,
                                     key_name=i.key_name)


def encrypt_results(response: pb.EncryptBatchResponse) -> list[ItemResult[str]]:
    return [ItemResult(r.reference, r.ciphertext, None, r.key_version) if r.HasField("ciphertext")
            else ItemResult(r.reference, None, error_for(r.error.code, r.error.message))
            for r in response.results]


def decrypt_results(response: pb.DecryptBatchResponse) -> list[ItemResult[bytes]]:
    return [ItemResult(r.reference, r.plaintext, None, r.key_version) if r.HasField("plaintext")
            else ItemResult(r.reference, None, error_for(r.error.code, r.error.message))
            for r in response.results]


def rewrap_result(r: pb.ReEncryptBatchResult) -> ItemResult[Rewrapped]:
    if r.HasField("ciphertext"):
        return ItemResult(r.reference, Rewrapped(r.ciphertext, r.key_version, r.source_key_version), None,
                          r.key_version)
    return ItemResult(r.reference, None, error_for(r.error.code, r.error.message))


def rewrapped(response: pb.ReEncryptResponse) -> Rewrapped:
    return Rewrapped(response.ciphertext, response.key_version, response.source_key_version)


def inspection(response: pb.InspectResponse) -> Inspection:
    return Inspection(response.key_name, response.key_version, mode_from_proto(response.mode),
                      response.current_version, response.behind_current)


def _normalization(normalization: Normalization | None) -> pb.Normalization | None:
    if normalization is None:
        return None
    return pb.Normalization(trim=normalization.trim, nfkc=normalization.nfkc, casefold=normalization.casefold)


def _value_bytes(value: bytes | str) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else value


def compute_index_request(key_name: str, value: bytes | str, normalization: Normalization | None, length_bytes: int,
                          key_version: int, all_versions: bool) -> pb.ComputeIndexRequest:
    return pb.ComputeIndexRequest(key_name=key_name, value=_value_bytes(value),
                                  normalization=_normalization(normalization), length_bytes=length_bytes,
                                  key_version=key_version, all_versions=all_versions)


def blind_index(response: pb.ComputeIndexResponse) -> BlindIndex:
    return BlindIndex(response.index, response.key_version, {v.key_version: v.index for v in response.versions})


def compute_index_batch_request(key_name: str, items: Iterable[IndexItem | bytes | str],
                                normalization: Normalization | None, length_bytes: int,
                                ) -> pb.ComputeIndexBatchRequest:
    return pb.ComputeIndexBatchRequest(
        key_name=key_name, normalization=_normalization(normalization), length_bytes=length_bytes, items=[
            pb.ComputeIndexBatchItem(reference=i.reference, value=_value_bytes(i.value))
            if isinstance(i, IndexItem) else pb.ComputeIndexBatchItem(value=_value_bytes(i))
            for i in items])


def index_results(response: pb.ComputeIndexBatchResponse) -> list[ItemResult[bytes]]:
    return [ItemResult(r.reference, r.index, None, r.key_version) if r.HasField("index")
            else ItemResult(r.reference, None, error_for(r.error.code, r.error.message))
            for r in response.results]


def data_key(response: pb.GenerateDataKeyResponse, omit_plaintext: bool) -> DataKey:
    return DataKey(None if omit_plaintext else response.plaintext_key, response.wrapped_key, response.key_version)
