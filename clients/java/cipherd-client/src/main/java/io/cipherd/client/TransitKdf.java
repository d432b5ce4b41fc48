package io.cipherd.client;

/**
 * How a version imported from a derived Vault Transit key ({@code derived=true}) derives each
 * context's key (proto/README.md, "Vault Transit ciphertexts"). Such a version only decrypts
 * Transit's {@code vault:vN:} ciphertexts, with the call's context as Transit's context, and never
 * encrypts.
 */
public enum TransitKdf {
  /** Transit's kdf 1, {@code hkdf_sha256}: every derived key Transit makes now. */
  HKDF_SHA256("hkdf_sha256"),
  /** Transit's kdf 0, {@code hmac-sha256-counter}: keys made before Vault 0.9. */
  HMAC_SHA256_COUNTER("hmac-sha256-counter");

  private final String transitName;

  TransitKdf(String transitName) {
    this.transitName = transitName;
  }

  /** Transit's name of the KDF, as its key info gives it in {@code kdf}. */
  public String transitName() {
    return transitName;
  }

  /** The KDF Transit names {@code name}; IllegalArgumentException for another name. */
  public static TransitKdf ofTransitName(String name) {
    for (TransitKdf kdf : values()) {
      if (kdf.transitName.equals(name)) {
        return kdf;
      }
    }
    throw new IllegalArgumentException(
        "Transit's KDFs are hkdf_sha256 and hmac-sha256-counter, not " + name);
  }

  io.cipherd.api.v1.TransitKdf toProto() {
    return io.cipherd.api.v1.TransitKdf.valueOf("TRANSIT_KDF_" + name());
  }

  /** The KDF of a version; null for one not derived from Transit, or one newer than this client. */
  static TransitKdf fromProto(io.cipherd.api.v1.TransitKdf kdf) {
    return switch (kdf) {
      case TRANSIT_KDF_UNSPECIFIED, UNRECOGNIZED -> null;
      default -> valueOf(kdf.name().substring("TRANSIT_KDF_".length()));
    };
  }
}
