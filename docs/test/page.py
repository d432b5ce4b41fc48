"""Runs a page's blocks in order in one shell session, as a reader copying them would, and says where the
page stops being true: the file and line of the block, what it shows and what it printed."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from expected import matches
from markdown import OUTPUT, PYTHON, SHELL, TRANSCRIPT, Block
from shell import Outcome, Session

# `command   # prints: TEXT` at the end of a shell line: TEXT is that command's stdout.
_PRINTS = re.compile(r"\s#\s*prints:\s?(?P<shown>.*)$")


class PageFailure(AssertionError):
    """A block that failed or printed something else than its page shows."""


@dataclass(frozen=True)
class Reader:
    """How the test stands in for a reader: `rewrite` turns a block's text into what runs against the test's
    server (its addresses), `substitutes` maps a reader's install line to the test's no-download equivalent."""

    rewrite: Callable[[str], str]
    substitutes: dict[str, str]
    python: str  # the command that runs a Python block with the client importable

    def shell_text(self, text: str) -> str:
        lines = [self.substitutes.get(line.strip(), line) for line in text.split("\n")]
        return self.rewrite("\n".join(lines))


def kind(blocks: list[Block], i: int) -> str:
    """What the test does with block i: "run" it, check it as the "output" of the block before, or leave
    it, marked "not run"."""
    block = blocks[i]
    if block.not_run is not None:
        return "not run"
    if block.lang in OUTPUT and i > 0 and blocks[i - 1].lang not in OUTPUT:
        return "output"
    return "run"


def run_page(blocks: list[Block], session: Session, reader: Reader) -> None:
    """Runs every block of kind "run" in order. Raises PageFailure at the first failure."""
    for i, block in enumerate(blocks):
        if kind(blocks, i) != "run":
            continue
        shown = blocks[i + 1] if i + 1 < len(blocks) and kind(blocks, i + 1) == "output" else None
        if block.lang in SHELL:
            _run_shell(block, shown, session, reader)
        elif block.lang in TRANSCRIPT:
            _run_transcript(block, session, reader)
        elif block.lang in PYTHON:
            script = session.scratch / f"block-{block.line}.py"
            script.write_text(reader.rewrite(block.text))
            _check(block, session.run(f"{reader.python} '{script}'\n"), shown)
        elif block.lang in OUTPUT:
            raise PageFailure(
                f"{block.where}: a text block after another text block is no block's output: "
                "mark it <!-- not run: REASON -->"
            )
        else:
            raise PageFailure(
                f"{block.where}: nothing runs a `{block.lang}` block: mark it "
                "<!-- not run: REASON --> or make it a sh, console or python block"
            )


def _run_shell(block: Block, shown: Block | None, session: Session, reader: Reader) -> None:
    """Runs the block piece by piece: each `# prints:` line on its own, compared with its stdout."""
    pieces: list[tuple[list[str], str | None]] = [([], None)]
    for line in block.text.rstrip("\n").split("\n"):
        m = _PRINTS.search(line)
        if not m:
            pieces[-1][0].append(line)
            continue
        # The command is this line and the continuation lines before it.
        before = pieces[-1][0]
        start = len(before)
        while start > 0 and before[start - 1].endswith("\\"):
            start -= 1
        command_lines = before[start:] + [line[: m.start()]]
        del before[start:]
        pieces += [(command_lines, m["shown"]), ([], None)]
    last: Outcome | None = None
    offset = 0  # the line of the block each piece starts at
    for lines, printed in pieces:
        text, start, offset = "\n".join(lines), offset, offset + len(lines)
        if not text.strip():
            continue
        last = session.run(reader.shell_text(text) + "\n", stdin=block.stdin, apart=printed is not None)
        if last.status != 0:
            at, command = last.failed_at or (1, _first_line(text))
            raise PageFailure(_report(block, f"line {block.line + start + at}: `{command}` failed", last))
        if printed is not None:
            if not matches(printed, last.stdout):
                raise PageFailure(_report(block, f"`{_first_line(text)}` prints\n{printed}\nbut printed", last))
            last = None  # its output is accounted for; a shown block is the output of what follows
    if shown is not None:
        actual = last if last is not None else Outcome(0, "", "")
        if not matches(shown.text, actual.output):
            raise PageFailure(
                _report(
                    block, f"the output {shown.where} shows is\n{shown.text.rstrip()}\nbut the block printed", actual
                )
            )


def _run_transcript(block: Block, session: Session, reader: Reader) -> None:
    """A `console` block: each `$ command` runs, and the lines up to the next `$ ` are its output."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.text.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise PageFailure(f"{block.where}: a console block starts with `$ command`")
    for command, output in steps:
        outcome = session.run(reader.shell_text(command) + "\n", errexit=False, stdin=block.stdin)
        if outcome.status is None or not matches("\n".join(output), outcome.output):
            raise PageFailure(_report(block, f"`$ {command}` shows\n" + "\n".join(output) + "\nbut printed", outcome))


def _check(block: Block, outcome: Outcome, shown: Block | None) -> None:
    if outcome.status != 0:
        raise PageFailure(_report(block, "the block failed", outcome))
    if shown is not None and not matches(shown.text, outcome.output):
        raise PageFailure(
            _report(block, f"the output {shown.where} shows is\n{shown.text.rstrip()}\nbut the block printed", outcome)
        )


def _first_line(text: str) -> str:
    first = text.strip().split("\n")[0]
    return first if len(first) < 100 else first[:97] + "..."


def _report(block: Block, what: str, outcome: Outcome) -> str:
    status = "the shell ended" if outcome.status is None else f"exit status {outcome.status}"
    output = outcome.output.rstrip() or "(nothing)"
    return f"{block.where} ({block.lang} block): {what} ({status}):\n{output}"
