package io.cipherd.server.api;

import io.cipherd.api.v1.Mode;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyTemplate;

/**
 * Converts between the API's {@code cipherd.v1.Mode} and the domain's {@link KeyType} and {@link
 * CipherMode}: the one place that knows both. The API's enum names a version's type in one field: a
 * cipher mode, {@code MODE_HMAC} for an index key's, or {@code MODE_UNSPECIFIED} for the default
 * (and, in a response, for a legacy version, which {@code legacy_cipher} describes).
 */
final class ModeProtos {
  private ModeProtos() {}

  /**
   * The template a CreateKey or RotateKey request asks for: its {@code mode} (unspecified means the
   * RPC's default), {@code key_size_bits} and {@code allow_unauthenticated}.
   */
  static KeyTemplate template(Mode mode, int keySizeBits, boolean allowUnauthenticated) {
    return new KeyTemplate(fromProto(mode), keySizeBits, allowUnauthenticated);
  }

  /**
   * The template of an ImportKey request without legacy_cipher: its {@code mode} and {@code
   * allow_unauthenticated}; the size is the key material's.
   */
  static KeyTemplate importTemplate(Mode mode, boolean allowUnauthenticated) {
    return new KeyTemplate(fromProto(mode), KeyTemplate.DEFAULT_SIZE, allowUnauthenticated);
  }

  /** The domain type, or null for MODE_UNSPECIFIED (meaning "the default" to the caller's RPC). */
  static KeyType fromProto(Mode mode) {
    return switch (mode) {
      case MODE_UNSPECIFIED -> null;
      case MODE_GCM -> KeyType.of(CipherMode.GCM);
      case MODE_CHACHA -> KeyType.of(CipherMode.CHACHA);
      case MODE_CBC -> KeyType.of(CipherMode.CBC);
      case MODE_CTR -> KeyType.of(CipherMode.CTR);
      case MODE_CFB -> KeyType.of(CipherMode.CFB);
      case MODE_OFB -> KeyType.of(CipherMode.OFB);
      case MODE_ECB -> KeyType.of(CipherMode.ECB);
      case MODE_XGCM -> KeyType.of(CipherMode.XGCM);
      case MODE_SIV -> KeyType.of(CipherMode.SIV);
      case MODE_HMAC -> KeyType.INDEX;
      case UNRECOGNIZED ->
          throw new InvalidArgumentException("mode is not a known cipherd.v1.Mode value");
    };
  }

  /** The API's value for a version of {@code type}. */
  static Mode toProto(KeyType type) {
    return switch (type.kind()) {
      case ENCRYPTION -> toProto(type.mode());
      case INDEX -> Mode.MODE_HMAC;
      // A legacy version has no cipherd mode; KeyVersion.legacy_cipher says what it is.
      case LEGACY -> Mode.MODE_UNSPECIFIED;
    };
  }

  /** The API's value for a ciphertext header's mode. */
  static Mode toProto(CipherMode mode) {
    return switch (mode) {
      case GCM -> Mode.MODE_GCM;
      case CHACHA -> Mode.MODE_CHACHA;
      case CBC -> Mode.MODE_CBC;
      case CTR -> Mode.MODE_CTR;
      case CFB -> Mode.MODE_CFB;
      case OFB -> Mode.MODE_OFB;
      case ECB -> Mode.MODE_ECB;
      case XGCM -> Mode.MODE_XGCM;
      case SIV -> Mode.MODE_SIV;
    };
  }
}
