"""With --sbs-rounds N, one row per (target, shape): the valid round of median items/s."""

from dataclasses import replace

from .row import Rounds, SbsRow, server_us_per_item


def median_rounds(rows: list[SbsRow]) -> list[SbsRow]:
    """One row per (target, shape): with several rounds, the valid round of median items/s (the lower
    middle one for an even count), marked with the rounds' spread; an invalid round is listed and, when
    no round is valid, the first one stands (invalid) for its pair."""
    groups = {}
    for r in rows:
        groups.setdefault((r.target, r.shape), []).append(r)
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        valid = sorted((r for r in group if r.valid), key=lambda r: r.items_per_s)
        pick = valid[(len(valid) - 1) // 2] if valid else group[0]
        out.append(
            replace(
                pick,
                rounds=Rounds(
                    count=len(group),
                    valid=len(valid),
                    items_per_s=tuple(r.items_per_s for r in group),
                    invalid=tuple(r.round for r in group if not r.valid),
                    server_us_per_item=tuple(server_us_per_item(r) for r in group),
                ),
            )
        )
    return out
