"""Every page a reader runs commands from, run against the real jar in the order a reader meets them: the
front door, the docs, the clients' READMEs. One server serves them all, as one `make run` would."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cipherd_server
import pytest
from conftest import REPO
from markdown import blocks
from page import Reader, kind, run_page
from shell import Session

PAGES = [
    "README.md",
    "docs/README.md",
    "docs/operating.md",
    "docs/security.md",
    "docs/searching.md",
    "docs/format-preserving.md",
    "docs/personal-data.md",
    "docs/importing-keys.md",
    "docs/migrating.md",
    "docs/rotating.md",
    "docs/subject-store.md",
    "docs/audit.md",
    "docs/tracing.md",
    "docs/deploy.md",
    "docs/benchmarks.md",
    "docs/development.md",
    "docs/publishing.md",
    "docs/compatibility.md",
    "clients/go/README.md",
    "clients/python/README.md",
    "clients/typescript/README.md",
    "clients/java/README.md",
]
BLOCK_TIMEOUT_S = 180.0


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_as_printed(
    page: str,
    checkout: Path,
    server: cipherd_server.Server,
    environment: dict[str, str],
    reader: Reader,
    tmp_path: Path,
) -> None:
    session = Session(checkout, environment, tmp_path / "session", BLOCK_TIMEOUT_S)
    try:
        run_page(blocks(checkout / page, Path(page)), session, reader)
    finally:
        session.close()
    assert server.process.poll() is None, "the server stopped:\n" + "".join(server.log[-20:])


def test_every_page_under_docs_is_run() -> None:
    pages = {str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md")}
    assert pages <= set(PAGES), f"add these to PAGES, in reading order: {sorted(pages - set(PAGES))}"


def test_inventory(capsys: pytest.CaptureFixture[str]) -> None:
    """Prints how many blocks run, are checked as shown output, and are not run, with their reasons."""
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for page in PAGES:
        found = blocks(REPO / page, Path(page))
        for i, block in enumerate(found):
            counts[kind(found, i)] += 1
            if block.not_run is not None:
                reasons[f"{page}: {block.not_run}"] += 1
    with capsys.disabled():
        print(f"\ndocs blocks: {counts['run']} run, {counts['output']} outputs checked, {counts['not run']} not run")
        for reason, n in sorted(reasons.items()):
            print(f"  {n} x {reason}")
