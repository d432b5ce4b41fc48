"""What the shape comparison lets vary between runs, and what it does not."""

from __future__ import annotations

import pytest
from expected import matches

SHOWN_ENCRYPT = '{\n  "ciphertext": "\\u003cdemo/v1:gcm\\u003eF14cvd8YXnmiH6LpxedhoHP2",\n  "key_version": 1\n}\n'


@pytest.mark.parametrize(
    "actual",
    [
        '{\n  "ciphertext": "\\u003cdemo/v1:gcm\\u003eC/+xQLYLdkf6+bHPooWTNw1O4O8i+fft9pTcwXAdEX+Y",\n  "key_version": 1\n}\n',
        '{\n    "ciphertext":   "\\u003cdemo/v1:gcm\\u003eAAAA",\n  "key_version": 1\n}\n\n',
    ],
)
def test_a_ciphertext_payload_and_blanks_may_differ(actual: str) -> None:
    assert matches(SHOWN_ENCRYPT, actual)


@pytest.mark.parametrize(
    "actual",
    [
        '{\n  "ciphertext": "\\u003cdemo/v2:gcm\\u003eF14cvd8YXnmiH6LpxedhoHP2",\n  "key_version": 2\n}\n',
        '{\n  "ciphertext": "\\u003cother/v1:gcm\\u003eF14cvd8YXnmiH6LpxedhoHP2",\n  "key_version": 1\n}\n',
        '{\n  "ciphertext": "\\u003cdemo/v1:gcm\\u003eF14cvd8YXnmiH6LpxedhoHP2",\n  "keyVersion": 1\n}\n',
        '{\n  "ciphertext": "\\u003cdemo/v1:gcm\\u003eF14cvd8YXnmiH6LpxedhoHP2"\n}\n',
        "",
    ],
)
def test_the_header_the_fields_and_every_line_must_be_as_shown(actual: str) -> None:
    assert not matches(SHOWN_ENCRYPT, actual)


def test_timestamps_and_durations_may_differ() -> None:
    shown = "v1 0 2 2 2026-11-23T12:25:11Z yes\nrewrapped 999 of 1000 rows in 0.6 s; failed: 13\n"
    assert matches(
        shown, "v1  0  2  2  2027-01-02T03:04:05.123Z  yes\nrewrapped 999 of 1000 rows in 12.25 s; failed: 13"
    )
    assert not matches(shown, "v1 0 2 2 2026-11-23T12:25:11Z no\nrewrapped 999 of 1000 rows in 0.6 s; failed: 13")
    assert not matches(shown, "v1 0 2 2 2026-11-23T12:25:11Z yes\nrewrapped 998 of 1000 rows in 0.6 s; failed: 13")


def test_an_ellipsis_is_any_text_in_a_line_and_a_line_of_it_any_lines() -> None:
    shown = 'cipherd_cipher_pool_max{mode="…"} 64.0\n…\n'
    assert matches(shown, 'cipherd_cipher_pool_max{mode="gcm"} 64.0\ncipherd_cipher_pool_max{mode="siv"} 64.0\n')
    assert matches(shown, 'cipherd_cipher_pool_max{mode="gcm"} 64.0\n')
    assert not matches(shown, 'cipherd_cipher_pool_max{mode="gcm"} 32.0\n')
    assert not matches(shown, "")
