package io.cipherd.server.subjects;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * How the subject store names a subject: HMAC-SHA-256 of the caller's subject id under a secret the
 * key store keeps, 32 bytes. The raw id is never stored, logged or audited; without the secret the
 * hash cannot be tested against guessed ids.
 */
public final class SubjectHash {
  public static final int LENGTH = 32;

  private final byte[] bytes;

  private SubjectHash(byte[] bytes) {
    this.bytes = bytes;
  }

  /** The hash of these {@value #LENGTH} bytes (copied). */
  public static SubjectHash of(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("a subject hash is " + LENGTH + " bytes");
    }
    return new SubjectHash(bytes.clone());
  }

  /** A copy of the bytes. */
  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SubjectHash other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** The first 8 bytes in hex: enough to tell two apart in a test's message. */
  @Override
  public String toString() {
    return HexFormat.of().formatHex(bytes, 0, 8) + "…";
  }
}
