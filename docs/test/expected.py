"""Whether a command's output has the shape a page shows for it.

What differs from run to run is compared as a shape: a ciphertext's payload after its header, timestamps,
durations with a decimal point ("0.6 s"), runs of blanks. Everything else must be as shown. In the shown
output `…` stands for any text within a line, and a line holding only `…` for any number of lines."""

from __future__ import annotations

import re

_HEADER = r"(?:<|\\u003c)[A-Za-z0-9._-]+/(?:v\d+|s):[a-z]+(?:>|\\u003e)"
_CIPHERTEXT = re.compile(rf"({_HEADER})[A-Za-z0-9+/=_-]+")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
_DURATION = re.compile(r"\b\d+\.\d+ ?(s|ms)\b")
_BLANKS = re.compile(r"[ \t]+")
ANY = "…"


def normalize(text: str) -> list[str]:
    """The lines of `text` with what varies between runs replaced by `…`, blank runs made one space."""
    text = _CIPHERTEXT.sub(lambda m: m[1] + ANY, text)
    text = _TIMESTAMP.sub(ANY, text)
    text = _DURATION.sub(lambda m: f"{ANY} {m[1]}", text)
    lines = [_BLANKS.sub(" ", line).strip() for line in text.strip("\n").split("\n")]
    return lines if lines != [""] else []


def matches(shown: str, actual: str) -> bool:
    """Whether `actual` has the shape of `shown`, line for line."""
    pattern = ""
    for line in normalize(shown):
        if line == ANY:
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += r"[^\n]*".join(re.escape(part) for part in line.split(ANY)) + r"\n"
    return re.fullmatch(pattern, "".join(line + "\n" for line in normalize(actual))) is not None
