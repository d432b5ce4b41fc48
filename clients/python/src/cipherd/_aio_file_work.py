"""Where AsyncClient's data-key file work runs: in a worker thread, so the loop goes on, with the calls
it needs (unwrapping, rewrapping the data key) made on the loop, where the channel lives.

scripts/unasync turns this module's name into _file_work's, the sync client's counterpart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


async def run(operation: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`operation` run in a worker thread."""
    return await asyncio.to_thread(operation, *args, **kwargs)


def call_from_work(call: Callable[[str], Coroutine[Any, Any, R]]) -> Callable[[str], R]:
    """`call` made callable from the worker thread: it runs on the current loop, where the channel lives."""
    loop = asyncio.get_running_loop()
    return lambda argument: asyncio.run_coroutine_threadsafe(call(argument), loop).result()
