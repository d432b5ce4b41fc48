package io.cipherd.server.crypto;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Random IVs and nonces without a shared lock: each thread gets its own DRBG, seeded from the
 * operating system. One shared {@code SecureRandom} would serialise every encrypt on its monitor.
 */
public final class NonceSource {
  private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(NonceSource::newDrbg);

  private NonceSource() {}

  /** Fills {@code length} bytes of {@code out} from {@code offset} with fresh random bytes. */
  public static void fill(byte[] out, int offset, int length) {
    if (length == 0) {
      return;
    }
    if (offset == 0 && length == out.length) {
      RANDOM.get().nextBytes(out);
      return;
    }
    byte[] bytes = new byte[length];
    RANDOM.get().nextBytes(bytes);
    System.arraycopy(bytes, 0, out, offset, length);
  }

  /** A new array of {@code length} random bytes, e.g. for key material. */
  public static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    RANDOM.get().nextBytes(bytes);
    return bytes;
  }

  private static SecureRandom newDrbg() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }
}
