"""Where Client's data-key file work runs: on the caller's thread, with its calls made as they come.
The counterpart of _aio_file_work, whose calls scripts/unasync turns into these."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def run(operation: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`operation` run here."""
    return operation(*args, **kwargs)


def call_from_work(call: Callable[[str], R]) -> Callable[[str], R]:
    """`call` as it is: the file work runs on the caller's thread."""
    return call
