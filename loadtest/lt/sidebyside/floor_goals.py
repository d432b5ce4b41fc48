"""Issue 21's targets, each met / missed / not measured with its figure (as goals.py does for issue 4's):
every batch shape and the stream within 85 % of its floor, unary Encrypt at 90 % of echo's items/s, and
allocation over echo's at most 400 B per batch item and 800 B per unary call, as the issue states them; and,
since the JCE's AES-GCM allocates more than 400 B per operation by itself, the same budgets for what cipherd
allocates beyond echo's and the provider's own (JMH `-prof gc`). Pure; only valid rows count."""

from .floor import FloorRow
from .goals import Goal, find, judge, ratio
from .lineup import CIPHERD, ECHO
from .row import SbsRow

FLOOR_SHARE = 0.85
UNARY_SHARE_OF_ECHO = 0.9
BATCH_ALLOC_OVER_ECHO = 400
UNARY_ALLOC_OVER_ECHO = 800
BATCH_ALLOC_BEYOND_JCE = 400  # the budgets again, for cipherd's own share: beyond echo's and the JCE's
UNARY_ALLOC_BEYOND_JCE = 800
NAMES = {
    "encrypt": "unary Encrypt",
    "encrypt-batch-256": "EncryptBatch-256",
    "decrypt-batch-256": "DecryptBatch-256",
    "reencrypt-batch-256": "ReEncryptBatch-256",
    "reencrypt-stream-256": "ReEncryptStream-256",
}
BATCHES = ("encrypt-batch-256", "decrypt-batch-256", "reencrypt-batch-256")
AT_FLOOR = BATCHES + ("reencrypt-stream-256",)


def pct(v: float) -> str:
    return f"{v * 100:.0f} %"


def over(v: float) -> str:
    return f"{v:+,.0f} B"


def check(rows: list[SbsRow], floors: list[FloorRow]) -> list[Goal]:
    """The issue's targets (rows: the median rows; floors: floor.floors of them)."""
    by_shape = {f.shape: f for f in floors}

    def figure(shape: str, key: str):
        f = by_shape.get(shape)
        return getattr(f, key) if f is not None else None

    goals = [
        judge(f"{NAMES[s]} ≥ {pct(FLOOR_SHARE)} of its floor", figure(s, "cipherd_vs_floor"), FLOOR_SHARE, ">=", pct)
        for s in AT_FLOOR
    ]
    goals.append(
        judge(
            f"unary Encrypt ≥ {pct(UNARY_SHARE_OF_ECHO)} of echo's items/s",
            ratio(find(rows, CIPHERD, "encrypt"), find(rows, ECHO, "encrypt")),
            UNARY_SHARE_OF_ECHO,
            ">=",
            pct,
        )
    )
    goals += [
        judge(
            f"{NAMES[s]} allocation ≤ echo's + {BATCH_ALLOC_OVER_ECHO} B per item",
            figure(s, "alloc_over_echo"),
            BATCH_ALLOC_OVER_ECHO,
            "<=",
            over,
        )
        for s in BATCHES
    ]
    goals.append(
        judge(
            f"unary Encrypt allocation ≤ echo's + {UNARY_ALLOC_OVER_ECHO} B per call",
            figure("encrypt", "alloc_over_echo"),
            UNARY_ALLOC_OVER_ECHO,
            "<=",
            over,
        )
    )
    goals += [
        judge(
            f"{NAMES[s]} allocation beyond echo's and the JCE's own ≤ {BATCH_ALLOC_BEYOND_JCE} B per item",
            figure(s, "alloc_over_echo_and_jce"),
            BATCH_ALLOC_BEYOND_JCE,
            "<=",
            over,
        )
        for s in BATCHES
    ]
    goals.append(
        judge(
            f"unary Encrypt allocation beyond echo's and the JCE's own ≤ {UNARY_ALLOC_BEYOND_JCE} B per call",
            figure("encrypt", "alloc_over_echo_and_jce"),
            UNARY_ALLOC_BEYOND_JCE,
            "<=",
            over,
        )
    )
    return goals
