"""Key lifecycle: disable, destruction, deletion and retirement against the real server, and the states read
from a key."""
from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
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
    return moment is not None and abs(moment - datetime.now(timezone.utc) - expected) < timedelta(minutes=2)


def test_states_are_read_from_the_key() -> None:
    when = timestamp_pb2.Timestamp(seconds=1_800_000_000)
    key = key_from_proto(keys_pb2.Key(
        key_name="k", current_version=2, state=keys_pb2.KEY_STATE_DELETION_SCHEDULED, delete_time=when,
        versions=[keys_pb2.KeyVersion(version=1, state=keys_pb2.KEY_VERSION_STATE_DESTROYED, destroy_time=when),
                  keys_pb2.KeyVersion(version=2)]))
    assert key.state is KeyState.DELETION_SCHEDULED and key.delete_time == datetime.fromtimestamp(1_800_000_000, timezone.utc)
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
    assert [v.state for v in done.key.versions] == [KeyVersionState.DESTRUCTION_SCHEDULED] * 2 + [KeyVersionState.ENABLED]
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
