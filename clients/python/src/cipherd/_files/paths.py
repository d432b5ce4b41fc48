"""Sources and destinations given as a path or as an open binary file, and the rule for paths: written
to a temporary file beside the target and renamed over it only once everything succeeded, so a failed
decryption never leaves a plaintext file that looks complete."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from cipherd.types import FileDestination, FileSource, ReadableFile, WritableFile


@contextmanager
def reading(source: FileSource) -> Iterator[ReadableFile]:
    """The source to read from: a path is opened (and closed after), a file object used as it is."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield f
    else:
        yield source


@contextmanager
def writing(destination: FileDestination) -> Iterator[WritableFile]:
    """The destination to write to. For a path, a temporary file (mode 0600) beside it that replaces it
    when the block ends without an exception and is removed when it raises; a file object is used as it is."""
    if not isinstance(destination, (str, os.PathLike)):
        yield destination
        return
    target = Path(destination)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
