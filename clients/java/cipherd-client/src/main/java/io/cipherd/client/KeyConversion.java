package io.cipherd.client;

import com.google.protobuf.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** The client's key types from the generated ones and back. */
final class KeyConversion {
  private KeyConversion() {}

  static Key key(io.cipherd.api.v1.Key key) {
    return new Key(
        key.getKeyName(),
        key.getCurrentVersion(),
        switch (key.getState()) {
          case KEY_STATE_ENABLED -> KeyState.ENABLED;
          case KEY_STATE_DISABLED -> KeyState.DISABLED;
          case KEY_STATE_DELETION_SCHEDULED -> KeyState.DELETION_SCHEDULED;
          case KEY_STATE_DELETED -> KeyState.DELETED;
          default -> KeyState.UNKNOWN;
        },
        key.getVersionsList().stream().map(KeyConversion::version).toList(),
        policy(key.getPolicy()),
        key.hasDeleteTime() ? Optional.of(instant(key.getDeleteTime())) : Optional.empty(),
        key.getExportable());
  }

  static KeyVersion version(io.cipherd.api.v1.KeyVersion version) {
    return new KeyVersion(
        version.getVersion(),
        Mode.fromProto(version.getMode()),
        Optional.ofNullable(LegacyCipher.fromProto(version.getLegacyCipher())),
        version.getKeySizeBits(),
        instant(version.getCreateTime()),
        version.getImported(),
        switch (version.getState()) {
          case KEY_VERSION_STATE_ENABLED -> KeyVersionState.ENABLED;
          case KEY_VERSION_STATE_DESTRUCTION_SCHEDULED -> KeyVersionState.DESTRUCTION_SCHEDULED;
          case KEY_VERSION_STATE_DESTROYED -> KeyVersionState.DESTROYED;
          default -> KeyVersionState.UNKNOWN;
        },
        version.hasDestroyTime()
            ? Optional.of(instant(version.getDestroyTime()))
            : Optional.empty(),
        usage(version.getUsage()),
        version.hasFpeFormat()
            ? Optional.of(FpeFormat.fromProto(version.getFpeFormat()))
            : Optional.empty(),
        Optional.ofNullable(TransitKdf.fromProto(version.getTransitKdf())));
  }

  static KeyUsage usage(io.cipherd.api.v1.KeyVersionUsage usage) {
    return new KeyUsage(
        usage.getEncryptions(),
        usage.getDecryptions(),
        usage.getRewraps(),
        usage.getIndexes(),
        usage.getIndexLookups(),
        usage.getFailures(),
        usage.hasLastUsedTime() ? Optional.of(instant(usage.getLastUsedTime())) : Optional.empty());
  }

  static KeyPolicy policy(io.cipherd.api.v1.KeyPolicy policy) {
    return new KeyPolicy(
        policy.getMinDecryptionVersion(),
        policy.getMinEncryptionVersion(),
        policy.getAllowEcbEncryption(),
        duration(policy.getAutoRotatePeriod()),
        policy.getMaxEncryptionsPerVersion(),
        policy.getCancelDestructionOnUse());
  }

  static io.cipherd.api.v1.KeyPolicy policy(KeyPolicy policy) {
    io.cipherd.api.v1.KeyPolicy.Builder proto =
        io.cipherd.api.v1.KeyPolicy.newBuilder()
            .setMinDecryptionVersion(policy.minDecryptionVersion())
            .setMinEncryptionVersion(policy.minEncryptionVersion())
            .setAllowEcbEncryption(policy.allowEcbEncryption())
            .setMaxEncryptionsPerVersion(policy.maxEncryptionsPerVersion())
            .setCancelDestructionOnUse(policy.cancelDestructionOnUse());
    if (!policy.autoRotatePeriod().isZero()) {
      proto.setAutoRotatePeriod(duration(policy.autoRotatePeriod()));
    }
    return proto.build();
  }

  static com.google.protobuf.Duration duration(Duration duration) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }

  static Duration duration(com.google.protobuf.Duration duration) {
    return Duration.ofSeconds(duration.getSeconds(), duration.getNanos());
  }

  static Instant instant(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }
}
