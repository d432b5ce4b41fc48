"""Key lifecycle: disable, destruction, deletion and retirement against the real server, and the states read
from a key."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import grpc
import pytest
from google.protobuf import timestamp_pb2

import cipherd
from cipherd import KeyState, KeyVersionState
from cipherd._admin_convert import key_from_proto
from cipherd.v1 import keys_pb2
from server import RunningServer

T = TypeVar("T")


def first_call(call: Callable[[], T], rpc: str) -> T:
    """The answer of a test's first lifecycle call; skips when the jar predates the RPC."""
    try:
        return call()
    except cipherd.CipherdError as e:
        if e.code is grpc.StatusCode.UNIMPLEMENTED:
            pytest.skip(f"the server does not implement {rpc} yet")
        raise


def near(moment: datetime | None, expected: timedelta) -> bool:
    return moment is not None and abs(moment - datetime.now(UTC) - expected) < timedelta(minutes=2)


def test_states_are_read_from_the_key() -> None:
    when = timestamp_pb2.Timestamp(seconds=1_800_000_000)
    key = key_from_proto(
        keys_pb2.Key(
            key_name="k",
            current_version=2,
            state=keys_pb2.KEY_STATE_DELETION_SCHEDULED,
            delete_time=when,
            versions=[
                keys_pb2.KeyVersion(version=1, state=keys_pb2.KEY_VERSION_STATE_DESTROYED, destroy_time=when),
                keys_pb2.KeyVersion(version=2),
            ],
        )
    )
    assert key.state is KeyState.DELETION_SCHEDULED and key.delete_time == datetime.fromtimestamp(1_800_000_000, UTC)
    assert key.version(1).state is KeyVersionState.DESTROYED and key.version(1).destroy_time == key.delete_time
    # A server that sends no state serves the key and the version.
    assert key.version(2).state is KeyVersionState.ENABLED and key.version(2).destroy_time is None
    assert key_from_proto(keys_pb2.Key(key_name="k")).state is KeyState.ENABLED


def test_disable_destroy_cancel_and_delete(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    disabled = first_call(lambda: client.disable_key(key_name), "KeyAdminService.DisableKey")
    assert disabled.state is KeyState.DISABLED
    with pytest.raises(cipherd.KeyDisabledError):
        client.encrypt(key_name, b"secret")
    assert client.enable_key(key_name).state is KeyState.ENABLED
    ciphertext = client.encrypt(key_name, b"secret")
    client.rotate_key(key_name)

    key = client.schedule_key_version_destruction(key_name, [1], pending_window=timedelta(hours=30))
    assert key.version(1).state is KeyVersionState.DESTRUCTION_SCHEDULED
    assert near(key.version(1).destroy_time, timedelta(hours=30))
    assert key.version(2).state is KeyVersionState.ENABLED
    with pytest.raises(cipherd.KeyVersionDestructionScheduledError) as refused:
        client.decrypt(ciphertext)
    assert not isinstance(refused.value, cipherd.DecryptionFailedError)
    assert refused.value.metadata.get("key") == key_name
    with pytest.raises(cipherd.FailedPreconditionError):
        client.schedule_key_version_destruction(key_name, [2])  # the current version
    with pytest.raises(cipherd.CipherdError):
        client.schedule_key_version_destruction(key_name, [1], pending_window=timedelta(hours=1))
    restored = client.cancel_key_version_destruction(key_name, [1])
    assert restored.version(1).state is KeyVersionState.ENABLED and restored.version(1).destroy_time is None
    assert client.decrypt(ciphertext) == b"secret"

    deleting = client.schedule_key_deletion(key_name)
    assert deleting.state is KeyState.DELETION_SCHEDULED and near(deleting.delete_time, timedelta(days=7))
    assert client.get_key(key_name).state is KeyState.DELETION_SCHEDULED
    with pytest.raises(cipherd.KeyDisabledError):
        client.decrypt(ciphertext)
    with pytest.raises(cipherd.FailedPreconditionError):
        client.enable_key(key_name)
    assert client.cancel_key_deletion(key_name).state is KeyState.DISABLED
    client.enable_key(key_name)
    assert client.decrypt(ciphertext) == b"secret"


def test_retire_refuses_versions_in_use_then_retires(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    ciphertext = client.encrypt(key_name, b"secret")
    client.rotate_key(key_name)
    client.rotate_key(key_name)
    client.decrypt(ciphertext)
    with pytest.raises(cipherd.KeyVersionsInUseError) as refused:
        first_call(lambda: client.retire_key_versions(key_name, 3, dry_run=True), "KeyAdminService.RetireKeyVersions")
    assert refused.value.versions == (1,)

    time.sleep(1.5)
    quiet = timedelta(seconds=1)
    plan = client.retire_key_versions(key_name, 3, quiet_period=quiet, dry_run=True)
    assert plan.retired_versions == (1, 2) and near(plan.destroy_time, timedelta(days=7))
    assert plan.key.policy.min_decryption_version <= 1
    done = client.retire_key_versions(key_name, 3, quiet_period=quiet, pending_window=timedelta(days=1))
    assert done.key.policy.min_decryption_version == 3 and near(done.destroy_time, timedelta(days=1))
    assert [v.state for v in done.key.versions] == [KeyVersionState.DESTRUCTION_SCHEDULED] * 2 + [
        KeyVersionState.ENABLED
    ]
    with pytest.raises(cipherd.FailedPreconditionError) as gone:
        client.decrypt(ciphertext)
    assert not isinstance(gone.value, cipherd.DecryptionFailedError)


async def test_async_disable_and_enable(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        await c.create_key(key_name)
        try:
            disabled = await c.disable_key(key_name)
        except cipherd.CipherdError as e:
            if e.code is grpc.StatusCode.UNIMPLEMENTED:
                pytest.skip("the server does not implement KeyAdminService.DisableKey yet")
            raise
        assert disabled.state is KeyState.DISABLED
        with pytest.raises(cipherd.KeyDisabledError):
            await c.encrypt(key_name, b"x")
        assert (await c.enable_key(key_name)).state is KeyState.ENABLED
        deleting = await c.schedule_key_deletion(key_name, pending_window=timedelta(days=2))
        assert near(deleting.delete_time, timedelta(days=2))
        assert (await c.cancel_key_deletion(key_name)).state is KeyState.DISABLED


def test_retire_is_refused_by_an_inventory_below_n_and_allowed_at_or_above(
    client: cipherd.Client, key_name: str
) -> None:
    client.create_key(key_name)
    client.rotate_key(key_name)
    client.rotate_key(key_name)
    quiet = timedelta(seconds=1)
    time.sleep(1.2)
    scanned = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)
    one_row = cipherd.DataInventory(key_name, "postgres:users.email", {2: 1, 3: 99}, scanned, 100)

    with pytest.raises(cipherd.KeyVersionsInUseError) as refused:
        client.retire_key_versions(
            key_name,
            3,
            quiet_period=quiet,
            dry_run=True,
            inventories=[cipherd.DataInventory(key_name, "file:a.jsonl#email", {3: 4}), one_row],
        )
    assert refused.value.versions == (2,) and refused.value.source == "postgres:users.email"
    assert "still counts 1 ciphertext under v2" in refused.value.details

    clean = cipherd.DataInventory(key_name, "postgres:users.email", {1: 0, 3: 100}, scanned, 100)
    plan = client.retire_key_versions(key_name, 3, quiet_period=quiet, dry_run=True, inventories=[clean])
    assert plan.retired_versions == (1, 2)
    with pytest.raises(cipherd.InvalidArgumentError):
        client.retire_key_versions(
            key_name,
            3,
            quiet_period=quiet,
            dry_run=True,
            inventories=[cipherd.DataInventory("someone-else", "db", {3: 1})],
        )


def test_a_failed_decrypt_is_use_and_cancel_destruction_on_use(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    ciphertext = client.encrypt(key_name, b"cold row", context=b"users.email/7")
    client.rotate_key(key_name)
    with pytest.raises(cipherd.DecryptionFailedError):
        client.decrypt(ciphertext)
    census = client.get_key_census(key_name, quiet_period=timedelta(hours=1))
    v1 = census.versions[0]
    assert v1.version == 1 and v1.in_use and v1.usage.failures == 1 and v1.usage.decryptions == 0
    assert v1.usage.last_used_time is not None and v1.usage.index_lookups == 0 and v1.usage.last_lookup_time is None
    with pytest.raises(cipherd.KeyVersionsInUseError) as refused:
        client.retire_key_versions(key_name, 2, quiet_period=timedelta(hours=1), dry_run=True)
    assert refused.value.versions == (1,) and refused.value.source is None

    updated = client.update_key_policy(key_name, cipherd.KeyPolicy(cancel_destruction_on_use=True))
    assert updated.policy.cancel_destruction_on_use
    client.schedule_key_version_destruction(key_name, [1])
    with pytest.raises(cipherd.KeyVersionDestructionScheduledError):
        client.decrypt(ciphertext, context=b"users.email/7")
    deadline = time.monotonic() + 10
    while client.get_key(key_name).version(1).state is not KeyVersionState.ENABLED:
        assert time.monotonic() < deadline, "the destruction was not cancelled"
        time.sleep(0.02)
    assert client.decrypt(ciphertext, context=b"users.email/7") == b"cold row"


async def test_async_retire_takes_inventories(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        await c.create_key(key_name)
        await c.rotate_key(key_name)
        with pytest.raises(cipherd.KeyVersionsInUseError) as refused:
            await c.retire_key_versions(
                key_name,
                2,
                quiet_period=timedelta(seconds=1),
                dry_run=True,
                inventories=[cipherd.DataInventory(key_name, "postgres:t.c", {1: 3})],
            )
        assert refused.value.source == "postgres:t.c" and refused.value.versions == (1,)
