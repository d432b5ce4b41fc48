package io.cipherd.server.api;

import io.cipherd.server.crypto.Mode;
import io.cipherd.server.errors.InvalidArgumentException;

/** Converts between the API's {@code cipherd.v1.Mode} and the crypto package's {@link Mode}. */
final class ModeProtos {
  private ModeProtos() {}

  /** The domain mode, or null for MODE_UNSPECIFIED (meaning "the default" to the caller's RPC). */
  static Mode fromProto(io.cipherd.api.v1.Mode mode) {
    return switch (mode) {
      case MODE_UNSPECIFIED -> null;
      case MODE_GCM -> Mode.GCM;
      case MODE_CHACHA -> Mode.CHACHA;
      case MODE_CBC -> Mode.CBC;
      case MODE_CTR -> Mode.CTR;
      case MODE_CFB -> Mode.CFB;
      case MODE_OFB -> Mode.OFB;
      case MODE_ECB -> Mode.ECB;
      case MODE_XGCM -> Mode.XGCM;
      case MODE_SIV -> Mode.SIV;
      case MODE_HMAC -> Mode.HMAC;
      case UNRECOGNIZED ->
          throw new InvalidArgumentException("mode is not a known cipherd.v1.Mode value");
    };
  }

  static io.cipherd.api.v1.Mode toProto(Mode mode) {
    return switch (mode) {
      case GCM -> io.cipherd.api.v1.Mode.MODE_GCM;
      case CHACHA -> io.cipherd.api.v1.Mode.MODE_CHACHA;
      case CBC -> io.cipherd.api.v1.Mode.MODE_CBC;
      case CTR -> io.cipherd.api.v1.Mode.MODE_CTR;
      case CFB -> io.cipherd.api.v1.Mode.MODE_CFB;
      case OFB -> io.cipherd.api.v1.Mode.MODE_OFB;
      case ECB -> io.cipherd.api.v1.Mode.MODE_ECB;
      case XGCM -> io.cipherd.api.v1.Mode.MODE_XGCM;
      case SIV -> io.cipherd.api.v1.Mode.MODE_SIV;
      case HMAC -> io.cipherd.api.v1.Mode.MODE_HMAC;
      // A legacy version has no cipherd mode; KeyVersion.legacy_cipher says what it is.
      case LEGACY -> io.cipherd.api.v1.Mode.MODE_UNSPECIFIED;
    };
  }
}
