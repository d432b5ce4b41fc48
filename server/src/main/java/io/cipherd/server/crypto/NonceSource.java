package io.cipherd.server.crypto;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Random IVs and nonces without a shared lock: each thread gets its own DRBG, seeded from the
 * operating system. One shared {@code SecureRandom} would serialise every encrypt on its monitor.
 *
 * <p>IVs are drawn from the DRBG {@value #BLOCK} bytes at a time and handed out in order, each byte
 * once: a draw costs about as much (and allocates as much, ~180 bytes) for 12 bytes as for 512. IVs
 * are public, as they travel in the ciphertext, so holding the next few in memory exposes nothing.
 * Key material never comes from this buffer: {@link #bytes} draws it fresh.
 */
public final class NonceSource {
  /** Bytes drawn from the DRBG at a time for IVs: 42 GCM nonces. */
  static final int BLOCK = 512;

  private static final ThreadLocal<NonceSource> THREAD = ThreadLocal.withInitial(NonceSource::new);

  private final SecureRandom random = newDrbg();
  private final byte[] buffered = new byte[BLOCK];

  /** Index of the next unused byte of {@link #buffered}; BLOCK when all are used. */
  private int next = BLOCK;

  private NonceSource() {}

  /** Fills {@code length} bytes of {@code out} from {@code offset} with fresh random bytes. */
  public static void fill(byte[] out, int offset, int length) {
    if (length == 0) {
      return;
    }
    NonceSource source = THREAD.get();
    if (length > BLOCK) {
      byte[] bytes = new byte[length];
      source.random.nextBytes(bytes);
      System.arraycopy(bytes, 0, out, offset, length);
      return;
    }
    source.take(out, offset, length);
  }

  /** A new array of {@code length} random bytes straight from the DRBG, e.g. for key material. */
  public static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    THREAD.get().random.nextBytes(bytes);
    return bytes;
  }

  private void take(byte[] out, int offset, int length) {
    if (BLOCK - next < length) {
      random.nextBytes(buffered);
      next = 0;
    }
    System.arraycopy(buffered, next, out, offset, length);
    next += length;
  }

  private static SecureRandom newDrbg() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }
}
