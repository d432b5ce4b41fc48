package io.cipherd.server.crypto.transit;

import com.google.crypto.tink.subtle.Hkdf;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CryptoProviderException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a version of a derived Vault Transit key ({@code derived=true}) turns a request's context
 * into the key that sealed the ciphertext: Transit's {@code kdf}, as its key info names it. The
 * version's own bytes never seal anything; each context has its key.
 */
public enum TransitKdf {
  /**
   * Transit's kdf 0, {@code hmac-sha256-counter}: NIST SP 800-108 counter mode over HMAC-SHA-256,
   * each block {@code HMAC(master, counter(4, big-endian, from 0) ‖ context ‖ 256 (4,
   * big-endian))}. Transit always asks it for 256 bits, and an AES-128 key takes the first 16
   * bytes.
   */
  HMAC_SHA256_COUNTER("hmac-sha256-counter") {
    @Override
    byte[] derive(byte[] master, Bytes context, int length) {
      try {
        Mac mac = Mac.getInstance(HMAC_SHA256);
        mac.init(new SecretKeySpec(master, HMAC_SHA256));
        // 256 bits is one HMAC-SHA-256 block: counter 0 only.
        mac.update(ByteBuffer.allocate(4).putInt(0).array());
        mac.update(context.array(), context.offset(), context.length());
        mac.update(ByteBuffer.allocate(4).putInt(COUNTER_OUTPUT_BITS).array());
        byte[] block = mac.doFinal();
        try {
          return Arrays.copyOf(block, length);
        } finally {
          Arrays.fill(block, (byte) 0);
        }
      } catch (GeneralSecurityException e) {
        throw new CryptoProviderException(HMAC_SHA256, e);
      }
    }
  },

  /**
   * Transit's kdf 1, {@code hkdf_sha256}: HKDF-SHA-256 (RFC 5869), no salt, the context as info.
   */
  HKDF_SHA256("hkdf_sha256") {
    @Override
    byte[] derive(byte[] master, Bytes context, int length) {
      try {
        return Hkdf.computeHkdf("HMACSHA256", master, /* salt= */ null, context.toArray(), length);
      } catch (GeneralSecurityException e) {
        throw new CryptoProviderException("HKDF-SHA-256", e);
      }
    }
  };

  private static final String HMAC_SHA256 = "HmacSHA256";
  private static final int COUNTER_OUTPUT_BITS = 256;

  private final String storeName;

  TransitKdf(String storeName) {
    this.storeName = storeName;
  }

  /** Transit's own name of the KDF ({@code kdf} in its key info), as both key stores keep it. */
  public String storeName() {
    return storeName;
  }

  /** The KDF Transit names {@code name}, or null if there is none by that name. */
  public static TransitKdf fromStoreName(String name) {
    for (TransitKdf kdf : values()) {
      if (kdf.storeName.equals(name)) {
        return kdf;
      }
    }
    return null;
  }

  /**
   * The {@code length}-byte key (16 or 32) of {@code context} under the version's bytes {@code
   * master}; the caller wipes it. {@code context} must not be empty: Transit refuses to derive from
   * none.
   */
  public byte[] key(byte[] master, Bytes context, int length) {
    if (context.length() == 0) {
      throw new IllegalArgumentException("a derived Transit key needs a context");
    }
    if (length != 16 && length != 32) {
      throw new IllegalArgumentException(
          "Transit's derived keys are 16 or 32 bytes, not " + length);
    }
    return derive(master, context, length);
  }

  abstract byte[] derive(byte[] master, Bytes context, int length);
}
