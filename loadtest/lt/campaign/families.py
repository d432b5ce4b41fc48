"""Loads campaign families from loadtest/campaigns/*.json and expands them into concrete runs.

A family file holds ghz config fragments with placeholders:
  ${var}                   a matrix variable (a string that is only "${var}" keeps the value's type)
  ${payload:N}             base64 of N fixed pseudo-random bytes
  ${ciphertext:KEY:N}      a ciphertext of an N-byte payload under KEY, made before the runs
  {"$repeat": N, "item": X} a list of N copies of X (batch items)
"matrix" maps variables to value lists (crossed); its "cases" entry is a list of variable dicts.
"""

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .fixtures import PLACEHOLDER

CAMPAIGN_DIR = Path(__file__).resolve().parents[2] / "campaigns"
_VAR = re.compile(r"\$\{([a-z_]+)\}")
_ONLY_VAR = re.compile(r"^\$\{([a-z_]+)\}$")


@dataclass
class Run:
    family: str
    name: str
    tags: dict
    ghz: dict  # ghz config fragment, placeholders for fixtures still in place
    fixtures: set = field(default_factory=set)  # (key, size) ciphertexts this run needs

    @property
    def items_per_call(self) -> int:
        """Batch items of one call, or messages of one stream (ghz sends a list of data on one stream)."""
        data = self.ghz.get("data", {})
        if isinstance(data, list):
            return len(data)
        items = data.get("items")
        return len(items) if isinstance(items, list) else 1


@dataclass
class Family:
    name: str
    description: str
    keys: list
    runs: list


def available() -> list[str]:
    return sorted(p.stem for p in CAMPAIGN_DIR.glob("*.json"))


def load(name: str) -> Family:
    path = CAMPAIGN_DIR / f"{name}.json"
    if not path.exists():
        raise SystemExit(f"loadtest: no campaign '{name}' (have: {', '.join(available())})")
    try:
        spec = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise SystemExit(f"loadtest: {path}: {e}") from None
    runs = []
    for variables in _matrix(spec.get("matrix", {})):
        for template in spec["runs"]:
            runs.append(_expand_run(spec["family"], template, variables))
    return Family(spec["family"], spec.get("description", ""), spec.get("keys", []), runs)


def _matrix(matrix: dict):
    cases = matrix.get("cases", [{}])
    axes = {k: v for k, v in matrix.items() if k != "cases"}
    for combo in itertools.product(*axes.values()):
        for case in cases:
            yield {**dict(zip(axes.keys(), combo, strict=True)), **case}


def _subst(value, variables):
    if isinstance(value, str):
        m = _ONLY_VAR.match(value)
        if m:
            return variables[m.group(1)]
        return _VAR.sub(lambda m: str(variables[m.group(1)]), value)
    if isinstance(value, list):
        return [_subst(v, variables) for v in value]
    if isinstance(value, dict):
        if "$repeat" in value:
            n = int(_subst(value["$repeat"], variables))
            item = _subst(value["item"], variables)
            return [dict(item, reference=str(i)) if isinstance(item, dict) else item for i in range(n)]
        return {k: _subst(v, variables) for k, v in value.items()}
    return value


def _expand_run(family, template, variables) -> Run:
    ghz = _subst(template["ghz"], variables)
    tags = {k: str(v) for k, v in _subst(template.get("tags", {}), variables).items()}
    needed = {
        (k, int(n))
        for kind, arg in PLACEHOLDER.findall(json.dumps(ghz))
        if kind == "ciphertext"
        for k, n in [arg.rsplit(":", 1)]
    }
    return Run(family, _subst(template["name"], variables), tags, ghz, needed)


def select(names: str, only: str = "") -> list[Family]:
    """The families named (comma-separated, or "all"), keeping only runs whose name matches `only`."""
    chosen = available() if names == "all" else [n.strip() for n in names.split(",") if n.strip()]
    families = [load(n) for n in chosen]
    if only:
        rx = re.compile(only)
        for f in families:
            f.runs = [r for r in f.runs if rx.search(r.name)]
    families = [f for f in families if f.runs]
    if not families:
        raise SystemExit("loadtest: no runs selected")
    return families
