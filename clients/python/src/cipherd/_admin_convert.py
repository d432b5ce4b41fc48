"""KeyAdminService requests built from the client's arguments and key metadata read from responses:
shared by the sync and asyncio clients."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from google.protobuf import duration_pb2, timestamp_pb2

from cipherd._convert import mode_from_proto, mode_to_proto
from cipherd._formatted_convert import check_mode, format_from_proto, format_to_proto
from cipherd.envelope import Mode
from cipherd.formatted import FpeFormat
from cipherd.key_import import ImportJob, ImportWrappingAlgorithm, wrap_key_material
from cipherd.keys import (
    DataInventory,
    Key,
    KeyCensus,
    KeyPolicy,
    KeyState,
    KeyVersion,
    KeyVersionState,
    KeyVersionUsage,
    Retirement,
    VersionCensus,
)
from cipherd.legacy import LegacyCipher, LegacyIv
from cipherd.transit import TransitKdf
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1 import keys_pb2


def policy_to_proto(policy: KeyPolicy | None) -> keys_pb2.KeyPolicy | None:
    if policy is None:
        return None
    return keys_pb2.KeyPolicy(
        min_decryption_version=policy.min_decryption_version,
        min_encryption_version=policy.min_encryption_version,
        allow_ecb_encryption=policy.allow_ecb_encryption,
        auto_rotate_period=_duration(policy.auto_rotate_period),
        max_encryptions_per_version=policy.max_encryptions_per_version,
        cancel_destruction_on_use=policy.cancel_destruction_on_use,
    )


def _duration(period: timedelta | None) -> duration_pb2.Duration | None:
    if period is None:
        return None
    duration = duration_pb2.Duration()
    duration.FromTimedelta(period)
    return duration


def _time(timestamp: timestamp_pb2.Timestamp) -> datetime:
    return timestamp.ToDatetime(tzinfo=UTC)


def key_from_proto(key: keys_pb2.Key) -> Key:
    p = key.policy
    policy = KeyPolicy(
        p.min_decryption_version,
        p.min_encryption_version,
        p.allow_ecb_encryption,
        p.auto_rotate_period.ToTimedelta() if p.HasField("auto_rotate_period") else None,
        p.max_encryptions_per_version,
        p.cancel_destruction_on_use,
    )
    # A server that knows no states sends UNSPECIFIED: it serves the key, so it reads as enabled.
    state = (
        KeyState.ENABLED
        if key.state == keys_pb2.KEY_STATE_UNSPECIFIED
        else KeyState(keys_pb2.KeyState.Name(key.state).removeprefix("KEY_STATE_").lower())
    )
    return Key(
        key.key_name,
        key.current_version,
        tuple(_version(v) for v in key.versions),
        policy,
        state,
        _time(key.delete_time) if key.HasField("delete_time") else None,
        key.exportable,
    )


def _version(v: keys_pb2.KeyVersion) -> KeyVersion:
    mode = None if v.mode == keys_pb2.MODE_UNSPECIFIED else mode_from_proto(v.mode)
    state = (
        KeyVersionState.ENABLED
        if v.state == keys_pb2.KEY_VERSION_STATE_UNSPECIFIED
        else KeyVersionState(keys_pb2.KeyVersionState.Name(v.state).removeprefix("KEY_VERSION_STATE_").lower())
    )
    return KeyVersion(
        v.version,
        mode,
        v.key_size_bits,
        _time(v.create_time) if v.HasField("create_time") else None,
        v.imported,
        legacy_cipher_from_proto(v.legacy_cipher),
        _legacy_iv_from_proto(v.legacy_iv),
        _usage(v.usage),
        state,
        _time(v.destroy_time) if v.HasField("destroy_time") else None,
        format_from_proto(v),
        _transit_kdf_from_proto(v.transit_kdf),
    )


def _usage(u: keys_pb2.KeyVersionUsage) -> KeyVersionUsage:
    return KeyVersionUsage(
        u.encryptions,
        u.decryptions,
        u.rewraps,
        _time(u.last_used_time) if u.HasField("last_used_time") else None,
        indexes=u.indexes,
        failures=u.failures,
        index_lookups=u.index_lookups,
        last_lookup_time=_time(u.last_lookup_time) if u.HasField("last_lookup_time") else None,
    )


def census_from_proto(response: admin.GetKeyCensusResponse) -> KeyCensus:
    return KeyCensus(
        key_from_proto(response.key),
        tuple(VersionCensus(v.version, _usage(v.usage), v.in_use, v.subject_keys) for v in response.versions),
        response.safe_min_decryption_version,
    )


def retire_request(
    key_name: str,
    below_version: int,
    quiet_period: timedelta | None,
    pending_window: timedelta | None,
    dry_run: bool,
    inventories: Iterable[DataInventory | admin.DataInventory] = (),
) -> admin.RetireKeyVersionsRequest:
    return admin.RetireKeyVersionsRequest(
        key_name=key_name,
        below_version=below_version,
        quiet_period=_duration(quiet_period),
        pending_window=_duration(pending_window),
        validate_only=dry_run,
        inventories=[_inventory(i) for i in inventories],
    )


def _inventory(inventory: DataInventory | admin.DataInventory) -> admin.DataInventory:
    if isinstance(inventory, admin.DataInventory):
        return inventory
    proto = admin.DataInventory(
        key_name=inventory.key_name,
        source=inventory.source,
        items_scanned=inventory.items_scanned,
        versions=[admin.VersionCount(version=v, ciphertexts=n) for v, n in sorted(inventory.versions.items())],
    )
    if inventory.scan_time is not None:
        proto.scan_time.FromDatetime(inventory.scan_time)
    return proto


def retirement_from_proto(response: admin.RetireKeyVersionsResponse) -> Retirement:
    return Retirement(
        key_from_proto(response.key),
        tuple(response.retired_versions),
        _time(response.destroy_time) if response.HasField("destroy_time") else None,
    )


def destruction_request(
    key_name: str, versions: Iterable[int], pending_window: timedelta | None
) -> admin.ScheduleKeyVersionDestructionRequest:
    return admin.ScheduleKeyVersionDestructionRequest(
        key_name=key_name, versions=list(versions), pending_window=_duration(pending_window)
    )


def deletion_request(key_name: str, pending_window: timedelta | None) -> admin.ScheduleKeyDeletionRequest:
    return admin.ScheduleKeyDeletionRequest(key_name=key_name, pending_window=_duration(pending_window))


def census_request(key_name: str, quiet_period: timedelta | None) -> admin.GetKeyCensusRequest:
    return admin.GetKeyCensusRequest(key_name=key_name, quiet_period=_duration(quiet_period))


def legacy_cipher_to_proto(cipher: LegacyCipher | str | None) -> keys_pb2.LegacyCipher.ValueType:
    if cipher is None:
        return keys_pb2.LEGACY_CIPHER_UNSPECIFIED
    return keys_pb2.LegacyCipher.Value("LEGACY_CIPHER_" + LegacyCipher(cipher).value.upper())


def legacy_cipher_from_proto(cipher: keys_pb2.LegacyCipher.ValueType) -> LegacyCipher | None:
    if cipher == keys_pb2.LEGACY_CIPHER_UNSPECIFIED:
        return None
    return LegacyCipher(keys_pb2.LegacyCipher.Name(cipher).removeprefix("LEGACY_CIPHER_").lower())


def _legacy_iv_to_proto(iv: LegacyIv | str | None) -> keys_pb2.LegacyIv.ValueType:
    if iv is None:
        return keys_pb2.LEGACY_IV_UNSPECIFIED
    return keys_pb2.LegacyIv.Value("LEGACY_IV_" + LegacyIv(iv).value.upper())


def _legacy_iv_from_proto(iv: keys_pb2.LegacyIv.ValueType) -> LegacyIv | None:
    if iv == keys_pb2.LEGACY_IV_UNSPECIFIED:
        return None
    return LegacyIv(keys_pb2.LegacyIv.Name(iv).removeprefix("LEGACY_IV_").lower())


_WRAPPING_TO_PROTO = {
    None: admin.IMPORT_WRAPPING_ALGORITHM_UNSPECIFIED,
    ImportWrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072: admin.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072,
    ImportWrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096: admin.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096,
}


def import_job_request(
    key_name: str, wrapping_algorithm: ImportWrappingAlgorithm | str | None
) -> admin.CreateImportJobRequest:
    algorithm = (
        ImportWrappingAlgorithm(wrapping_algorithm) if isinstance(wrapping_algorithm, str) else wrapping_algorithm
    )
    return admin.CreateImportJobRequest(key_name=key_name, wrapping_algorithm=_WRAPPING_TO_PROTO[algorithm])


def import_job_from_proto(job: admin.ImportJob) -> ImportJob:
    algorithm = (
        ImportWrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096
        if job.wrapping_algorithm == admin.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096
        else ImportWrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_3072
    )
    return ImportJob(job.import_job_id, job.key_name, algorithm, job.public_key_pem, _time(job.expire_time))


def import_key_request(
    key_name: str,
    key_material: bytes,
    mode: Mode | str | None,
    allow_unauthenticated: bool,
    legacy_cipher: LegacyCipher | str | None,
    legacy_iv: LegacyIv | str | None,
    legacy_fixed_iv: bytes,
    passphrase: bytes | str,
    fpe_format: FpeFormat | None = None,
    transit_kdf: TransitKdf | str | None = None,
    wrapped_for: ImportJob | None = None,
) -> admin.ImportKeyRequest:
    """The request; with `wrapped_for`, `key_material` is wrapped here for that job and never sent in the clear."""
    check_mode(mode, fpe_format, creating=False)
    # A str passphrase is taken as UTF-8, the bytes MySQL saw on a utf8mb4 connection.
    secret = passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase
    wrapped, job_id = b"", ""
    if wrapped_for is not None:
        if secret:
            if key_material or legacy_cipher_to_proto(legacy_cipher) != keys_pb2.LEGACY_CIPHER_MYSQL_AES_ECB:
                raise ValueError("a passphrase is for LegacyCipher.MYSQL_AES_ECB, instead of key_material")
            # MySQL's fold of its key string into the AES-128 key, done here so the key goes wrapped.
            folded = bytearray(16)
            for i, byte in enumerate(secret):
                folded[i % 16] ^= byte
            key_material, secret = bytes(folded), b""
        wrapped = wrap_key_material(wrapped_for.public_key_pem, key_material)
        job_id = wrapped_for.import_job_id
        key_material = b""
    return admin.ImportKeyRequest(
        key_name=key_name,
        key_material=key_material,
        wrapped_key_material=wrapped,
        import_job_id=job_id,
        mode=mode_to_proto(mode),
        allow_unauthenticated=allow_unauthenticated,
        legacy_cipher=legacy_cipher_to_proto(legacy_cipher),
        legacy_iv=_legacy_iv_to_proto(legacy_iv),
        legacy_fixed_iv=legacy_fixed_iv,
        passphrase=secret,
        fpe_format=format_to_proto(fpe_format),
        transit_kdf=_transit_kdf_to_proto(transit_kdf),
    )


_TRANSIT_KDFS = {
    TransitKdf.HKDF_SHA256: keys_pb2.TRANSIT_KDF_HKDF_SHA256,
    TransitKdf.HMAC_SHA256_COUNTER: keys_pb2.TRANSIT_KDF_HMAC_SHA256_COUNTER,
}


def _transit_kdf_to_proto(kdf: TransitKdf | str | None) -> keys_pb2.TransitKdf.ValueType:
    return keys_pb2.TRANSIT_KDF_UNSPECIFIED if kdf is None else _TRANSIT_KDFS[TransitKdf(kdf)]


def _transit_kdf_from_proto(kdf: keys_pb2.TransitKdf.ValueType) -> TransitKdf | None:
    return next((k for k, v in _TRANSIT_KDFS.items() if v == kdf), None)
