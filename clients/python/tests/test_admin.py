"""KeyAdminService through the sync client against the real server."""

from __future__ import annotations

import os

import pytest

import cipherd
from cipherd import KeyPolicy, Mode


def test_create_get_and_rotate(client: cipherd.Client, key_name: str) -> None:
    created = client.create_key(key_name, mode=Mode.CBC, key_size_bits=128, allow_unauthenticated=True)
    assert created.current_version == 1 and created.versions[0].key_size_bits == 128
    rotated = client.rotate_key(key_name, mode="gcm", key_size_bits=256)
    assert rotated.current_version == 2
    got = client.get_key(key_name)
    assert [v.version for v in got.versions] == [1, 2]
    assert cipherd.parse_ciphertext(client.encrypt(key_name, b"x")).mode is Mode.GCM


def test_create_twice_is_already_exists(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    with pytest.raises(cipherd.AlreadyExistsError):
        client.create_key(key_name)


def test_bad_key_name_is_invalid_argument(client: cipherd.Client) -> None:
    with pytest.raises(cipherd.InvalidArgumentError):
        client.create_key("Not A Name")


def test_unauthenticated_mode_needs_consent(client: cipherd.Client, key_name: str) -> None:
    with pytest.raises(cipherd.InvalidArgumentError):
        client.create_key(key_name, mode=Mode.ECB)


def test_get_missing_key_is_not_found(client: cipherd.Client, key_name: str) -> None:
    with pytest.raises(cipherd.NotFoundError):
        client.get_key(key_name)


def test_policy_above_current_version_is_failed_precondition(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    with pytest.raises(cipherd.FailedPreconditionError):
        client.update_key_policy(key_name, KeyPolicy(min_decryption_version=2))


def test_min_decryption_version_refuses_old_ciphertexts(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    old = client.encrypt(key_name, b"x")
    client.rotate_key(key_name)
    updated = client.update_key_policy(key_name, KeyPolicy(min_decryption_version=2))
    assert updated.policy.min_decryption_version == 2
    with pytest.raises(cipherd.FailedPreconditionError):
        client.decrypt(old)


def test_import_key_decrypts_what_it_encrypts(client: cipherd.Client, key_name: str) -> None:
    key = client.import_key(key_name, os.urandom(32), mode=Mode.CHACHA)
    assert key.versions[-1].imported and key.versions[-1].mode is Mode.CHACHA
    assert client.decrypt(client.encrypt(key_name, b"imported")) == b"imported"


def test_list_keys_pages_through_every_key(client: cipherd.Client, key_name: str) -> None:
    names = [f"{key_name}-{i}" for i in range(3)]
    for name in names:
        client.create_key(name)
    listed = [k.key_name for k in client.list_keys(page_size=1)]
    assert listed == sorted(listed)
    assert set(names) <= set(listed) and "demo" in listed
