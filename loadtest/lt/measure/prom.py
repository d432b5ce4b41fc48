"""Scrapes Prometheus text from /metrics and computes the deltas a run needs."""

import re
import urllib.request

_LINE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def scrape(url: str, timeout: float = 5.0) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def parse(text: str) -> list[tuple[str, dict, float]]:
    samples = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            continue
        try:
            value = float(m.group(4))
        except ValueError:
            continue
        samples.append((m.group(1), dict(_LABEL.findall(m.group(3) or "")), value))
    return samples


def total(samples, name: str, **labels) -> float:
    """Sum of every series of `name` whose labels include `labels`."""
    return sum(v for n, ls, v in samples if n == name and all(ls.get(k) == want for k, want in labels.items()))


def maximum(samples, name: str, **labels) -> float:
    return max(
        (v for n, ls, v in samples if n == name and all(ls.get(k) == want for k, want in labels.items())), default=0.0
    )
