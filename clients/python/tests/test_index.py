"""Blind indexes (ComputeIndex, ComputeIndexBatch) through the sync client against the real server."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

import cipherd
from cipherd import CiphertextItem, IndexItem, KeyPolicy, Mode, Normalization

EMAIL = Normalization(trim=True, nfkc=True, casefold=True)


@pytest.fixture
def index_key(client: cipherd.Client, key_name: str) -> str:
    client.create_key(key_name, mode=Mode.HMAC)
    return key_name


def test_an_index_key_is_an_hmac_key_of_256_bits(client: cipherd.Client, index_key: str) -> None:
    version = client.get_key(index_key).versions[0]
    assert (version.key_size_bits, version.mode) == (256, Mode.HMAC)


@pytest.mark.parametrize(
    ("stored", "queried", "normalization"),
    [
        pytest.param("alice@example.com", "  ALICE@Example.COM\u00a0", EMAIL, id="trim-and-casefold"),
        pytest.param("strasse", "Straße", Normalization(casefold=True), id="casefold-sharp-s"),
        pytest.param("file 1", "\ufb01le \u2460", Normalization(nfkc=True), id="nfkc-ligature-and-circled-digit"),
        pytest.param("bob", "\u3000bob\t", Normalization(trim=True), id="trim-ideographic-space"),
    ],
)
def test_normalized_values_get_equal_indexes(
    client: cipherd.Client, index_key: str, stored: str, queried: str, normalization: Normalization
) -> None:
    first = client.compute_index(index_key, stored, normalization=normalization)
    second = client.compute_index(index_key, queried, normalization=normalization)
    assert first.index == second.index and len(first.index) == 32
    assert client.compute_index(index_key, queried).index != first.index, "without normalization they differ"


def test_str_and_its_utf8_bytes_index_alike(client: cipherd.Client, index_key: str) -> None:
    assert client.compute_index(index_key, "Zürich").index == client.compute_index(index_key, "Zürich".encode()).index


@pytest.mark.parametrize("length", [8, 12, 31])
def test_a_shorter_index_is_a_prefix_of_the_whole_one(client: cipherd.Client, index_key: str, length: int) -> None:
    whole = client.compute_index(index_key, b"value").index
    short = client.compute_index(index_key, b"value", length_bytes=length).index
    assert len(short) == length and whole.startswith(short)


@pytest.mark.parametrize("length", [-1, 7, 33])
def test_a_length_outside_8_to_32_is_invalid(client: cipherd.Client, index_key: str, length: int) -> None:
    with pytest.raises(cipherd.InvalidArgumentError):
        client.compute_index(index_key, b"value", length_bytes=length)


def test_all_versions_after_rotation(client: cipherd.Client, index_key: str) -> None:
    before = client.compute_index(index_key, "a@b.c", normalization=EMAIL)
    assert (before.key_version, before.versions) == (1, {})
    client.rotate_key(index_key, mode=Mode.HMAC)

    after = client.compute_index(index_key, "A@B.C", normalization=EMAIL, all_versions=True, length_bytes=16)
    assert after.key_version == 2 and list(after.versions) == [2, 1], "newest first"
    assert after.versions[2] == after.index != after.versions[1]
    assert after.versions[1] == before.index[:16]
    assert client.compute_index(index_key, "a@b.c", normalization=EMAIL, key_version=1).index == before.index

    client.update_key_policy(index_key, KeyPolicy(min_decryption_version=2))
    assert list(client.compute_index(index_key, "a@b.c", all_versions=True).versions) == [2]


def test_values_that_are_not_utf8_need_no_options(client: cipherd.Client, index_key: str) -> None:
    assert len(client.compute_index(index_key, b"\xff\xfe").index) == 32
    with pytest.raises(cipherd.InvalidArgumentError):
        client.compute_index(index_key, b"\xff\xfe", normalization=Normalization(trim=True))


def test_a_key_that_encrypts_makes_no_index(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    with pytest.raises(cipherd.FailedPreconditionError, match="index key"):
        client.compute_index(key_name, b"value")


def test_an_index_key_neither_encrypts_nor_rotates_into_a_cipher(client: cipherd.Client, index_key: str) -> None:
    with pytest.raises(cipherd.FailedPreconditionError, match="index key"):
        client.encrypt(index_key, b"value")
    with pytest.raises(cipherd.InvalidArgumentError):
        client.rotate_key(index_key, mode=Mode.GCM)


def test_batch_answers_every_item_in_order(client: cipherd.Client, index_key: str) -> None:
    results = client.compute_index_batch(
        index_key,
        [
            IndexItem("Alice@Example.com ", reference="a"),
            IndexItem(b"\xc3\x28", reference="not-utf8"),
            "bob@example.com",
        ],
        normalization=EMAIL,
        length_bytes=8,
    )
    assert [r.reference for r in results] == ["a", "not-utf8", ""]
    assert results[0].unwrap() == client.compute_index(index_key, "alice@example.com", length_bytes=8).index
    assert results[0].key_version == 1 and len(results[2].unwrap()) == 8
    assert isinstance(results[1].error, cipherd.InvalidArgumentError) and results[1].key_version == 0


def test_index_of_a_missing_key_is_not_found(client: cipherd.Client, key_name: str) -> None:
    with pytest.raises(cipherd.NotFoundError):
        client.compute_index(key_name, b"x")


def test_re_index_after_rotation_matches_compute_index_and_the_old_version_retires(
    client: cipherd.Client, index_key: str
) -> None:
    data_key = index_key + "-data"
    client.create_key(data_key)
    column = b"accounts.email"
    emails = ["Alice@Example.com", "bob@example.com"]
    rows = [client.encrypt(data_key, e.encode(), context=column) for e in emails]
    for e in emails:
        assert client.compute_index(index_key, e, normalization=EMAIL, length_bytes=16).key_version == 1
    client.rotate_key(index_key, mode=Mode.HMAC)
    quiet = timedelta(seconds=1)
    time.sleep(1.1)  # the rows' v1 indexes are now older than the quiet period

    results = client.re_index_batch(
        index_key,
        [CiphertextItem(r, context=column, reference=str(i)) for i, r in enumerate(rows)],
        normalization=EMAIL,
        length_bytes=16,
        expected_key=data_key,
    )
    for i, result in enumerate(results):
        reindexed = result.unwrap()
        assert result.reference == str(i)
        assert (reindexed.key_version, reindexed.source_key_version) == (2, 1)
        assert reindexed.index == client.compute_index(index_key, emails[i], normalization=EMAIL, length_bytes=16).index
    one = client.re_index(index_key, rows[0], context=column, normalization=EMAIL, length_bytes=16)
    assert one.index == results[0].unwrap().index
    with pytest.raises(cipherd.DecryptionFailedError):
        client.re_index(index_key, rows[0], context=b"other", normalization=EMAIL, length_bytes=16)
    with pytest.raises(cipherd.InvalidArgumentError) as unexpected:
        client.re_index(index_key, rows[0], context=column, expected_key="payments-*")
    assert unexpected.value.reason == "UNEXPECTED_KEY"

    lookup = client.compute_index(
        index_key, " ALICE@example.com", normalization=EMAIL, length_bytes=16, all_versions=True
    )
    assert list(lookup.versions) == [2, 1]
    v1 = client.get_key_census(index_key, quiet_period=quiet).versions[0]
    assert (v1.version, v1.in_use, v1.usage.indexes, v1.usage.index_lookups) == (1, False, 2, 1)
    assert v1.usage.last_lookup_time is not None and v1.usage.last_used_time is not None
    assert v1.usage.last_lookup_time > v1.usage.last_used_time
    assert client.retire_key_versions(index_key, 2, quiet_period=quiet).retired_versions == (1,)
