package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyBackup;
import io.cipherd.api.v1.KeyBackupFile;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.KeyVersionMaterial;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.keywrap.RsaAesKeyWrap;
import io.cipherd.server.crypto.legacy.IvConvention;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.engine.BackupUnwrapFailedException;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.BackupRecipient;
import io.cipherd.server.keys.ExportedKey;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.VersionLifecycle;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The key backup's format (proto/README.md, "Key backup"): a {@link ExportedKey} written as a
 * {@code KeyBackup}, wrapped for its recipient in a {@code KeyBackupFile}, and a restored {@code
 * KeyBackup} read back into a key, checked for consistency. Key bytes pass here only inside the
 * serialized backup, whose arrays are wiped once wrapped or read; the protobuf values alias them
 * rather than copy them, so no unwipeable copy is left behind.
 */
final class KeyBackupProtos {
  /** KeyBackupFile.format. */
  static final int FORMAT = 1;

  private KeyBackupProtos() {}

  /**
   * The serialized {@code KeyBackupFile} of {@code exported} for {@code recipient}, made at {@code
   * now}. The serialized {@code KeyBackup} is wiped before this returns; the caller wipes {@code
   * exported}.
   */
  static byte[] backupFile(ExportedKey exported, BackupRecipient recipient, Instant now) {
    Timestamp time = KeyProtos.timestamp(now);
    ByteString fingerprint = ByteString.copyFrom(recipient.sha256());
    KeyMetadata key = exported.key();
    KeyBackup.Builder backup =
        KeyBackup.newBuilder()
            .setKey(KeyProtos.toProto(key))
            .setRecipientKeySha256(fingerprint)
            .setBackupTime(time);
    for (KeyVersionInfo version : key.versions()) {
      KeyVersionMaterial.Builder material =
          KeyVersionMaterial.newBuilder().setVersion(version.version());
      if (version.isLegacy() && version.legacy().iv() == IvConvention.FIXED) {
        material.setLegacyFixedIv(ByteString.copyFrom(version.legacy().fixedIv()));
      }
      if (!LifecycleChange.isDestroyed(version)) {
        // Aliases the exported array, which the caller wipes: no copy of the bytes stays behind.
        material.setKeyMaterial(
            UnsafeByteOperations.unsafeWrap(materialOf(exported, version.version())));
      } else if (material.getLegacyFixedIv().isEmpty()) {
        continue; // A destroyed version has no bytes; only a fixed IV is kept, to describe it.
      }
      backup.addMaterials(material);
    }
    byte[] serialized = backup.build().toByteArray();
    try {
      return KeyBackupFile.newBuilder()
          .setFormat(FORMAT)
          .setKeyName(key.name())
          .setRecipientKeySha256(fingerprint)
          .setBackupTime(time)
          .setWrappingAlgorithm(ImportJobProtos.toProto(recipient.algorithm()))
          .setWrappedKeyBackup(
              ByteString.copyFrom(RsaAesKeyWrap.wrap(recipient.publicKey(), serialized)))
          .build()
          .toByteArray();
    } finally {
      Arrays.fill(serialized, (byte) 0);
    }
  }

  private static byte[] materialOf(ExportedKey exported, int version) {
    for (NewKeyVersion live : exported.live()) {
      if (live.info().version() == version) {
        return live.material();
      }
    }
    throw new IllegalStateException("no material for version " + version);
  }

  /**
   * The key {@code serialized} (a {@code KeyBackup}) holds, its bytes copied out of {@code
   * serialized} (which the caller wipes); the caller wipes the result. A message that does not
   * parse is {@link BackupUnwrapFailedException}, like a blob that does not unwrap; one that parses
   * but does not describe a key whole is INVALID_ARGUMENT saying what does not fit.
   */
  static ExportedKey parse(byte[] serialized) {
    KeyBackup backup;
    try {
      CodedInputStream input = CodedInputStream.newInstance(serialized);
      input.enableAliasing(true);
      backup = KeyBackup.parseFrom(input);
      input.checkLastTagWas(0);
    } catch (IOException e) {
      throw new BackupUnwrapFailedException();
    }
    if (!backup.hasKey()) {
      throw new BackupUnwrapFailedException();
    }
    try {
      return exported(backup);
    } catch (IllegalArgumentException e) {
      // The domain's checks (version numbering, sizes, lifecycle times) name only metadata.
      throw new InvalidArgumentException("the backup is inconsistent: " + e.getMessage());
    }
  }

  private static ExportedKey exported(KeyBackup backup) {
    Key key = backup.getKey();
    Map<Integer, KeyVersionMaterial> materials = new HashMap<>();
    for (KeyVersionMaterial material : backup.getMaterialsList()) {
      if (materials.put(material.getVersion(), material) != null) {
        throw new InvalidArgumentException(
            "the backup is inconsistent: version " + material.getVersion() + " has two materials");
      }
    }
    List<KeyVersionInfo> versions = new ArrayList<>();
    List<NewKeyVersion> live = new ArrayList<>();
    try {
      for (KeyVersion version : key.getVersionsList()) {
        KeyVersionMaterial material =
            materials.getOrDefault(version.getVersion(), KeyVersionMaterial.getDefaultInstance());
        KeyVersionInfo info = info(version, material.getLegacyFixedIv());
        versions.add(info);
        boolean destroyed = LifecycleChange.isDestroyed(info);
        if (destroyed != material.getKeyMaterial().isEmpty()) {
          throw new InvalidArgumentException(
              "the backup is inconsistent: version "
                  + info.version()
                  + (destroyed ? " is destroyed but has key material" : " has no key material"));
        }
        if (!destroyed) {
          live.add(new NewKeyVersion(info, material.getKeyMaterial().toByteArray()));
        }
      }
      if (materials.keySet().stream().anyMatch(v -> v < 1 || v > key.getVersionsCount())) {
        throw new InvalidArgumentException(
            "the backup is inconsistent: it has material for a version the key does not have");
      }
      if (live.isEmpty()) {
        throw new InvalidArgumentException(
            "the backup holds no version that is not destroyed: there is nothing to restore");
      }
      KeyMetadata metadata =
          new KeyMetadata(
              key.getKeyName(),
              versions,
              KeyProtos.fromProto(true, key.getPolicy()),
              lifecycle(key),
              key.getExportable());
      if (key.getCurrentVersion() != metadata.currentVersion()) {
        throw new InvalidArgumentException(
            "the backup is inconsistent: current_version is "
                + key.getCurrentVersion()
                + " but the key has "
                + metadata.currentVersion()
                + " versions");
      }
      return new ExportedKey(metadata, live);
    } catch (RuntimeException e) {
      live.forEach(version -> Arrays.fill(version.material(), (byte) 0));
      throw e;
    }
  }

  private static KeyVersionInfo info(KeyVersion version, ByteString fixedIv) {
    KeyType type = ModeProtos.fromProto(version.getMode());
    LegacyFormat legacy = null;
    if (type == null) {
      legacy = LegacyProtos.format(version, fixedIv);
      type = KeyType.LEGACY;
    } else if (!fixedIv.isEmpty()) {
      throw new InvalidArgumentException(
          "the backup is inconsistent: version "
              + version.getVersion()
              + " has a legacy_fixed_iv but is not a legacy version");
    }
    if (!version.hasCreateTime()) {
      throw new InvalidArgumentException(
          "the backup is inconsistent: version " + version.getVersion() + " has no create_time");
    }
    return new KeyVersionInfo(
        version.getVersion(),
        type,
        version.getKeySizeBits(),
        instant(version.getCreateTime()),
        version.getImported(),
        legacy,
        versionLifecycle(version),
        version.hasFpeFormat() ? FpeFormatProtos.fromProto(version.getFpeFormat()) : null,
        TransitKdfProtos.fromProto(version));
  }

  private static VersionLifecycle versionLifecycle(KeyVersion version) {
    Instant at = version.hasDestroyTime() ? instant(version.getDestroyTime()) : null;
    return switch (version.getState()) {
      case KEY_VERSION_STATE_UNSPECIFIED, KEY_VERSION_STATE_ENABLED -> VersionLifecycle.ENABLED;
      case KEY_VERSION_STATE_DESTRUCTION_SCHEDULED -> VersionLifecycle.scheduled(at);
      case KEY_VERSION_STATE_DESTROYED -> VersionLifecycle.destroyed(at);
      case UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "the backup is inconsistent: a version's state is not a known value");
    };
  }

  private static KeyLifecycle lifecycle(Key key) {
    Instant at = key.hasDeleteTime() ? instant(key.getDeleteTime()) : null;
    return switch (key.getState()) {
      case KEY_STATE_UNSPECIFIED, KEY_STATE_ENABLED -> KeyLifecycle.ENABLED;
      case KEY_STATE_DISABLED -> KeyLifecycle.DISABLED;
      case KEY_STATE_DELETION_SCHEDULED -> KeyLifecycle.deletionScheduled(at);
      case KEY_STATE_DELETED -> KeyLifecycle.deleted(at);
      case UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "the backup is inconsistent: the key's state is not a known value");
    };
  }

  private static Instant instant(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }
}
