"""Every case of proto/testdata/audit/audit.json through cipherd.audit.verify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cipherd.audit import checkpoints_under, verify

VECTORS = Path(__file__).resolve().parents[3] / "proto" / "testdata" / "audit"
SPEC: dict[str, Any] = json.loads((VECTORS / "audit.json").read_text(encoding="utf-8"))
KEY = bytes.fromhex(SPEC["audit_key_hex"])


@pytest.mark.parametrize("case", SPEC["cases"], ids=[c["name"] for c in SPEC["cases"]])
def test_vector(case: dict[str, Any]) -> None:
    result = verify([VECTORS / name for name in case["files"]], checkpoints_under(KEY))

    assert result.intact == case["intact"], result.problem
    if "first_bad_line" in case:
        assert result.problem is not None and result.problem.startswith(case["first_bad_line"] + ":")
    for field in ("calls", "checkpoints", "torn"):
        if field in case:
            assert getattr(result, field) == case[field]


def test_without_the_key_the_chain_is_checked_but_not_the_macs() -> None:
    forged = verify([VECTORS / "forged.log"])
    edited = verify([VECTORS / "edited.log"])

    assert forged.intact and not forged.macs_checked
    assert not edited.intact


def test_a_checkpoint_under_another_key_fails() -> None:
    result = verify([VECTORS / "intact.log"], checkpoints_under(bytes(32)))

    assert result.problem is not None and "fails its MAC" in result.problem
