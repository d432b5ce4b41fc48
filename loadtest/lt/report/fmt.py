"""Number formatting shared by the reports."""


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
