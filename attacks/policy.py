"""Access policy files for the attack servers, and the callers they name.

A caller with a token is reached by `authorization: Bearer <token>` (`Caller.metadata`); one without is
reached by a client certificate whose identity is its name. CIPHERD_ATTACKS_NO_IMPORT_OP=1 writes `admin`
where a rule says `import`: jars from before the `import` operation refuse to start on a policy naming
it, and with the switch the other attacks still run against them."""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Rule:
    keys: Sequence[str]
    operations: Sequence[str]


@dataclass(frozen=True)
class Caller:
    name: str
    rules: Sequence[Rule]
    with_token: bool = True
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The call metadata that identifies this caller (none for a certificate caller)."""
        return (("authorization", f"Bearer {self.token}"),) if self.with_token else ()


ANONYMOUS_METADATA: tuple[tuple[str, str], ...] = ()


def _operations(operations: Sequence[str]) -> list[str]:
    if os.environ.get("CIPHERD_ATTACKS_NO_IMPORT_OP") != "1":
        return list(operations)
    return list(dict.fromkeys("admin" if op == "import" else op for op in operations))


def write_policy(path: Path, callers: Sequence[Caller]) -> Path:
    """Writes `callers` as a policy file (YAML, by hand: the venv has no YAML library)."""
    lines = ["callers:"]
    for caller in callers:
        lines.append(f"  {caller.name}:")
        if caller.with_token:
            lines.append(f"    token_sha256: {hashlib.sha256(caller.token.encode()).hexdigest()}")
        lines.append("    rules:")
        for rule in caller.rules:
            lines.append(f"      - keys: [{', '.join(repr(k) for k in rule.keys)}]")
            lines.append(f"        operations: [{', '.join(_operations(rule.operations))}]")
    path.write_text("\n".join(lines) + "\n")
    return path
