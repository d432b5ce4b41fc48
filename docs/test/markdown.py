"""The fenced blocks of a Markdown page, with what the page says about each (docs/README.md, "Docs that run"):
`<!-- not run: REASON -->` or `<!-- stdin: TEXT -->` on the lines just above a fence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_MARKER = re.compile(r"^\s*<!--\s*(?P<kind>not run|stdin):\s*(?P<text>.*?)\s*-->\s*$")

# What a block's info string says it is. "text" (or nothing) is output or an illustration, never code.
SHELL = {"sh", "bash", "shell"}
TRANSCRIPT = {"console"}
PYTHON = {"python", "py"}
OUTPUT = {"text", ""}


@dataclass(frozen=True)
class Block:
    """One fenced block: where it starts (the fence's 1-based line), its language and its text."""

    path: Path
    line: int
    lang: str
    text: str
    not_run: str | None = None  # the reason, when the page marks the block as not runnable
    stdin: str | None = None  # what a reader types at the block's prompt

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def blocks(path: Path, display: Path | None = None) -> list[Block]:
    """Every fenced block of the page, in order; `display` is the path failures name."""
    lines = path.read_text().split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m["indent"]), m["fence"], m["info"].strip().split(" ")[0]
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence) and lines[i].strip().strip(fence[0]) == ""):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"{display or path}:{start + 1}: a fence that never closes")
        markers = _markers_above(lines, start)
        found.append(
            Block(
                display or path,
                start + 1,
                lang,
                "\n".join(body) + "\n",
                not_run=markers.get("not run"),
                stdin=markers.get("stdin"),
            )
        )
        i += 1
    return found


def _markers_above(lines: list[str], fence: int) -> dict[str, str]:
    """The marker comments directly above line `fence` (blank lines between them allowed)."""
    markers: dict[str, str] = {}
    j = fence - 1
    while j >= 0 and (not lines[j].strip() or _MARKER.match(lines[j])):
        if m := _MARKER.match(lines[j]):
            if not m["text"]:
                raise ValueError(f"line {j + 1}: a '{m['kind']}:' marker needs its text")
            markers[m["kind"]] = m["text"]
        j -= 1
    return markers
