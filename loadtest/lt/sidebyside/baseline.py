"""cipherd ÷ baseline per shape (`--baseline-jar`): the ratio of the two median rounds, each side's spread
over its rounds, and the ratio within each round, where the two ran back to back; and the same for the
server's CPU per item, which a shared machine disturbs less than items/s. Only valid rows and rounds
count. Pure: rows in, `BaselineRatio`s out."""

import statistics
from dataclasses import dataclass

from ..rows import JsonRow
from .goals import find, ratio
from .lineup import BASELINE, CIPHERD
from .row import SbsRow, server_us_per_item


@dataclass(frozen=True)
class BaselineRatio(JsonRow):
    """One shape's comparison; None where a side has no valid run."""

    shape: str
    cipherd_items_per_s: float | None
    baseline_items_per_s: float | None
    ratio: float | None  # the median rounds' items/s, cipherd ÷ baseline
    cipherd_spread: tuple  # (lowest, highest) items/s of cipherd's valid rounds; () when none
    baseline_spread: tuple
    round_ratios: tuple  # cipherd ÷ baseline in round 1, 2, ...; None where either was not valid
    # server CPU µs per item, cipherd ÷ baseline, in round 1, 2, ... (above 1: cipherd costs more); None
    # where either was not valid or has no figure
    cpu_round_ratios: tuple = ()

    @property
    def cpu_ratio(self) -> float | None:
        """The median of the per-round CPU-per-item ratios; None without one."""
        known = [r for r in self.cpu_round_ratios if r is not None]
        return statistics.median(known) if known else None

    @property
    def overlap(self) -> bool | None:
        """Whether the two sides' spreads overlap (then the difference is within the rounds' noise); None
        with fewer than two valid rounds a side, when a spread says nothing."""
        if sum(r is not None for r in self.round_ratios) < 2:
            return None
        return self.cipherd_spread[0] <= self.baseline_spread[1] and self.baseline_spread[0] <= self.cipherd_spread[1]


def valid_rounds(row: SbsRow | None) -> dict[int, float]:
    """Round number -> items/s of a (median) row's valid rounds; one round is the row itself."""
    if row is None:
        return {}
    if row.rounds is None:
        return {row.round: row.items_per_s} if row.valid else {}
    return {i + 1: v for i, v in enumerate(row.rounds.items_per_s) if i + 1 not in row.rounds.invalid}


def valid_cpu(row: SbsRow | None) -> dict[int, float]:
    """Round number -> server CPU µs per item of a (median) row's valid rounds that have the figure."""
    if row is None:
        return {}
    if row.rounds is None:
        us = server_us_per_item(row)
        return {row.round: us} if row.valid and us else {}
    return {i + 1: v for i, v in enumerate(row.rounds.server_us_per_item) if v and i + 1 not in row.rounds.invalid}


def rounds(row: SbsRow) -> int:
    return row.rounds.count if row.rounds else row.round


def spread(values) -> tuple:
    values = list(values)
    return (min(values), max(values)) if values else ()


def ratios(rows: list[SbsRow], shapes: list[str]) -> list[BaselineRatio]:
    """One BaselineRatio per shape both cipherds ran (rows: the median rows of median_rounds)."""
    out = []
    for s in shapes:
        c, b = find(rows, CIPHERD, s), find(rows, BASELINE, s)
        if c is None or b is None:
            continue
        cr, br = valid_rounds(c), valid_rounds(b)
        cc, bc = valid_cpu(c), valid_cpu(b)
        out.append(
            BaselineRatio(
                shape=s,
                cipherd_items_per_s=c.items_per_s if c.valid else None,
                baseline_items_per_s=b.items_per_s if b.valid else None,
                ratio=ratio(c, b),
                cipherd_spread=spread(cr.values()),
                baseline_spread=spread(br.values()),
                round_ratios=tuple(cr[n] / br[n] if n in cr and br.get(n) else None for n in range(1, rounds(c) + 1)),
                cpu_round_ratios=tuple(cc[n] / bc[n] if n in cc and n in bc else None for n in range(1, rounds(c) + 1)),
            )
        )
    return out
