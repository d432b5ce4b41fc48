"""The contradictions the docs had before issue 18, kept as pages in stale/: each must fail the docs test,
naming the block and what went wrong. They run against a server of their own, so that the pages of
test_pages.py and these never see each other's keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cipherd_server
import pytest
from conftest import environment_for, reader_for, start_server
from markdown import blocks
from page import PageFailure, run_page
from shell import Session

STALE = Path(__file__).resolve().parent / "stale"

# page -> what its failure must say
CASES = {
    "try-it-decrypt.md": [
        "try-it-decrypt.md:6",
        "line 11: `grpcurl -plaintext",
        "Decrypt` failed",
        "InvalidArgument",
        "decryption failed",
    ],
    "key-collision.md": ["key-collision.md:14", "line 16: `./cipherctl keys create users-email --mode xgcm` failed"],
    "quick-start-version.md": ["quick-start-version.md:13", "prints\n1 b'hello'\nbut printed", "2 b'hello'"],
    "unmarked-fragment.md": ["unmarked-fragment.md:3", "nothing runs a `go` block"],
    "output-differs.md": ["output-differs.md:3", "the output output-differs.md:7 shows", '"key_version": 1'],
}


@pytest.fixture(scope="module")
def stale_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[cipherd_server.Server]:
    running = start_server(tmp_path_factory.mktemp("stale-server"))
    yield running
    running.stop()


@pytest.mark.parametrize("page", sorted(CASES))
def test_stale_page_fails_where_it_is_wrong(
    page: str, checkout: Path, stale_server: cipherd_server.Server, tools: Path, tmp_path: Path
) -> None:
    session = Session(checkout, environment_for(stale_server, tools), tmp_path / "session", 120.0)
    try:
        with pytest.raises(PageFailure) as failure:
            run_page(blocks(STALE / page, Path(page)), session, reader_for(stale_server, checkout))
    finally:
        session.close()
    for said in CASES[page]:
        assert said in str(failure.value)


def test_every_stale_page_has_a_case() -> None:
    assert sorted(p.name for p in STALE.glob("*.md")) == sorted(CASES)
