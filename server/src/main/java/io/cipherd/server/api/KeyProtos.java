package io.cipherd.server.api;

import com.google.protobuf.Timestamp;
import io.cipherd.api.v1.Key;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyVersionInfo;

/** Converts key metadata and policy between the domain and the API. Key bytes never pass here. */
final class KeyProtos {
  private KeyProtos() {}

  static Key toProto(KeyMetadata metadata) {
    Key.Builder key = Key.newBuilder()
        .setKeyName(metadata.name())
        .setCurrentVersion(metadata.currentVersion())
        .setPolicy(toProto(metadata.policy()));
    for (KeyVersionInfo version : metadata.versions()) {
      io.cipherd.api.v1.KeyVersion.Builder proto = io.cipherd.api.v1.KeyVersion.newBuilder()
          .setVersion(version.version())
          .setMode(ModeProtos.toProto(version.mode()))
          .setKeySizeBits(version.keySizeBits())
          .setCreateTime(Timestamp.newBuilder()
              .setSeconds(version.createdAt().getEpochSecond())
              .setNanos(version.createdAt().getNano()))
          .setImported(version.imported());
      if (version.isLegacy()) {
        proto.setLegacyCipher(LegacyProtos.toProto(version.legacy().cipher()))
            .setLegacyIv(LegacyProtos.toProto(version.legacy().iv()));
      }
      key.addVersions(proto);
    }
    return key.build();
  }

  static io.cipherd.api.v1.KeyPolicy toProto(KeyPolicy policy) {
    return io.cipherd.api.v1.KeyPolicy.newBuilder()
        .setMinDecryptionVersion(policy.minDecryptionVersion())
        .setMinEncryptionVersion(policy.minEncryptionVersion())
        .setAllowEcbEncryption(policy.allowEcbEncryption())
        .build();
  }

  /** The domain policy, or null when the request carries none. */
  static KeyPolicy fromProto(boolean present, io.cipherd.api.v1.KeyPolicy policy) {
    if (!present) {
      return null;
    }
    return new KeyPolicy(
        policy.getMinDecryptionVersion(), policy.getMinEncryptionVersion(), policy.getAllowEcbEncryption());
  }
}
