"""What the item streams (encrypt_stream, decrypt_stream, re_encrypt_stream) share between the sync and
asyncio clients: the requests fed to gRPC from the caller's items, resuming after a reference, and the
error a broken stream raises (proto/README.md, "Streams")."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from typing import Generic, Protocol, TypeAlias, TypeVar

import grpc

from cipherd.errors import CipherdError, from_rpc_error


class _Referenced(Protocol):
    @property
    def reference(self) -> str: ...


I = TypeVar("I")  # noqa: E741 - the item type, as in the ItemFeed[I, Q] it parameterises
Q = TypeVar("Q", bound=_Referenced)

# The items an AsyncClient stream takes; scripts/unasync makes it Iterable in the sync Client.
AnyIterable: TypeAlias = Iterable[I] | AsyncIterable[I]


class ItemFeed(Generic[I, Q]):
    """The requests of one stream call, made from the caller's items only as gRPC asks for them (so the
    input is never read far ahead of the answers), and what the call has answered so far.

    With `resume_after`, the items up to and including the first whose reference it is are skipped. An
    exception raised by the items (or by turning one into a request) ends the input: the items already
    sent are still answered, then finished() raises it."""

    def __init__(
        self, items: Iterable[I] | AsyncIterable[I], to_request: Callable[[I], Q], resume_after: str | None
    ) -> None:
        if resume_after == "":
            raise ValueError("resume_after needs a non-empty reference: give items references to resume a stream")
        self._items = items
        self._to_request = to_request
        self._resume_after = resume_after
        self._resumed = resume_after is None
        self._failure: Exception | None = None
        self.last_reference = resume_after  # where a stream broken now would resume

    def __iter__(self) -> Iterator[Q]:
        try:
            if not isinstance(self._items, Iterable):
                raise TypeError("the sync client's streams take an Iterable of items, not an AsyncIterable")
            for item in self._items:
                if (request := self._take(item)) is not None:
                    yield request
        except Exception as e:  # noqa: BLE001 - handed back to the caller by finished()
            self._failure = e

    async def __aiter__(self) -> AsyncIterator[Q]:
        try:
            if isinstance(self._items, AsyncIterable):
                async for item in self._items:
                    if (request := self._take(item)) is not None:
                        yield request
            else:
                for item in self._items:
                    if (request := self._take(item)) is not None:
                        yield request
        except Exception as e:  # noqa: BLE001 - handed back to the caller by finished()
            self._failure = e

    def _take(self, item: I) -> Q | None:
        """The item's request, or None while skipping up to resume_after."""
        request = self._to_request(item)
        if self._resumed:
            return request
        self._resumed = request.reference == self._resume_after
        return None

    def answered(self, reference: str) -> None:
        self.last_reference = reference

    def broken(self, error: grpc.RpcError) -> CipherdError:
        """The exception for a stream that ended with `error`, carrying the last reference answered."""
        raised = from_rpc_error(error)
        raised.last_reference = self.last_reference
        return raised

    def finished(self) -> None:
        """After the last answer: raises what broke the input, or says that resume_after was never seen."""
        if self._failure is not None:
            raise self._failure
        if not self._resumed:
            raise ValueError(f"resume_after={self._resume_after!r} is not the reference of any item")
