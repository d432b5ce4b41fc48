package io.cipherd.server.api;

import com.google.protobuf.DurationOrBuilder;
import com.google.protobuf.Timestamp;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyPolicyOrBuilder;
import io.cipherd.api.v1.KeyState;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.KeyVersionUsage;
import io.cipherd.api.v1.TransitKdf;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.keys.VersionUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** Converts key metadata and policy between the domain and the API. Key bytes never pass here. */
final class KeyProtos {
  private KeyProtos() {}

  static Key toProto(KeyMetadata metadata) {
    return toProto(metadata, Map.of());
  }

  /**
   * The key with each version's usage ({@code usage} by version; absent versions were never used).
   */
  static Key toProto(KeyMetadata metadata, Map<Integer, VersionUsage> usage) {
    Key.Builder key =
        Key.newBuilder()
            .setKeyName(metadata.name())
            .setCurrentVersion(metadata.currentVersion())
            .setState(toProto(metadata.lifecycle().state()))
            .setExportable(metadata.exportable());
    if (metadata.lifecycle().deleteTime() != null) {
      key.setDeleteTime(timestamp(metadata.lifecycle().deleteTime()));
    }
    setPolicy(key, metadata.policy());
    for (KeyVersionInfo version : metadata.versions()) {
      KeyVersion.Builder proto =
          KeyVersion.newBuilder()
              .setVersion(version.version())
              .setMode(ModeProtos.toProto(version.type()))
              .setKeySizeBits(version.keySizeBits())
              .setCreateTime(timestamp(version.createdAt()))
              .setImported(version.imported())
              .setUsage(toProto(usage.getOrDefault(version.version(), VersionUsage.NONE)))
              .setState(toProto(version.lifecycle().state()));
      if (version.lifecycle().destroyTime() != null) {
        proto.setDestroyTime(timestamp(version.lifecycle().destroyTime()));
      }
      if (version.isLegacy()) {
        proto
            .setLegacyCipher(LegacyFormatProtos.cipher(version.legacy()))
            .setLegacyIv(LegacyFormatProtos.iv(version.legacy()));
      }
      if (version.fpe() != null) {
        FpeFormatProtos.setFormat(proto, version.fpe());
      }
      if (version.isTransitDerived()) {
        proto.setTransitKdf(transitKdf(version));
      }
      key.addVersions(proto);
    }
    return key.build();
  }

  /** The API's value of a version's Transit KDF; the version must have one. */
  private static TransitKdf transitKdf(KeyVersionInfo version) {
    return switch (version.transitKdf()) {
      case HMAC_SHA256_COUNTER -> TransitKdf.TRANSIT_KDF_HMAC_SHA256_COUNTER;
      case HKDF_SHA256 -> TransitKdf.TRANSIT_KDF_HKDF_SHA256;
    };
  }

  static KeyState toProto(KeyLifecycle.State state) {
    return switch (state) {
      case ENABLED -> KeyState.KEY_STATE_ENABLED;
      case DISABLED -> KeyState.KEY_STATE_DISABLED;
      case DELETION_SCHEDULED -> KeyState.KEY_STATE_DELETION_SCHEDULED;
      case DELETED -> KeyState.KEY_STATE_DELETED;
    };
  }

  static KeyVersionState toProto(VersionLifecycle.State state) {
    return switch (state) {
      case ENABLED -> KeyVersionState.KEY_VERSION_STATE_ENABLED;
      case DESTRUCTION_SCHEDULED -> KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED;
      case DESTROYED -> KeyVersionState.KEY_VERSION_STATE_DESTROYED;
    };
  }

  static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  /** Sets {@code key}'s policy to {@code policy}. */
  private static void setPolicy(Key.Builder key, KeyPolicy policy) {
    key.getPolicyBuilder()
        .setMinDecryptionVersion(policy.minDecryptionVersion())
        .setMinEncryptionVersion(policy.minEncryptionVersion())
        .setAllowEcbEncryption(policy.allowEcbEncryption())
        .setMaxEncryptionsPerVersion(policy.maxEncryptionsPerVersion())
        .setCancelDestructionOnUse(policy.cancelDestructionOnUse());
    if (!policy.autoRotatePeriod().isZero()) {
      // Absent means "never", as the API documents; a zero Duration would read as a setting.
      key.getPolicyBuilder()
          .getAutoRotatePeriodBuilder()
          .setSeconds(policy.autoRotatePeriod().toSeconds());
    }
  }

  static KeyVersionUsage toProto(VersionUsage usage) {
    KeyVersionUsage.Builder proto =
        KeyVersionUsage.newBuilder()
            .setEncryptions(usage.encryptions())
            .setDecryptions(usage.decryptions())
            .setRewraps(usage.rewraps())
            .setIndexes(usage.indexes())
            .setFailures(usage.failures())
            .setIndexLookups(usage.indexLookups());
    if (usage.lastUsed() != null) {
      proto.setLastUsedTime(timestamp(usage.lastUsed()));
    }
    if (usage.lastLookup() != null) {
      proto.setLastLookupTime(timestamp(usage.lastLookup()));
    }
    return proto.build();
  }

  /** The domain policy, or null when the request carries none. */
  static KeyPolicy fromProto(boolean present, KeyPolicyOrBuilder policy) {
    if (!present) {
      return null;
    }
    DurationOrBuilder period = policy.getAutoRotatePeriodOrBuilder();
    if (period.getNanos() != 0) {
      throw new InvalidArgumentException("auto_rotate_period must be whole seconds");
    }
    return new KeyPolicy(
        policy.getMinDecryptionVersion(),
        policy.getMinEncryptionVersion(),
        policy.getAllowEcbEncryption(),
        Duration.ofSeconds(period.getSeconds()),
        policy.getMaxEncryptionsPerVersion(),
        policy.getCancelDestructionOnUse());
  }
}
