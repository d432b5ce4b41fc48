"""The synchronous client: `with cipherd.Client("127.0.0.1:50051") as c: c.encrypt("demo", b"hi")`."""
from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

import grpc

from cipherd import _channel, _convert
from cipherd._files import operations
from cipherd._files.header import DEFAULT_CHUNK_SIZE, check_chunk_size
from cipherd.envelope import Mode
from cipherd.errors import from_rpc_error
from cipherd.types import (
    BlindIndex, CiphertextItem, DataKey, EncryptItem, FileDestination, FileResult, FileSource, IndexItem, Inspection,
    ItemResult, Normalization, Rewrapped, TlsConfig,
)
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import crypto_service_pb2_grpc, key_admin_service_pb2_grpc
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1.keys_pb2 import Key, KeyPolicy

R = TypeVar("R")


class Client:
    """A connection to cipherd. `timeout` (seconds) is the default deadline of each unary call; errors are
    CipherdError subclasses. Close it, or use it as a context manager."""

    def __init__(self, target: str, *, tls: TlsConfig | None = None, insecure: bool = False, token: str | None = None,
                 timeout: float | None = 30.0,
                 max_message_bytes: int = _channel.DEFAULT_MAX_MESSAGE_BYTES) -> None:
        self._channel = _channel.open_channel(target, tls, insecure, max_message_bytes, grpc.secure_channel,
                                              grpc.insecure_channel)
        self._crypto = crypto_service_pb2_grpc.CryptoServiceStub(self._channel)
        self._admin = key_admin_service_pb2_grpc.KeyAdminServiceStub(self._channel)
        self._metadata = _channel.metadata(token)
        self._timeout = timeout

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def _call(self, method: Callable[..., R], request: Any, timeout: float | None) -> R:
        try:
            return method(request, timeout=timeout if timeout is not None else self._timeout,
                          metadata=self._metadata)
        except grpc.RpcError as e:
            raise from_rpc_error(e) from None

    # CryptoService

    def encrypt(self, key_name: str, plaintext: bytes, *, context: bytes = b"", key_version: int = 0,
                timeout: float | None = None) -> str:
        """The ciphertext of `plaintext` under the key's current version (or `key_version`)."""
        request = pb.EncryptRequest(key_name=key_name, plaintext=plaintext, context=context,
                                    key_version=key_version)
        return self._call(self._crypto.Encrypt, request, timeout).ciphertext

    def decrypt(self, ciphertext: str, *, context: bytes = b"", timeout: float | None = None) -> bytes:
        request = pb.DecryptRequest(ciphertext=ciphertext, context=context)
        return self._call(self._crypto.Decrypt, request, timeout).plaintext

    def re_encrypt(self, ciphertext: str, *, context: bytes = b"", key_name: str = "",
                   timeout: float | None = None) -> Rewrapped:
        """Rewraps to the current version of its key (or of `key_name`) without returning the plaintext."""
        request = pb.ReEncryptRequest(ciphertext=ciphertext, context=context, key_name=key_name)
        return _convert.rewrapped(self._call(self._crypto.ReEncrypt, request, timeout))

    def encrypt_batch(self, key_name: str, items: Iterable[EncryptItem | bytes], *,
                      timeout: float | None = None) -> list[ItemResult[str]]:
        request = _convert.encrypt_batch_request(key_name, items)
        return _convert.encrypt_results(self._call(self._crypto.EncryptBatch, request, timeout))

    def decrypt_batch(self, items: Iterable[CiphertextItem | str], *,
                      timeout: float | None = None) -> list[ItemResult[bytes]]:
        request = _convert.decrypt_batch_request(items)
        return _convert.decrypt_results(self._call(self._crypto.DecryptBatch, request, timeout))

    def re_encrypt_batch(self, items: Iterable[CiphertextItem | str], *, key_name: str = "",
                         timeout: float | None = None) -> list[ItemResult[Rewrapped]]:
        request = _convert.re_encrypt_batch_request(items, key_name)
        response = self._call(self._crypto.ReEncryptBatch, request, timeout)
        return [_convert.rewrap_result(r) for r in response.results]

    def re_encrypt_stream(self, items: Iterable[CiphertextItem | str], *,
                          timeout: float | None = None) -> Generator[ItemResult[Rewrapped], None, None]:
        """Rewraps items as they come, one result per item in order; `items` is read as the server
        keeps up. Leaving the loop early cancels the call. Unlike unary calls it has no deadline
        unless given a `timeout`: a migration may take hours."""
        call = self._crypto.ReEncryptStream((_convert.stream_request(i) for i in items),
                                            timeout=timeout, metadata=self._metadata)
        try:
            for response in call:
                yield _convert.rewrap_result(response.result)
        except grpc.RpcError as e:
            raise from_rpc_error(e) from None
        finally:
            call.cancel()  # type: ignore[no-untyped-call]  # grpc-stubs leaves it unannotated

    def inspect(self, ciphertext: str, *, timeout: float | None = None) -> Inspection:
        """The server's view of a header (with the key's current version); cipherd.parse_ciphertext needs no call."""
        return _convert.inspection(self._call(self._crypto.Inspect, pb.InspectRequest(ciphertext=ciphertext), timeout))

    def compute_index(self, key_name: str, value: bytes | str, *, normalization: Normalization | None = None,
                      length_bytes: int = 0, key_version: int = 0, all_versions: bool = False,
                      timeout: float | None = None) -> BlindIndex:
        """The blind index of `value` (a str as UTF-8) under the index key's current version (or
        `key_version`), `length_bytes` long (8 to 32; 0 is 32); `all_versions` adds every usable version's."""
        request = _convert.compute_index_request(key_name, value, normalization, length_bytes, key_version,
                                                 all_versions)
        return _convert.blind_index(self._call(self._crypto.ComputeIndex, request, timeout))

    def compute_index_batch(self, key_name: str, items: Iterable[IndexItem | bytes | str], *,
                            normalization: Normalization | None = None, length_bytes: int = 0,
                            timeout: float | None = None) -> list[ItemResult[bytes]]:
        request = _convert.compute_index_batch_request(key_name, items, normalization, length_bytes)
        return _convert.index_results(self._call(self._crypto.ComputeIndexBatch, request, timeout))

    def generate_data_key(self, key_name: str, *, key_size_bits: int = 0, context: bytes = b"",
                          omit_plaintext: bool = False, timeout: float | None = None) -> DataKey:
        """A fresh data key (128 or 256 bits; 0 is 256) and the same key wrapped by `key_name`, bound to `context`."""
        request = pb.GenerateDataKeyRequest(key_name=key_name, key_size_bits=key_size_bits, context=context,
                                            omit_plaintext=omit_plaintext)
        return _convert.data_key(self._call(self._crypto.GenerateDataKey, request, timeout), omit_plaintext)

    # Data-key files (proto/README.md, "Data-key file format")

    def encrypt_file(self, key_name: str, source: FileSource, destination: FileDestination, *, context: bytes = b"",
                     chunk_size: int = DEFAULT_CHUNK_SIZE, timeout: float | None = None) -> FileResult:
        """Encrypts `source` into `destination` chunk by chunk, under a new data key that `key_name` wraps
        (bound to `context`). A destination path is replaced only once the whole file is written."""
        check_chunk_size(chunk_size)
        data_key = self.generate_data_key(key_name, key_size_bits=256, context=context, timeout=timeout)
        return operations.encrypt(source, destination, data_key, chunk_size)

    def decrypt_file(self, source: FileSource, destination: FileDestination, *, context: bytes = b"",
                     timeout: float | None = None) -> FileResult:
        """Decrypts a file of encrypt_file's, verifying each chunk before writing its plaintext; raises an
        InvalidFileError subclass for a damaged file. A destination path is replaced only once the last
        chunk verified; a file object may by then hold a verified prefix, to be thrown away."""
        return operations.decrypt(source, destination,
                                  lambda wrapped: self.decrypt(wrapped, context=context, timeout=timeout))

    def rewrap_file_key(self, source: FileSource, destination: FileDestination | None = None, *, context: bytes = b"",
                        key_name: str = "", timeout: float | None = None) -> Rewrapped:
        """Rewraps a file's data key to the current version of its key (or of `key_name`), leaving its
        chunks as they are; without `destination`, the source path is rewritten in place."""
        return operations.rewrap(source, destination, lambda wrapped: self.re_encrypt(
            wrapped, context=context, key_name=key_name, timeout=timeout))

    # KeyAdminService

    def create_key(self, key_name: str, *, mode: Mode | str | None = None, key_size_bits: int = 0,
                   allow_unauthenticated: bool = False, policy: KeyPolicy | None = None,
                   timeout: float | None = None) -> Key:
        request = admin.CreateKeyRequest(key_name=key_name, mode=_convert.mode_to_proto(mode),
                                         key_size_bits=key_size_bits,
                                         allow_unauthenticated=allow_unauthenticated, policy=policy)
        return self._call(self._admin.CreateKey, request, timeout).key

    def get_key(self, key_name: str, *, timeout: float | None = None) -> Key:
        return self._call(self._admin.GetKey, admin.GetKeyRequest(key_name=key_name), timeout).key

    def list_keys(self, *, page_size: int = 0, timeout: float | None = None) -> Iterator[Key]:
        """Every key in name order, fetching a page at a time as the iteration needs it."""
        token = ""
        while True:
            page = self._call(self._admin.ListKeys, admin.ListKeysRequest(page_size=page_size, page_token=token),
                              timeout)
            yield from page.keys
            token = page.next_page_token
            if not token:
                return

    def rotate_key(self, key_name: str, *, mode: Mode | str | None = None, key_size_bits: int = 0,
                   allow_unauthenticated: bool = False, timeout: float | None = None) -> Key:
        request = admin.RotateKeyRequest(key_name=key_name, mode=_convert.mode_to_proto(mode),
                                         key_size_bits=key_size_bits, allow_unauthenticated=allow_unauthenticated)
        return self._call(self._admin.RotateKey, request, timeout).key

    def update_key_policy(self, key_name: str, policy: KeyPolicy, *, timeout: float | None = None) -> Key:
        request = admin.UpdateKeyPolicyRequest(key_name=key_name, policy=policy)
        return self._call(self._admin.UpdateKeyPolicy, request, timeout).key

    def import_key(self, key_name: str, key_material: bytes, *, mode: Mode | str | None = None,
                   allow_unauthenticated: bool = False, timeout: float | None = None) -> Key:
        request = admin.ImportKeyRequest(key_name=key_name, key_material=key_material,
                                         mode=_convert.mode_to_proto(mode), allow_unauthenticated=allow_unauthenticated)
        return self._call(self._admin.ImportKey, request, timeout).key
