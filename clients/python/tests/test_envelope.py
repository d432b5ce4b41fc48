"""Every case of proto/testdata/envelopes.json through cipherd.parse_ciphertext."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cipherd import InvalidArgumentError, InvalidCiphertextError, Mode, parse_ciphertext

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[3] / "proto" / "testdata" / "envelopes.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["name"])
def test_valid_case_parses_to_its_fields_and_formats_back(case: dict[str, Any]) -> None:
    envelope = parse_ciphertext(case["ciphertext"])
    assert envelope.key_name == case["key_name"]
    assert envelope.key_version == case["key_version"]
    assert envelope.mode is Mode(case["mode"])
    assert envelope.payload.hex() == case["payload_hex"]
    assert envelope.subject_bound == case.get("subject_bound", False)
    assert envelope.format() == case["ciphertext"]


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_invalid_case_is_rejected_for_its_reason(case: dict[str, Any]) -> None:
    with pytest.raises(InvalidCiphertextError) as raised:
        parse_ciphertext(case["ciphertext"])
    assert raised.value.defect == case["reason"]
    assert raised.value.defect in VECTORS["reasons"]
    payload = case["ciphertext"].partition(">")[2]
    if len(payload) >= 8:
        assert payload not in str(raised.value), "the error message must not quote the ciphertext"


def test_every_reason_has_a_case() -> None:
    assert {c["reason"] for c in VECTORS["invalid"]} == set(VECTORS["reasons"])


def test_format_error_is_an_invalid_argument() -> None:
    with pytest.raises(InvalidArgumentError):
        parse_ciphertext("<demo/v0:gcm>AAAA")


def test_new_modes_have_their_payload_minimums() -> None:
    assert parse_ciphertext("<e/v1:xgcm>" + "A" * 56).mode is Mode.XGCM  # 42 bytes
    assert parse_ciphertext("<e/v1:siv>" + "A" * 24).mode is Mode.SIV  # 18 bytes


def test_hmac_is_a_key_mode_but_never_a_header_mode() -> None:
    assert Mode("hmac") is Mode.HMAC and not Mode.HMAC.in_headers
    assert Mode("ff1") is Mode.FF1 and not Mode.FF1.in_headers
    assert all(m.in_headers for m in Mode if m not in (Mode.HMAC, Mode.FF1))
    with pytest.raises(InvalidCiphertextError) as raised:
        parse_ciphertext("<idx/v1:hmac>" + "A" * 44)
    assert raised.value.defect == "mode_unknown"
