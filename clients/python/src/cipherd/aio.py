"""The asyncio client: `async with cipherd.AsyncClient("127.0.0.1:50051") as c: await c.encrypt("demo", b"hi")`."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any, TypeAlias, TypeVar

import grpc

from cipherd import _admin_convert, _aio_file_work, _channel, _convert, _formatted_convert, _subject_convert
from cipherd._audit_convert import audit_requests, verdicts
from cipherd._files import operations
from cipherd._files.header import DEFAULT_CHUNK_SIZE, check_chunk_size
from cipherd._streams import AnyIterable, ItemFeed
from cipherd.audit import Checkpoint
from cipherd.envelope import Mode
from cipherd.errors import from_rpc_error
from cipherd.formatted import (
    FormattedItem,
    FormattedPlainItem,
    FormattedRewrapped,
    FormattedValue,
    FpeFormat,
    as_formatted,
)
from cipherd.key_backup import KeyBackupFile, open_key_backup
from cipherd.key_import import ImportJob, ImportWrappingAlgorithm, wrap_key_material
from cipherd.keys import DataInventory, Key, KeyCensus, KeyPolicy, Retirement
from cipherd.legacy import LegacyCipher, LegacyCiphertext, LegacyIv
from cipherd.subjects import SubjectErasure, SubjectItem, SubjectStatus
from cipherd.transit import TransitKdf
from cipherd.types import (
    BlindIndex,
    CiphertextItem,
    DataKey,
    EncryptItem,
    FileDestination,
    FileResult,
    FileSource,
    IndexItem,
    Inspection,
    ItemResult,
    Normalization,
    ReIndexed,
    Rewrapped,
    TlsConfig,
)
from cipherd.v1 import audit_service_pb2 as audit_pb
from cipherd.v1 import (
    audit_service_pb2_grpc,
    crypto_service_pb2_grpc,
    format_preserving_service_pb2_grpc,
    key_admin_service_pb2_grpc,
    subject_service_pb2_grpc,
)
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import format_preserving_service_pb2 as fpe_pb
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1 import subject_service_pb2 as subject_pb

R = TypeVar("R")
T = TypeVar("T")
RewrapInput: TypeAlias = CiphertextItem | LegacyCiphertext | str


class AsyncClient:
    """An asyncio connection to cipherd. `timeout` (seconds) is the default deadline of each unary call; errors are
    CipherdError subclasses. Close it, or use it as a context manager."""

    def __init__(
        self,
        target: str,
        *,
        tls: TlsConfig | None = None,
        insecure: bool = False,
        token: str | None = None,
        timeout: float | None = 30.0,
        max_message_bytes: int = _channel.DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        self._channel = _channel.open_channel(
            target, tls, insecure, max_message_bytes, grpc.aio.secure_channel, grpc.aio.insecure_channel
        )
        self._crypto = crypto_service_pb2_grpc.CryptoServiceStub(self._channel)
        self._admin = key_admin_service_pb2_grpc.KeyAdminServiceStub(self._channel)
        self._audit = audit_service_pb2_grpc.AuditServiceStub(self._channel)
        self._subjects = subject_service_pb2_grpc.SubjectServiceStub(self._channel)
        self._fpe = format_preserving_service_pb2_grpc.FormatPreservingServiceStub(self._channel)
        self._metadata = _channel.metadata(token)
        self._timeout = timeout

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close(grace=None)

    async def _call(self, method: Callable[..., Awaitable[R]], request: Any, timeout: float | None) -> R:
        try:
            return await method(
                request, timeout=timeout if timeout is not None else self._timeout, metadata=self._metadata
            )
        except grpc.aio.AioRpcError as e:
            raise from_rpc_error(e) from None

    # CryptoService

    async def encrypt(
        self,
        key_name: str,
        plaintext: bytes,
        *,
        context: bytes = b"",
        key_version: int = 0,
        subject: str = "",
        renew_erased_subject: bool = False,
        timeout: float | None = None,
    ) -> str:
        """The ciphertext of `plaintext` under the key's current version (or `key_version`).

        `subject` (any opaque id the application has, e.g. "user-8812", 1 to 256 bytes of UTF-8) seals it under
        that data subject's own key instead, made on first use: erase_subject then makes all of the subject's
        data undecryptable, nobody else's. For an erased subject it raises SubjectErasedError unless
        `renew_erased_subject`. The id is personal data: no error or repr of this client shows it."""
        request = pb.EncryptRequest(
            key_name=key_name,
            plaintext=plaintext,
            context=context,
            key_version=key_version,
            subject=subject,
            renew_erased_subject=renew_erased_subject,
        )
        return (await self._call(self._crypto.Encrypt, request, timeout)).ciphertext

    async def decrypt(
        self, ciphertext: str, *, context: bytes = b"", expected_key: str = "", timeout: float | None = None
    ) -> bytes:
        """The plaintext of `ciphertext`. `expected_key` (a key name, or a prefix ending in '*') refuses, with
        UnexpectedKeyError and before decrypting, a ciphertext under any other key: a value planted in a
        column by a writer with another key. Set it wherever a column has one key."""
        request = pb.DecryptRequest(ciphertext=ciphertext, context=context, expected_key=expected_key)
        return (await self._call(self._crypto.Decrypt, request, timeout)).plaintext

    async def re_encrypt(
        self,
        ciphertext: str | LegacyCiphertext,
        *,
        context: bytes = b"",
        key_name: str = "",
        expected_key: str = "",
        timeout: float | None = None,
    ) -> Rewrapped:
        """Rewraps to the current version of its key (or of `key_name`) without returning the plaintext.
        A LegacyCiphertext is rewrapped into `key_name`, which it requires. `expected_key` is the key the
        ciphertext (or the legacy key) must be under, as in decrypt."""
        request = _convert.re_encrypt_request(ciphertext, context, key_name, expected_key)
        return _convert.rewrapped(await self._call(self._crypto.ReEncrypt, request, timeout))

    async def encrypt_batch(
        self,
        key_name: str,
        items: Iterable[EncryptItem | bytes],
        *,
        subject: str = "",
        renew_erased_subject: bool = False,
        timeout: float | None = None,
    ) -> list[ItemResult[str]]:
        """The ciphertext of each item; `subject` (as in encrypt) for every item without its own, and
        `renew_erased_subject` for every item's subject. An item of an erased subject fails alone."""
        request = _convert.encrypt_batch_request(key_name, items, subject, renew_erased_subject)
        response = await self._call(self._crypto.EncryptBatch, request, timeout)
        return [_convert.encrypt_result(r) for r in response.results]

    async def decrypt_batch(
        self, items: Iterable[CiphertextItem | str], *, expected_key: str = "", timeout: float | None = None
    ) -> list[ItemResult[bytes]]:
        """The plaintext of each item; `expected_key`, as in decrypt, for every item without its own."""
        request = _convert.decrypt_batch_request(items, expected_key)
        response = await self._call(self._crypto.DecryptBatch, request, timeout)
        return [_convert.decrypt_result(r) for r in response.results]

    async def re_encrypt_batch(
        self,
        items: Iterable[CiphertextItem | LegacyCiphertext | str],
        *,
        key_name: str = "",
        expected_key: str = "",
        timeout: float | None = None,
    ) -> list[ItemResult[Rewrapped]]:
        """Rewraps each item to the current version of its key (or of `key_name`, which legacy items require);
        `expected_key`, as in re_encrypt, for every item without its own."""
        request = _convert.re_encrypt_batch_request(items, key_name, expected_key)
        response = await self._call(self._crypto.ReEncryptBatch, request, timeout)
        return [_convert.rewrap_result(r) for r in response.results]

    # Item streams (proto/README.md, "Streams"): `items` is read only as the server keeps up, so memory
    # stays bounded; one result per item, in order, a failed item as a result with its error. Leaving
    # the loop early (or, in AsyncClient, cancelling the task) cancels the call; AsyncClient's `items`
    # may be an AsyncIterable too. They have no deadline unless given a `timeout`: a migration may
    # take hours. A stream that breaks (server gone, deadline) raises a CipherdError whose
    # `last_reference` is the last item answered: call again with the same items and
    # resume_after=that reference to go on after it.

    def encrypt_stream(
        self,
        key_name: str,
        items: AnyIterable[EncryptItem | bytes],
        *,
        subject: str = "",
        renew_erased_subject: bool = False,
        resume_after: str | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[ItemResult[str], None]:
        """Encrypts each item with `key_name` (or the item's own key_name) at its current version; `subject` (as
        in encrypt) for every item without its own, and `renew_erased_subject` for every item's subject."""
        feed = ItemFeed(
            items,
            lambda i: _convert.encrypt_stream_request(i, key_name, subject, renew_erased_subject),
            resume_after,
        )
        return self._stream(self._crypto.EncryptStream, feed, _convert.encrypt_result, timeout)

    def decrypt_stream(
        self,
        items: AnyIterable[CiphertextItem | str],
        *,
        expected_key: str = "",
        resume_after: str | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[ItemResult[bytes], None]:
        """Decrypts each item; `expected_key`, as in decrypt, for every item without its own."""
        feed = ItemFeed(items, lambda i: _convert.decrypt_stream_request(i, expected_key), resume_after)
        return self._stream(self._crypto.DecryptStream, feed, _convert.decrypt_result, timeout)

    def re_encrypt_stream(
        self,
        items: AnyIterable[RewrapInput],
        *,
        key_name: str = "",
        expected_key: str = "",
        resume_after: str | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[ItemResult[Rewrapped], None]:
        """Rewraps each item to the current version of the item's key_name, else `key_name`, else its own
        key; legacy items need one of the first two. `expected_key`, as in re_encrypt, for every item
        without its own."""
        feed = ItemFeed(items, lambda i: _convert.re_encrypt_stream_request(i, key_name, expected_key), resume_after)
        return self._stream(self._crypto.ReEncryptStream, feed, _convert.rewrap_result, timeout)

    async def _stream(
        self,
        method: Callable[..., Any],
        feed: ItemFeed[Any, Any],
        read: Callable[[Any], ItemResult[T]],
        timeout: float | None,
    ) -> AsyncGenerator[ItemResult[T], None]:
        call = method(feed.__aiter__(), timeout=timeout, metadata=self._metadata)
        try:
            async for response in call:
                result = read(response.result)
                feed.answered(result.reference)
                yield result
        except grpc.aio.AioRpcError as e:
            raise feed.broken(e) from None
        finally:
            call.cancel()
        feed.finished()

    async def inspect(self, ciphertext: str, *, timeout: float | None = None) -> Inspection:
        """The server's view of a header (with the key's current version); cipherd.parse_ciphertext needs no call."""
        return _convert.inspection(
            await self._call(self._crypto.Inspect, pb.InspectRequest(ciphertext=ciphertext), timeout)
        )

    async def compute_index(
        self,
        key_name: str,
        value: bytes | str,
        *,
        normalization: Normalization | None = None,
        length_bytes: int = 0,
        key_version: int = 0,
        all_versions: bool = False,
        timeout: float | None = None,
    ) -> BlindIndex:
        """The blind index of `value` (a str as UTF-8) under the index key's current version (or
        `key_version`), `length_bytes` long (8 to 32; 0 is 32); `all_versions` adds every usable version's."""
        request = _convert.compute_index_request(
            key_name, value, normalization, length_bytes, key_version, all_versions
        )
        return _convert.blind_index(await self._call(self._crypto.ComputeIndex, request, timeout))

    async def compute_index_batch(
        self,
        key_name: str,
        items: Iterable[IndexItem | bytes | str],
        *,
        normalization: Normalization | None = None,
        length_bytes: int = 0,
        timeout: float | None = None,
    ) -> list[ItemResult[bytes]]:
        request = _convert.compute_index_batch_request(key_name, items, normalization, length_bytes)
        return _convert.index_results(await self._call(self._crypto.ComputeIndexBatch, request, timeout))

    async def re_index(
        self,
        index_key_name: str,
        ciphertext: str,
        *,
        context: bytes = b"",
        normalization: Normalization | None = None,
        length_bytes: int = 0,
        expected_key: str = "",
        timeout: float | None = None,
    ) -> ReIndexed:
        """The blind index of `ciphertext`'s plaintext under the current version of `index_key_name`, computed
        inside the server: what compute_index of the plaintext gives, the plaintext never leaving the server.
        For re-indexing a column after its index key rotates; needs `reindex` on the ciphertext's key and
        `index` on the index key, not `decrypt`. `expected_key` (a name or a prefix ending in '*') refuses
        a ciphertext under another key (reason UNEXPECTED_KEY) before anything is decrypted."""
        request = _convert.re_index_request(
            index_key_name, ciphertext, context, normalization, length_bytes, expected_key
        )
        return _convert.re_indexed(await self._call(self._crypto.ReIndex, request, timeout))

    async def re_index_batch(
        self,
        index_key_name: str,
        items: Iterable[CiphertextItem | str],
        *,
        normalization: Normalization | None = None,
        length_bytes: int = 0,
        expected_key: str = "",
        timeout: float | None = None,
    ) -> list[ItemResult[ReIndexed]]:
        """re_index of every item (its ciphertext and context), one result per item, in order."""
        request = _convert.re_index_batch_request(index_key_name, items, normalization, length_bytes, expected_key)
        return _convert.re_index_results(await self._call(self._crypto.ReIndexBatch, request, timeout))

    async def generate_data_key(
        self,
        key_name: str,
        *,
        key_size_bits: int = 0,
        context: bytes = b"",
        omit_plaintext: bool = False,
        subject: str = "",
        renew_erased_subject: bool = False,
        timeout: float | None = None,
    ) -> DataKey:
        """A fresh data key (128 or 256 bits; 0 is 256) and the same key wrapped by `key_name`, bound to `context`;
        with `subject`, wrapped under that subject's key (as in encrypt): erasing the subject makes the wrapped
        key, and all it encrypted, unrecoverable."""
        request = pb.GenerateDataKeyRequest(
            key_name=key_name,
            key_size_bits=key_size_bits,
            context=context,
            omit_plaintext=omit_plaintext,
            subject=subject,
            renew_erased_subject=renew_erased_subject,
        )
        return _convert.data_key(await self._call(self._crypto.GenerateDataKey, request, timeout), omit_plaintext)

    # FormatPreservingService (proto/README.md, "Format-preserving values"): values that keep their shape, under
    # a format-preserving key (Mode.FF1). They carry no header: every answer is a FormattedValue (value and key
    # version), and every call that reads a ciphertext takes one back. `context` names where the value lives
    # (e.g. b"users.card_number"); it is hashed into FF1's tweak and needed again to decrypt.

    async def encrypt_formatted(
        self, key_name: str, value: str, *, context: bytes = b"", timeout: float | None = None
    ) -> FormattedValue:
        """`value` (of the key's format) encrypted with the key's current version: a value of the same format
        and the version to store beside it."""
        request = fpe_pb.EncryptFormattedRequest(key_name=key_name, value=value, context=context)
        response = await self._call(self._fpe.EncryptFormatted, request, timeout)
        return FormattedValue(response.value, response.key_version)

    async def decrypt_formatted(
        self, key_name: str, ciphertext: FormattedValue, *, context: bytes = b"", timeout: float | None = None
    ) -> str:
        """The plaintext of `ciphertext` under the version it names. A wrong version or context gives a wrong
        value of the right shape, never an error: FF1 cannot tell."""
        ct = as_formatted(ciphertext)
        request = fpe_pb.DecryptFormattedRequest(
            key_name=key_name, value=ct.value, context=context, key_version=ct.key_version
        )
        return (await self._call(self._fpe.DecryptFormatted, request, timeout)).value

    async def re_encrypt_formatted(
        self, key_name: str, ciphertext: FormattedValue, *, context: bytes = b"", timeout: float | None = None
    ) -> FormattedRewrapped:
        """`ciphertext` moved to the key's current version under the same context, the plaintext never leaving
        the server (needs the rewrap operation, not decrypt)."""
        ct = as_formatted(ciphertext)
        request = fpe_pb.ReEncryptFormattedRequest(
            key_name=key_name, value=ct.value, context=context, key_version=ct.key_version
        )
        response = await self._call(self._fpe.ReEncryptFormatted, request, timeout)
        return FormattedRewrapped(response.value, response.key_version, response.source_key_version)

    async def mask_formatted(
        self, key_name: str, ciphertext: FormattedValue, *, context: bytes = b"", timeout: float | None = None
    ) -> str:
        """The display mask of `ciphertext`'s plaintext (e.g. "•••• •••• •••• 4242"), never the plaintext: needs
        the mask operation, not decrypt."""
        ct = as_formatted(ciphertext)
        request = fpe_pb.MaskFormattedRequest(
            key_name=key_name, value=ct.value, context=context, key_version=ct.key_version
        )
        return (await self._call(self._fpe.MaskFormatted, request, timeout)).masked

    async def encrypt_formatted_batch(
        self,
        key_name: str,
        items: Iterable[FormattedPlainItem | str],
        *,
        context: bytes = b"",
        timeout: float | None = None,
    ) -> list[ItemResult[FormattedValue]]:
        """encrypt_formatted of each item (`context` for every item without its own): one result per item, in
        order, an item's failure its own."""
        request = _formatted_convert.encrypt_batch_request(key_name, items, context)
        response = await self._call(self._fpe.EncryptFormattedBatch, request, timeout)
        return [_formatted_convert.value_result(r) for r in response.results]

    async def decrypt_formatted_batch(
        self,
        key_name: str,
        items: Iterable[FormattedItem | FormattedValue],
        *,
        context: bytes = b"",
        timeout: float | None = None,
    ) -> list[ItemResult[str]]:
        """The plaintext of each item under its own version (the result's key_version); one result per item,
        in order."""
        request = fpe_pb.DecryptFormattedBatchRequest(
            key_name=key_name, context=context, items=_formatted_convert.batch_items(items)
        )
        response = await self._call(self._fpe.DecryptFormattedBatch, request, timeout)
        return [_formatted_convert.plaintext_result(r) for r in response.results]

    async def re_encrypt_formatted_batch(
        self,
        key_name: str,
        items: Iterable[FormattedItem | FormattedValue],
        *,
        context: bytes = b"",
        timeout: float | None = None,
    ) -> list[ItemResult[FormattedRewrapped]]:
        """re_encrypt_formatted of each item; one result per item, in order."""
        request = fpe_pb.ReEncryptFormattedBatchRequest(
            key_name=key_name, context=context, items=_formatted_convert.batch_items(items)
        )
        response = await self._call(self._fpe.ReEncryptFormattedBatch, request, timeout)
        return [_formatted_convert.rewrap_result(r) for r in response.results]

    # The formatted streams run as the item streams above do: `items` read only as the server keeps up, one
    # result per item, in order, a failed item as a result with its error, a broken stream raising a
    # CipherdError whose `last_reference` is where to resume_after. `context` is every item's without its own.

    def encrypt_formatted_stream(
        self,
        key_name: str,
        items: AnyIterable[FormattedPlainItem | str],
        *,
        context: bytes = b"",
        resume_after: str | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[ItemResult[FormattedValue], None]:
        """encrypt_formatted of each item, through one EncryptFormattedStream."""
        feed = ItemFeed(items, lambda i: _formatted_convert.encrypt_stream_request(i, key_name, context), resume_after)
        return self._stream(self._fpe.EncryptFormattedStream, feed, _formatted_convert.value_result, timeout)

    def decrypt_formatted_stream(
        self,
        key_name: str,
        items: AnyIterable[FormattedItem | FormattedValue],
        *,
        context: bytes = b"",
        resume_after: str | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[ItemResult[str], None]:
        """The plaintext of each item under its own version, through one DecryptFormattedStream."""
        feed = ItemFeed(items, lambda i: _formatted_convert.decrypt_stream_request(i, key_name, context), resume_after)
        return self._stream(self._fpe.DecryptFormattedStream, feed, _formatted_convert.plaintext_result, timeout)

    def re_encrypt_formatted_stream(
        self,
        key_name: str,
        items: AnyIterable[FormattedItem | FormattedValue],
        *,
        context: bytes = b"",
        resume_after: str | None = None,
        timeout: float | None = None,
    ) -> AsyncGenerator[ItemResult[FormattedRewrapped], None]:
        """re_encrypt_formatted of each item, through one ReEncryptFormattedStream: how to move a whole column
        to the key's current version after a rotation."""
        feed = ItemFeed(
            items, lambda i: _formatted_convert.re_encrypt_stream_request(i, key_name, context), resume_after
        )
        return self._stream(self._fpe.ReEncryptFormattedStream, feed, _formatted_convert.rewrap_result, timeout)

    # Data-key files (proto/README.md, "Data-key file format"); AsyncClient runs the file work in a
    # worker thread and the calls it needs on its loop (_aio_file_work).

    async def encrypt_file(
        self,
        key_name: str,
        source: FileSource,
        destination: FileDestination,
        *,
        context: bytes = b"",
        chunk_size: int = DEFAULT_CHUNK_SIZE,
        timeout: float | None = None,
    ) -> FileResult:
        """Encrypts `source` into `destination` chunk by chunk, under a new data key that `key_name` wraps
        (bound to `context`). A destination path is replaced only once the whole file is written."""
        check_chunk_size(chunk_size)
        data_key = await self.generate_data_key(key_name, key_size_bits=256, context=context, timeout=timeout)
        return await _aio_file_work.run(operations.encrypt, source, destination, data_key, chunk_size)

    async def decrypt_file(
        self, source: FileSource, destination: FileDestination, *, context: bytes = b"", timeout: float | None = None
    ) -> FileResult:
        """Decrypts a file of encrypt_file's, verifying each chunk before writing its plaintext; raises an
        InvalidFileError subclass for a damaged file. A destination path is replaced only once the last
        chunk verified; a file object may by then hold a verified prefix, to be thrown away."""
        unwrap = _aio_file_work.call_from_work(lambda wrapped: self.decrypt(wrapped, context=context, timeout=timeout))
        return await _aio_file_work.run(operations.decrypt, source, destination, unwrap)

    async def rewrap_file_key(
        self,
        source: FileSource,
        destination: FileDestination | None = None,
        *,
        context: bytes = b"",
        key_name: str = "",
        timeout: float | None = None,
    ) -> Rewrapped:
        """Rewraps a file's data key to the current version of its key (or of `key_name`), leaving its
        chunks as they are; without `destination`, the source path is rewritten in place."""
        rewrap_key = _aio_file_work.call_from_work(
            lambda wrapped: self.re_encrypt(wrapped, context=context, key_name=key_name, timeout=timeout)
        )
        return await _aio_file_work.run(operations.rewrap, source, destination, rewrap_key)

    # KeyAdminService

    async def create_key(
        self,
        key_name: str,
        *,
        mode: Mode | str | None = None,
        key_size_bits: int = 0,
        allow_unauthenticated: bool = False,
        policy: KeyPolicy | None = None,
        fpe_format: FpeFormat | None = None,
        exportable: bool = False,
        timeout: float | None = None,
    ) -> Key:
        """Creates `key_name` with version 1; a format-preserving key (mode=Mode.FF1) needs `fpe_format`, which
        every later version keeps. An `exportable` key can be backed up (backup_key), for good."""
        _formatted_convert.check_mode(mode, fpe_format, creating=True)
        request = admin.CreateKeyRequest(
            key_name=key_name,
            mode=_convert.mode_to_proto(mode),
            key_size_bits=key_size_bits,
            allow_unauthenticated=allow_unauthenticated,
            policy=_admin_convert.policy_to_proto(policy),
            fpe_format=_formatted_convert.format_to_proto(fpe_format),
            exportable=exportable,
        )
        return _admin_convert.key_from_proto((await self._call(self._admin.CreateKey, request, timeout)).key)

    async def get_key(self, key_name: str, *, timeout: float | None = None) -> Key:
        """The key's versions (each with its usage, as last merged across replicas) and policy."""
        response = await self._call(self._admin.GetKey, admin.GetKeyRequest(key_name=key_name), timeout)
        return _admin_convert.key_from_proto(response.key)

    async def list_keys(self, *, page_size: int = 0, timeout: float | None = None) -> AsyncIterator[Key]:
        """Every key in name order, fetching a page at a time as the iteration needs it."""
        token = ""
        while True:
            page = await self._call(
                self._admin.ListKeys, admin.ListKeysRequest(page_size=page_size, page_token=token), timeout
            )
            for key in page.keys:
                yield _admin_convert.key_from_proto(key)
            token = page.next_page_token
            if not token:
                return

    async def rotate_key(
        self,
        key_name: str,
        *,
        mode: Mode | str | None = None,
        key_size_bits: int = 0,
        allow_unauthenticated: bool = False,
        timeout: float | None = None,
    ) -> Key:
        request = admin.RotateKeyRequest(
            key_name=key_name,
            mode=_convert.mode_to_proto(mode),
            key_size_bits=key_size_bits,
            allow_unauthenticated=allow_unauthenticated,
        )
        return _admin_convert.key_from_proto((await self._call(self._admin.RotateKey, request, timeout)).key)

    async def update_key_policy(self, key_name: str, policy: KeyPolicy, *, timeout: float | None = None) -> Key:
        """Replaces the key's whole policy with `policy`."""
        request = admin.UpdateKeyPolicyRequest(key_name=key_name, policy=_admin_convert.policy_to_proto(policy))
        return _admin_convert.key_from_proto((await self._call(self._admin.UpdateKeyPolicy, request, timeout)).key)

    async def import_key(
        self,
        key_name: str,
        key_material: bytes = b"",
        *,
        mode: Mode | str | None = None,
        allow_unauthenticated: bool = False,
        legacy_cipher: LegacyCipher | str | None = None,
        legacy_iv: LegacyIv | str | None = None,
        legacy_fixed_iv: bytes = b"",
        passphrase: bytes | str = b"",
        fpe_format: FpeFormat | None = None,
        transit_kdf: TransitKdf | str | None = None,
        timeout: float | None = None,
    ) -> Key:
        """Adds `key_material` as a new version of `key_name` (created if missing). With `legacy_cipher` it is
        a decrypt-only legacy key (proto/README.md, "Legacy ciphertexts") whose data re_encrypt rewraps
        into a cipherd key; for LegacyCipher.MYSQL_AES_ECB, `passphrase` (AES_ENCRYPT's key string; a str
        as UTF-8) may stand instead of key_material. Mode.FF1 material (16, 24 or 32 bytes) takes `fpe_format`,
        equal to the key's when the key exists. With `transit_kdf` it is a version of a derived Vault Transit
        key (Mode.GCM or Mode.CHACHA material as Transit exports it), which only decrypts Transit's ciphertexts.
        The material goes in the clear, which a server takes only with --allow-plaintext-key-import
        (PlaintextImportDisabledError otherwise): import_key_wrapped is the way in."""
        request = _admin_convert.import_key_request(
            key_name,
            key_material,
            mode,
            allow_unauthenticated,
            legacy_cipher,
            legacy_iv,
            legacy_fixed_iv,
            passphrase,
            fpe_format,
            transit_kdf,
        )
        return _admin_convert.key_from_proto((await self._call(self._admin.ImportKey, request, timeout)).key)

    async def create_import_job(
        self,
        key_name: str,
        *,
        wrapping_algorithm: ImportWrappingAlgorithm | str | None = None,
        timeout: float | None = None,
    ) -> ImportJob:
        """A new import job for `key_name` (which need not exist): a one-time RSA public key to wrap one version's
        material for (wrap_key_material), valid on the replica that made it until its expire_time. Needs the
        import operation."""
        request = _admin_convert.import_job_request(key_name, wrapping_algorithm)
        return _admin_convert.import_job_from_proto(
            (await self._call(self._admin.CreateImportJob, request, timeout)).import_job
        )

    async def import_key_wrapped(
        self,
        key_name: str,
        key_material: bytes = b"",
        *,
        mode: Mode | str | None = None,
        allow_unauthenticated: bool = False,
        legacy_cipher: LegacyCipher | str | None = None,
        legacy_iv: LegacyIv | str | None = None,
        legacy_fixed_iv: bytes = b"",
        passphrase: bytes | str = b"",
        fpe_format: FpeFormat | None = None,
        transit_kdf: TransitKdf | str | None = None,
        wrapping_algorithm: ImportWrappingAlgorithm | str | None = None,
        timeout: float | None = None,
    ) -> Key:
        """import_key without the material ever in the clear on the wire: creates an import job for `key_name`,
        wraps `key_material` for its public key here (RSA-OAEP-SHA-256 and RFC 5649 key wrap) and imports the
        result on this client's connection. A MYSQL_AES_ECB `passphrase` is folded into its key here, as MySQL
        does, and that is wrapped. The way in on a server without --allow-plaintext-key-import."""
        job = await self.create_import_job(key_name, wrapping_algorithm=wrapping_algorithm, timeout=timeout)
        request = _admin_convert.import_key_request(
            key_name,
            key_material,
            mode,
            allow_unauthenticated,
            legacy_cipher,
            legacy_iv,
            legacy_fixed_iv,
            passphrase,
            fpe_format,
            transit_kdf=transit_kdf,
            wrapped_for=job,
        )
        return _admin_convert.key_from_proto((await self._call(self._admin.ImportKey, request, timeout)).key)

    async def set_key_exportable(self, key_name: str, *, timeout: float | None = None) -> Key:
        """Marks the key exportable, for good: from then on backup_key may write it out. Needs the admin operation."""
        request = admin.SetKeyExportableRequest(key_name=key_name)
        return _admin_convert.key_from_proto((await self._call(self._admin.SetKeyExportable, request, timeout)).key)

    async def backup_key(
        self, key_name: str, recipient_public_key_pem: str | bytes, *, timeout: float | None = None
    ) -> KeyBackupFile:
        """The key whole (every version's material, state and destruction schedule, its policy and state) wrapped
        for `recipient_public_key_pem`, an RSA-3072 or RSA-4096 PEM public key whose private key lives offline.
        KeyNotExportableError for a key not made exportable. Needs the export operation, which admin does not
        imply."""
        pem = (
            recipient_public_key_pem if isinstance(recipient_public_key_pem, str) else recipient_public_key_pem.decode()
        )
        request = admin.BackupKeyRequest(key_name=key_name, recipient_public_key_pem=pem)
        response = await self._call(self._admin.BackupKey, request, timeout)
        return KeyBackupFile(response.backup_file, _admin_convert.key_from_proto(response.key))

    async def restore_key(
        self, key_name: str, import_job_id: str, wrapped_key_backup: bytes, *, timeout: float | None = None
    ) -> Key:
        """Creates key `key_name` from a serialized KeyBackup of it wrapped (wrap_key_material) for import job
        `import_job_id` of this connection's server, made for `key_name`; AlreadyExistsError if the key exists (a
        restore never overwrites). restore_key_backup does the whole restore from a file. Needs the import operation
        on `key_name`."""
        request = admin.RestoreKeyRequest(
            key_name=key_name, import_job_id=import_job_id, wrapped_key_backup=wrapped_key_backup
        )
        return _admin_convert.key_from_proto((await self._call(self._admin.RestoreKey, request, timeout)).key)

    async def restore_key_backup(
        self, file: bytes, identity_pem: bytes | str, *, password: bytes | None = None, timeout: float | None = None
    ) -> Key:
        """Restores a backup file (backup_key's `file`) into this connection's server: opens it with the recipient's
        private key (open_key_backup, which refuses another recipient's file or a tampered one), creates an import
        job for the key's name, wraps the backup for it and calls restore_key. The opened backup is wiped before
        this returns."""
        with open_key_backup(file, identity_pem, password) as opened:
            job = await self.create_import_job(opened.key.key_name, timeout=timeout)
            wrapped = wrap_key_material(job.public_key_pem, bytes(opened.key_backup))
        return await self.restore_key(opened.key.key_name, job.import_job_id, wrapped, timeout=timeout)

    async def get_key_census(
        self, key_name: str, *, quiet_period: timedelta | None = None, timeout: float | None = None
    ) -> KeyCensus:
        """Which versions still see traffic: those used within `quiet_period` (None: the server's 7 days),
        and the highest min_decryption_version that refuses none of them."""
        request = _admin_convert.census_request(key_name, quiet_period)
        return _admin_convert.census_from_proto(await self._call(self._admin.GetKeyCensus, request, timeout))

    # Key lifecycle (proto/README.md, "Errors"): refusals are FailedPreconditionError subclasses. A
    # pending_window of None is the server's default, 7 days; it refuses less than 24 hours.

    async def _key(self, method: Callable[..., Any], request: Any, timeout: float | None) -> Key:
        return _admin_convert.key_from_proto((await self._call(method, request, timeout)).key)

    async def disable_key(self, key_name: str, *, timeout: float | None = None) -> Key:
        """Makes the key refuse every call (KeyDisabledError) until enable_key; its versions and policy stay."""
        return await self._key(self._admin.DisableKey, admin.DisableKeyRequest(key_name=key_name), timeout)

    async def enable_key(self, key_name: str, *, timeout: float | None = None) -> Key:
        """Serves a disabled key again (a key scheduled for deletion needs cancel_key_deletion first)."""
        return await self._key(self._admin.EnableKey, admin.EnableKeyRequest(key_name=key_name), timeout)

    async def schedule_key_version_destruction(
        self,
        key_name: str,
        versions: Iterable[int],
        *,
        pending_window: timedelta | None = None,
        timeout: float | None = None,
    ) -> Key:
        """Schedules `versions` (never the current one) for destruction after `pending_window`; they refuse
        every call at once (KeyVersionDestructionScheduledError), and are KeyVersionDestroyedError after."""
        request = _admin_convert.destruction_request(key_name, versions, pending_window)
        return await self._key(self._admin.ScheduleKeyVersionDestruction, request, timeout)

    async def cancel_key_version_destruction(
        self, key_name: str, versions: Iterable[int], *, timeout: float | None = None
    ) -> Key:
        """Restores versions scheduled for destruction whose pending window has not passed."""
        request = admin.CancelKeyVersionDestructionRequest(key_name=key_name, versions=list(versions))
        return await self._key(self._admin.CancelKeyVersionDestruction, request, timeout)

    async def schedule_key_deletion(
        self, key_name: str, *, pending_window: timedelta | None = None, timeout: float | None = None
    ) -> Key:
        """Schedules every version for destruction after `pending_window`, keeping the name as a tombstone; the
        key refuses every call at once (KeyDisabledError)."""
        request = _admin_convert.deletion_request(key_name, pending_window)
        return await self._key(self._admin.ScheduleKeyDeletion, request, timeout)

    async def cancel_key_deletion(self, key_name: str, *, timeout: float | None = None) -> Key:
        """Restores a key scheduled for deletion; it comes back disabled, so enable_key it knowingly."""
        return await self._key(
            self._admin.CancelKeyDeletion, admin.CancelKeyDeletionRequest(key_name=key_name), timeout
        )

    async def retire_key_versions(
        self,
        key_name: str,
        below_version: int,
        *,
        quiet_period: timedelta | None = None,
        pending_window: timedelta | None = None,
        dry_run: bool = False,
        inventories: Iterable[DataInventory | admin.DataInventory] = (),
        timeout: float | None = None,
    ) -> Retirement:
        """Raises min_decryption_version to `below_version` and schedules every older version for destruction,
        in one write; raises KeyVersionsInUseError (its `versions` lists them) while any was used (or failed to
        decrypt) within `quiet_period` (None: 7 days) on any replica, or while one of `inventories` (scans of the
        stored data, DataInventory) counts a ciphertext under one (its `source` names that inventory).
        `dry_run` answers the plan without acting."""
        request = _admin_convert.retire_request(
            key_name, below_version, quiet_period, pending_window, dry_run, inventories
        )
        return _admin_convert.retirement_from_proto(await self._call(self._admin.RetireKeyVersions, request, timeout))

    # SubjectService (proto/README.md, "Subject-bound ciphertexts"): every call needs the `erase` operation on the
    # key, which `admin` does not imply.

    async def erase_subject(self, key_name: str, subject: str, *, timeout: float | None = None) -> SubjectErasure:
        """Erases `subject` under `key_name`: every ciphertext sealed for it there then raises SubjectErasedError,
        everyone else's data untouched. Erasing an erased subject, or one that never had a key, is no error: the
        outcome says which; a receipt comes with the erasure that did it."""
        request = subject_pb.EraseSubjectRequest(key_name=key_name, subject=subject)
        return _subject_convert.erasure((await self._call(self._subjects.EraseSubject, request, timeout)).erasure)

    async def erase_subjects(
        self, key_name: str, subjects: Iterable[SubjectItem | str], *, timeout: float | None = None
    ) -> list[ItemResult[SubjectErasure]]:
        """erase_subject of every item, in calls of up to 1000 (`timeout` is each call's): one result per item, in
        order, an item's failure its own. A call that fails raises, after the calls before it took effect (erasing
        again is harmless)."""
        results: list[ItemResult[SubjectErasure]] = []
        for request in _subject_convert.erase_requests(key_name, subjects):
            response = await self._call(self._subjects.EraseSubjects, request, timeout)
            results.extend(_subject_convert.erase_results(request, response))
        return results

    async def get_subject(self, key_name: str, subject: str, *, timeout: float | None = None) -> SubjectStatus:
        """Whether `subject` has a key under `key_name`, and whether it was erased."""
        request = subject_pb.GetSubjectRequest(key_name=key_name, subject=subject)
        return _subject_convert.status(await self._call(self._subjects.GetSubject, request, timeout))

    # AuditService (docs/audit.md): cipherd.audit.verify_with_server checks a whole audit trail with these.

    async def hash_audit_value(self, value: bytes | str, *, timeout: float | None = None) -> str:
        """The keyed hash ("hmac-sha256:<hex>") audit records carry for a context equal to `value` (a str as
        UTF-8): search the audit file for it to find the calls that carried it."""
        request = audit_pb.HashAuditValueRequest(value=value.encode("utf-8") if isinstance(value, str) else value)
        return (await self._call(self._audit.HashAuditValue, request, timeout)).hash

    async def audit_head(self, trail: str = "", *, timeout: float | None = None) -> audit_pb.AuditHead | None:
        """The head the server's key store holds for an audit trail (`trail` as its start lines name it, ""
        for the server's own): where the trail starts, its last anchored checkpoint, its files. None when it
        holds none for the trail. Ask before reading the files: a head is anchored only after its line is
        durable, so files read afterwards reach it unless lines were removed."""
        response = await self._call(
            self._audit.VerifyAuditCheckpoints, audit_pb.VerifyAuditCheckpointsRequest(trail=trail), timeout
        )
        return response.head if response.HasField("head") else None

    async def verify_audit_checkpoints(
        self, checkpoints: Sequence[Checkpoint], *, timeout: float | None = None
    ) -> list[bool]:
        """Whether each checkpoint's MAC is the server's audit key's, in order (asked 10,000 at a time)."""
        valid: list[bool] = []
        for request in audit_requests(checkpoints):
            valid.extend(verdicts(request, await self._call(self._audit.VerifyAuditCheckpoints, request, timeout)))
        return valid
