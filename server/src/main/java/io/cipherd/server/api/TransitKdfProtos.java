package io.cipherd.server.api;

import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * Reads an import's {@code transit_kdf} into the key model's {@link TransitKdf}; {@link KeyProtos}
 * converts a version's the other way.
 */
final class TransitKdfProtos {
  private TransitKdfProtos() {}

  /** The KDF the import names; null for TRANSIT_KDF_UNSPECIFIED (not a derived Transit key). */
  static TransitKdf fromProto(ImportKeyRequest request) {
    return switch (request.getTransitKdf()) {
      case TRANSIT_KDF_UNSPECIFIED -> null;
      case TRANSIT_KDF_HMAC_SHA256_COUNTER -> TransitKdf.HMAC_SHA256_COUNTER;
      case TRANSIT_KDF_HKDF_SHA256 -> TransitKdf.HKDF_SHA256;
      case UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "transit_kdf is not a known cipherd.v1.TransitKdf value");
    };
  }

  /** A backed-up version's KDF; null for TRANSIT_KDF_UNSPECIFIED. */
  static TransitKdf fromProto(KeyVersion version) {
    return switch (version.getTransitKdf()) {
      case TRANSIT_KDF_UNSPECIFIED -> null;
      case TRANSIT_KDF_HMAC_SHA256_COUNTER -> TransitKdf.HMAC_SHA256_COUNTER;
      case TRANSIT_KDF_HKDF_SHA256 -> TransitKdf.HKDF_SHA256;
      case UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "transit_kdf is not a known cipherd.v1.TransitKdf value");
    };
  }
}
