"""Markdown tables and the number formatting in them, shared by report.md (lt.report) and its
side-by-side section (lt.sidebyside.report): a module of its own so that neither package imports the other
for it."""


def num(v, digits=0) -> str:
    if v is None:
        return "–"
    if isinstance(v, (int, float)):
        return f"{v:,.{digits}f}"
    return str(v)


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if i else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def row_flags(row, bound: str) -> list[str]:
    """The notes every row of figures gets: errors (it does not count), client-bound (`bound` names the
    client), box saturated. `row` is a RunFigures or an SbsRow."""
    parts = []
    if not row.valid:
        parts.append(f"**ERRORS, does not count** ({row.problem or ''})")
    if row.client_bound:
        parts.append(bound)
    if row.box_saturated:
        parts.append("box saturated")
    return parts
