"""src/cipherd/client.py from src/cipherd/aio.py: unasync's token rules (async/await dropped,
__aenter__ -> __enter__, AsyncIterator -> Iterator, ...) plus the names below, then ruff (unused
imports, import order, format) so the result reads as a hand-written file. Run by scripts/unasync."""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

import tokenize_rt
import unasync

SOURCE = pathlib.Path(__file__).resolve().parent.parent / "src" / "cipherd" / "aio.py"
TARGET = SOURCE.with_name("client.py")
ROOT_CONFIG = SOURCE.parents[4] / "ruff.toml"

HEADER = "# Generated from aio.py by clients/python/scripts/unasync: edit aio.py and run it; do not edit.\n"

# Names that differ between the two clients, beyond unasync's own.
NAMES = {
    "AsyncClient": "Client",
    "AioRpcError": "RpcError",  # grpc.aio.AioRpcError is a grpc.RpcError
    "_aio_file_work": "_file_work",  # where the data-key file work runs
    "AnyIterable": "Iterable",  # AsyncClient's streams take async iterables too
}

# Text that no token rule reaches: docstrings, and grpc.aio's own names.
TEXT = [
    (
        '"""The asyncio client: `async with cipherd.AsyncClient("127.0.0.1:50051") as c: await c.encrypt("demo", b"hi")`."""',
        '"""The synchronous client: `with cipherd.Client("127.0.0.1:50051") as c: c.encrypt("demo", b"hi")`."""',
    ),
    ('"""An asyncio connection to cipherd.', '"""A connection to cipherd.'),
    ("from cipherd._streams import AnyIterable, ItemFeed", "from cipherd._streams import ItemFeed"),
    ("grpc.aio.", "grpc."),
    ("self._channel.close(grace=None)", "self._channel.close()"),  # grpc.Channel.close takes no grace
    ("Callable[..., Awaitable[R]]", "Callable[..., R]"),
]


def generate(ruff: str) -> str:
    source = SOURCE.read_text()
    for old, new in TEXT:
        if old not in source:
            raise SystemExit(f"unasync: {old!r} is no longer in aio.py: update scripts/unasync_client.py")
        source = source.replace(old, new)
    rule = unasync.Rule("/", "/", additional_replacements=NAMES)
    sync = HEADER + tokenize_rt.tokens_to_src(rule._unasync_tokens(tokenize_rt.src_to_tokens(source)))
    for command in (["check", "--fix-only", "--select", "F401,I", "--quiet"], ["format", "--quiet"]):
        sync = subprocess.run(
            [ruff, *command, "--config", str(ROOT_CONFIG), "--stdin-filename", str(TARGET), "-"],
            input=sync,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return sync


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruff", required=True)
    parser.add_argument("--check", action="store_true", help="fail when client.py differs from what aio.py makes")
    args = parser.parse_args()
    sync = generate(args.ruff)
    if not args.check:
        TARGET.write_text(sync)
        print(f"unasync: wrote {TARGET.name} from {SOURCE.name}")
    elif TARGET.read_text() != sync:
        sys.exit("clients/python: src/cipherd/client.py is not what aio.py makes: run clients/python/scripts/unasync")
    else:
        print("clients/python: client.py is aio.py unasynced")


if __name__ == "__main__":
    main()
