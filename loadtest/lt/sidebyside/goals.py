"""Ratios between the side-by-side's servers and the issue's goals (issue 4), each met / missed / not
measured with its figure. Only valid rows count."""

from dataclasses import dataclass

from ..rows import JsonRow
from .row import SbsRow


@dataclass(frozen=True)
class Goal(JsonRow):
    target: str  # the goal as the issue states it (JSON key kept from older results)
    figure: str
    met: bool | None  # None: its run is missing or invalid

    @property
    def mark(self) -> str:
        return "not measured" if self.met is None else "met" if self.met else "missed"


def find(rows: list[SbsRow], target: str, shape: str) -> SbsRow | None:
    return next((r for r in rows if r.target == target and r.shape == shape), None)


def ratio(a: SbsRow | None, b: SbsRow | None) -> float | None:
    """a ÷ b in items/s, when both ran and are valid."""
    if not a or not b or not a.valid or not b.valid or not b.items_per_s:
        return None
    return a.items_per_s / b.items_per_s


def ratios(rows: list[SbsRow], shapes: list[str]) -> dict:
    return {
        s: {
            "cipherd_vs_vault": ratio(find(rows, "cipherd", s), find(rows, "vault-transit", s)),
            "cipherd_vs_echo": ratio(find(rows, "cipherd", s), find(rows, "echo", s)),
        }
        for s in shapes
    }


def subject_ratios(all_rows: list[SbsRow], shapes: list) -> dict:
    """cipherd's subject-bound shapes ÷ their plain gcm counterparts in items/s: each round's ratio (the two
    ran back to back) and their median, for every subject shape measured with its counterpart."""
    out = {}
    for shape in shapes:
        if not shape.subjects or shape.plain not in {s.name for s in shapes}:
            continue
        rounds = sorted({r.round for r in all_rows if r.target == "cipherd" and r.shape == shape.name})
        each = []
        for n in rounds:
            subject = next(
                (r for r in all_rows if r.target == "cipherd" and r.shape == shape.name and r.round == n), None
            )
            plain = next(
                (r for r in all_rows if r.target == "cipherd" and r.shape == shape.plain and r.round == n), None
            )
            each.append(ratio(subject, plain))
        valid = sorted(v for v in each if v is not None)
        out[shape.name] = {
            "plain": shape.plain,
            "rounds": each,
            "median": valid[(len(valid) - 1) // 2] if valid else None,
        }
    return out


def judge(name, value, limit, cmp, fmt) -> Goal:
    """A goal met when `value cmp limit` (cmp one of ">=", "<", "<="), not measured when value is None."""
    if value is None:
        return Goal(name, "not measured (missing or invalid run)", None)
    met = value >= limit if cmp == ">=" else value < limit if cmp == "<" else value <= limit
    return Goal(name, fmt(value), met)


def check_goals(rows: list[SbsRow]) -> list[Goal]:
    """The issue's goals, each met / missed with the figure, or None when its run is missing or invalid."""
    r = ratios(rows, ["encrypt", "encrypt-batch-256", "reencrypt-batch-256"])
    subject = {
        s: ratio(find(rows, "cipherd", f"{s}-subjects"), find(rows, "cipherd", s))
        for s in ("encrypt-batch-256", "decrypt-batch-256")
    }

    def valid(target, shape, key):
        row = find(rows, target, shape)
        return getattr(row, key) if row and row.valid else None

    x = lambda v: f"{v:.2f}×"  # noqa: E731
    pct = lambda v: f"{v * 100:.0f} %"  # noqa: E731
    ms = lambda v: f"{v:.2f} ms"  # noqa: E731
    per_s = lambda v: f"{v:,.0f} items/s"  # noqa: E731
    size = lambda v: f"{v:,.0f} B"  # noqa: E731
    return [
        judge("unary Encrypt ≥ 3× Vault Transit unary", r["encrypt"]["cipherd_vs_vault"], 3.0, ">=", x),
        judge("unary Encrypt ≥ 70 % of the echo ceiling", r["encrypt"]["cipherd_vs_echo"], 0.7, ">=", pct),
        judge("unary Encrypt p99 < 10 ms at 50 concurrent", valid("cipherd", "encrypt", "p99_ms"), 10.0, "<", ms),
        judge(
            "EncryptBatch-256 ≥ 1,000,000 items/s",
            valid("cipherd", "encrypt-batch-256", "items_per_s"),
            1e6,
            ">=",
            per_s,
        ),
        judge("EncryptBatch-256 ≥ 4× Vault Transit batched", r["encrypt-batch-256"]["cipherd_vs_vault"], 4.0, ">=", x),
        judge(
            "ReEncryptBatch-256 ≥ 500,000 items/s",
            valid("cipherd", "reencrypt-batch-256", "items_per_s"),
            5e5,
            ">=",
            per_s,
        ),
        judge("allocation ≤ 2 KiB per unary Encrypt", valid("cipherd", "encrypt", "alloc_per_call"), 2048, "<=", size),
        judge(
            "allocation ≤ 300 B per EncryptBatch item",
            valid("cipherd", "encrypt-batch-256", "alloc_per_item"),
            300,
            "<=",
            size,
        ),
        judge(
            "subject-bound EncryptBatch-256, warm subjects, ≥ 90 % of plain gcm items/s (issue 32)",
            subject["encrypt-batch-256"],
            0.9,
            ">=",
            pct,
        ),
        judge(
            "subject-bound DecryptBatch-256, warm subjects, ≥ 90 % of plain gcm items/s (issue 32)",
            subject["decrypt-batch-256"],
            0.9,
            ">=",
            pct,
        ),
    ]
