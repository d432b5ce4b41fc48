"""Per-version usage, the version census and the rotation policy fields against the real server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import cipherd
from cipherd import KeyPolicy
from server import RunningServer


def test_get_key_counts_each_versions_encryptions_decryptions_and_rewraps(
    client: cipherd.Client, key_name: str
) -> None:
    before = datetime.now(UTC) - timedelta(seconds=5)
    client.create_key(key_name)
    texts = [client.encrypt(key_name, b"x") for _ in range(3)]
    client.decrypt(texts[0])
    client.rotate_key(key_name)
    client.re_encrypt(texts[1])
    key = client.get_key(key_name)
    first, second = key.version(1).usage, key.version(2).usage
    assert (first.encryptions, first.decryptions, first.rewraps) == (3, 2, 1)
    assert (second.encryptions, second.decryptions, second.rewraps) == (1, 0, 0)
    assert first.last_used_time is not None and first.last_used_time >= before
    assert client.create_key(key_name + "-unused").versions[0].usage.last_used_time is None


def test_census_says_which_versions_still_see_traffic(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    client.rotate_key(key_name)
    client.rotate_key(key_name)
    client.encrypt(key_name, b"on v3")
    census = client.get_key_census(key_name, quiet_period=timedelta(hours=1))
    assert [(v.version, v.in_use) for v in census.versions] == [(1, False), (2, False), (3, True)]
    assert census.safe_min_decryption_version == 3 and census.key.current_version == 3

    client.encrypt(key_name, b"on v2", key_version=2)
    census = client.get_key_census(key_name)
    assert [v.in_use for v in census.versions] == [False, True, True]
    assert census.safe_min_decryption_version == 2
    assert census.versions[1].usage.encryptions == 1

    client.update_key_policy(key_name, KeyPolicy(min_decryption_version=2))
    assert [v.version for v in client.get_key_census(key_name).versions] == [2, 3]


def test_rotation_policy_fields_round_trip(client: cipherd.Client, key_name: str) -> None:
    policy = KeyPolicy(auto_rotate_period=timedelta(days=90), max_encryptions_per_version=1_000_000)
    created = client.create_key(key_name, policy=policy)
    assert created.policy == policy
    updated = client.update_key_policy(key_name, KeyPolicy(auto_rotate_period=timedelta(seconds=60)))
    assert updated.policy.auto_rotate_period == timedelta(seconds=60)
    assert updated.policy.max_encryptions_per_version == 0
    assert client.get_key(key_name).policy == updated.policy


def test_an_auto_rotate_period_under_a_minute_is_refused(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    with pytest.raises(cipherd.InvalidArgumentError):
        client.update_key_policy(key_name, KeyPolicy(auto_rotate_period=timedelta(seconds=59)))


async def test_async_usage_and_census(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        await c.create_key(key_name, policy=KeyPolicy(max_encryptions_per_version=50))
        await c.decrypt(await c.encrypt(key_name, b"x"))
        key = await c.get_key(key_name)
        assert key.policy.max_encryptions_per_version == 50
        assert (key.versions[0].usage.encryptions, key.versions[0].usage.decryptions) == (1, 1)
        census = await c.get_key_census(key_name, quiet_period=timedelta(minutes=5))
        assert census.versions[0].in_use and census.safe_min_decryption_version == 1
