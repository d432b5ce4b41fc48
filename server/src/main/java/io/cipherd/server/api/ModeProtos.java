package io.cipherd.server.api;

import io.cipherd.api.v1.FpeFormatOrBuilder;
import io.cipherd.api.v1.Mode;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyTemplate;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Converts between the API's {@code cipherd.v1.Mode} and the domain's {@link KeyType} and {@link
 * CipherMode}: the one place that knows both. The API's enum names a version's type in one field: a
 * cipher mode, {@code MODE_HMAC} for an index key's, or {@code MODE_UNSPECIFIED} for the default
 * (and, in a response, for a legacy version, which {@code legacy_cipher} describes), {@code
 * MODE_FF1} for a format-preserving key's.
 *
 * <p>A cipher mode's value is named after its header name, as keys.proto says: {@code MODE_GCM} for
 * gcm. A mode without its value fails here when the class loads, so every API test fails.
 */
final class ModeProtos {
  private static final String PREFIX = "MODE_";
  private static final Map<CipherMode, Mode> BY_CIPHER_MODE = new EnumMap<>(CipherMode.class);
  private static final Map<Mode, KeyType> BY_PROTO = new EnumMap<>(Mode.class);

  static {
    for (CipherMode mode : CipherMode.values()) {
      Mode proto = Mode.valueOf(PREFIX + mode.headerName().toUpperCase(Locale.ROOT));
      BY_CIPHER_MODE.put(mode, proto);
      BY_PROTO.put(proto, mode);
    }
    BY_PROTO.put(Mode.MODE_HMAC, KeyType.INDEX);
    BY_PROTO.put(Mode.MODE_FF1, KeyType.FF1);
  }

  private ModeProtos() {}

  /**
   * The template a CreateKey or RotateKey request asks for: its {@code mode} (unspecified means the
   * RPC's default), {@code key_size_bits} and {@code allow_unauthenticated}.
   */
  static KeyTemplate template(Mode mode, int keySizeBits, boolean allowUnauthenticated) {
    return new KeyTemplate(fromProto(mode), keySizeBits, allowUnauthenticated);
  }

  /**
   * The template a CreateKey request asks for: as {@link #template}, with its {@code fpe_format}
   * (required with MODE_FF1, refused with any other mode).
   */
  static KeyTemplate template(
      Mode mode,
      int keySizeBits,
      boolean allowUnauthenticated,
      boolean hasFpeFormat,
      FpeFormatOrBuilder fpeFormat) {
    return new KeyTemplate(
        fromProto(mode),
        keySizeBits,
        allowUnauthenticated,
        hasFpeFormat ? FpeFormatProtos.fromProto(fpeFormat) : null);
  }

  /**
   * The template of an ImportKey request without legacy_cipher: its {@code mode} and {@code
   * allow_unauthenticated}; the size is the key material's.
   */
  static KeyTemplate importTemplate(
      Mode mode, boolean allowUnauthenticated, boolean hasFpeFormat, FpeFormatOrBuilder fpeFormat) {
    return new KeyTemplate(
        fromProto(mode),
        KeyTemplate.DEFAULT_SIZE,
        allowUnauthenticated,
        hasFpeFormat ? FpeFormatProtos.fromProto(fpeFormat) : null);
  }

  /** The domain type, or null for MODE_UNSPECIFIED (meaning "the default" to the caller's RPC). */
  static KeyType fromProto(Mode mode) {
    if (mode == Mode.MODE_UNSPECIFIED) {
      return null;
    }
    KeyType type = BY_PROTO.get(mode);
    if (type == null) {
      throw new InvalidArgumentException("mode is not a known cipherd.v1.Mode value");
    }
    return type;
  }

  /** The API's value for a version of {@code type}. */
  static Mode toProto(KeyType type) {
    return switch (type.kind()) {
      case ENCRYPTION -> toProto(type.mode());
      case INDEX -> Mode.MODE_HMAC;
      // A legacy version has no cipherd mode; KeyVersion.legacy_cipher says what it is.
      case LEGACY -> Mode.MODE_UNSPECIFIED;
      case FORMAT_PRESERVING -> Mode.MODE_FF1;
    };
  }

  /** The API's value for a ciphertext header's mode. */
  static Mode toProto(CipherMode mode) {
    return BY_CIPHER_MODE.get(mode);
  }
}
