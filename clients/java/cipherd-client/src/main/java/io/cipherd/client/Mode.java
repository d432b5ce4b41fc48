package io.cipherd.client;

/**
 * The mode of a key version, by its name in a ciphertext header (the proto enum's name without
 * MODE_, lowercase). HMAC names index keys, which make blind indexes, and FF1 format-preserving
 * keys: neither appears in a header.
 */
public enum Mode {
  GCM,
  CHACHA,
  CBC,
  CTR,
  CFB,
  OFB,
  ECB,
  XGCM,
  SIV,
  HMAC,
  /** A format-preserving key ({@link FormattedValues}): its values carry no header. */
  FF1;

  /** The name a ciphertext header carries, e.g. "gcm". */
  public String headerName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Whether ciphertexts can name this mode: every mode but HMAC, which never encrypts, and FF1,
   * whose values carry no header.
   */
  public boolean inHeaders() {
    return this != HMAC && this != FF1;
  }

  /** Whether this mode can produce a payload of {@code length} bytes (proto/README.md). */
  boolean payloadLengthOk(int length) {
    return switch (this) {
      case GCM, CHACHA -> length >= 28;
      case XGCM -> length >= 40;
      case CBC -> length >= 32 && length % 16 == 0;
      case ECB -> length >= 16 && length % 16 == 0;
      case HMAC, FF1 -> false;
      default -> length >= 16;
    };
  }

  /** The mode whose header name is {@code name}, or null. */
  static Mode fromHeaderName(String name) {
    for (Mode mode : values()) {
      if (mode.headerName().equals(name)) {
        return mode;
      }
    }
    return null;
  }

  static Mode fromProto(io.cipherd.api.v1.Mode mode) {
    return switch (mode) {
      case MODE_UNSPECIFIED, UNRECOGNIZED -> null;
      default -> valueOf(mode.name().substring("MODE_".length()));
    };
  }

  io.cipherd.api.v1.Mode toProto() {
    return io.cipherd.api.v1.Mode.valueOf("MODE_" + name());
  }
}
