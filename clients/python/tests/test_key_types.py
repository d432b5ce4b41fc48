"""The client's key and legacy types against the generated messages, without a server: each field goes to
and comes from the proto field the spec names, and secrets stay out of reprs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import cipherd
from cipherd import (
    CiphertextItem,
    KeyPolicy,
    LegacyCipher,
    LegacyCiphertext,
    LegacyIv,
    Mode,
    _admin_convert,
    _convert,
)
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1 import keys_pb2


def test_a_legacy_ciphertext_takes_exactly_one_form_of_data() -> None:
    with pytest.raises(ValueError, match="none"):
        LegacyCiphertext("old")
    with pytest.raises(ValueError, match="raw, hex"):
        LegacyCiphertext("old", raw=b"\x01", hex="01")
    with pytest.raises(ValueError, match="key_version"):
        LegacyCiphertext("old", raw=b"", key_version=-1)


@pytest.mark.parametrize(
    ("legacy", "field", "value"),
    [
        (LegacyCiphertext("old", raw=b"\xff\x06"), "raw", b"\xff\x06"),
        (LegacyCiphertext("old", hex="FF06A56B"), "hex", "FF06A56B"),
        (LegacyCiphertext("old", base64="/walrw=="), "base64", "/walrw=="),
    ],
)
def test_legacy_data_goes_to_its_oneof_field(legacy: LegacyCiphertext, field: str, value: object) -> None:
    message = _convert.legacy_to_proto(legacy)
    assert message.WhichOneof("data") == field and getattr(message, field) == value
    assert message.key_name == "old" and message.key_version == 0


def test_legacy_items_go_as_legacy_in_every_rewrap_with_the_target_key() -> None:
    legacy = LegacyCiphertext("mysql-old", hex="FF06A56B4E88C828A010E9BD0CE70A89", iv=b"i" * 16, key_version=2)
    unary = _convert.re_encrypt_request(legacy, b"ctx", "target")
    assert unary.HasField("legacy") and not unary.ciphertext and unary.key_name == "target"
    assert (unary.legacy.key_name, unary.legacy.key_version, unary.legacy.iv) == ("mysql-old", 2, b"i" * 16)

    batch = _convert.re_encrypt_batch_request([CiphertextItem(legacy, reference="7"), "<a/v1:gcm>AAAA"], "target")
    assert batch.key_name == "target"
    assert batch.items[0].HasField("legacy") and batch.items[0].reference == "7"
    assert not batch.items[1].HasField("legacy") and batch.items[1].ciphertext == "<a/v1:gcm>AAAA"

    streamed = _convert.re_encrypt_stream_request(CiphertextItem(legacy, context=b"c", reference="8"), "target")
    assert streamed.HasField("legacy") and streamed.key_name == "target" and streamed.context == b"c"
    own_target = _convert.re_encrypt_stream_request(CiphertextItem(legacy, key_name="other"), "target")
    assert own_target.key_name == "other"
    assert _convert.re_encrypt_stream_request(legacy, "target").legacy.hex == legacy.hex


def test_import_key_request_names_the_legacy_cipher_and_iv_convention() -> None:
    request = _admin_convert.import_key_request(
        "old", b"", None, False, LegacyCipher.MYSQL_AES_ECB, None, b"", "1234567890"
    )
    assert request.legacy_cipher == keys_pb2.LEGACY_CIPHER_MYSQL_AES_ECB
    assert request.legacy_iv == keys_pb2.LEGACY_IV_UNSPECIFIED and request.mode == keys_pb2.MODE_UNSPECIFIED
    assert request.passphrase == b"1234567890" and not request.key_material
    fixed = _admin_convert.import_key_request("old", b"k" * 16, None, False, "aes_cbc", LegacyIv.FIXED, b"v" * 16, b"")
    assert (fixed.legacy_cipher, fixed.legacy_iv) == (keys_pb2.LEGACY_CIPHER_AES_CBC, keys_pb2.LEGACY_IV_FIXED)
    assert fixed.legacy_fixed_iv == b"v" * 16
    with pytest.raises(ValueError):
        _admin_convert.import_key_request("old", b"", None, False, "aes_xts", None, b"", b"")


def test_every_legacy_cipher_and_iv_has_its_proto_enum_and_back() -> None:
    for cipher in LegacyCipher:
        number = _admin_convert.legacy_cipher_to_proto(cipher)
        assert number != keys_pb2.LEGACY_CIPHER_UNSPECIFIED
        assert _admin_convert.legacy_cipher_from_proto(number) is cipher
    assert len(LegacyCipher) == len(keys_pb2.LegacyCipher.values()) - 1
    assert len(LegacyIv) == len(keys_pb2.LegacyIv.values()) - 1


def test_policy_periods_are_timedeltas_on_both_sides() -> None:
    policy = KeyPolicy(
        min_decryption_version=2, auto_rotate_period=timedelta(days=30), max_encryptions_per_version=1 << 20
    )
    message = _admin_convert.policy_to_proto(policy)
    assert message is not None
    assert message.auto_rotate_period.seconds == 30 * 86400 and message.max_encryptions_per_version == 1 << 20
    back = _admin_convert.key_from_proto(keys_pb2.Key(key_name="k", current_version=1, policy=message)).policy
    assert back == policy
    unset = _admin_convert.policy_to_proto(KeyPolicy())
    assert unset is not None and not unset.HasField("auto_rotate_period")
    assert _admin_convert.key_from_proto(keys_pb2.Key(policy=unset)).policy.auto_rotate_period is None


def test_key_versions_read_mode_legacy_cipher_and_usage() -> None:
    used = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    message = keys_pb2.Key(
        key_name="k",
        current_version=2,
        versions=[
            keys_pb2.KeyVersion(
                version=1,
                legacy_cipher=keys_pb2.LEGACY_CIPHER_AES_CBC,
                legacy_iv=keys_pb2.LEGACY_IV_SEPARATE,
                key_size_bits=256,
                imported=True,
            ),
            keys_pb2.KeyVersion(
                version=2,
                mode=keys_pb2.MODE_XGCM,
                key_size_bits=256,
                usage=keys_pb2.KeyVersionUsage(encryptions=5, decryptions=3, rewraps=1),
            ),
        ],
    )
    message.versions[0].create_time.FromDatetime(used)
    message.versions[1].usage.last_used_time.FromDatetime(used)
    key = _admin_convert.key_from_proto(message)
    old, new = key.versions
    assert (old.mode, old.legacy_cipher, old.legacy_iv, old.imported) == (
        None,
        LegacyCipher.AES_CBC,
        LegacyIv.SEPARATE,
        True,
    )
    assert old.create_time == used and old.usage == cipherd.KeyVersionUsage()
    assert (new.mode, new.legacy_cipher, new.create_time) == (Mode.XGCM, None, None)
    assert (new.usage.encryptions, new.usage.decryptions, new.usage.rewraps) == (5, 3, 1)
    assert new.usage.last_used_time == used
    assert key.version(2) is new
    with pytest.raises(KeyError):
        key.version(3)


def test_census_reads_every_version_and_the_safe_minimum() -> None:
    response = admin.GetKeyCensusResponse(
        key=keys_pb2.Key(key_name="k", current_version=3),
        safe_min_decryption_version=2,
        versions=[
            admin.VersionCensus(version=2, in_use=True, usage=keys_pb2.KeyVersionUsage(decryptions=4)),
            admin.VersionCensus(version=3, in_use=False, subject_keys=7),
        ],
    )
    census = _admin_convert.census_from_proto(response)
    assert census.safe_min_decryption_version == 2 and census.key.key_name == "k"
    assert [(v.version, v.in_use, v.usage.decryptions, v.subject_keys) for v in census.versions] == [
        (2, True, 4, 0),
        (3, False, 0, 7),
    ]
    request = _admin_convert.census_request("k", timedelta(hours=36))
    assert request.quiet_period.seconds == 36 * 3600
    assert not _admin_convert.census_request("k", None).HasField("quiet_period")


def test_legacy_reprs_and_errors_leave_out_data_ivs_and_passphrases() -> None:
    legacy = LegacyCiphertext("old", hex="FF06A56B4E88C828A010E9BD0CE70A89", iv=b"secret-iv-bytes!")
    assert "FF06" not in repr(legacy) and "secret" not in repr(legacy)
    with pytest.raises(ValueError) as raised:
        LegacyCiphertext("old", raw=b"secret", base64="c2VjcmV0")
    assert "secret" not in str(raised.value) and "c2Vj" not in str(raised.value)
