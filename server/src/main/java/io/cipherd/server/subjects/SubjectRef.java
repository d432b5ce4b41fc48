package io.cipherd.server.subjects;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The opaque reference a subject-bound ciphertext carries to its subject key: 16 random bytes,
 * drawn when the subject key is made, never derived from the subject's id (a hash of an email
 * address is brute-forced in seconds). It names the key, not the person.
 */
public final class SubjectRef {
  public static final int LENGTH = 16;

  private final byte[] bytes;

  private SubjectRef(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A fresh reference. */
  public static SubjectRef random(SecureRandom random) {
    byte[] bytes = new byte[LENGTH];
    random.nextBytes(bytes);
    return new SubjectRef(bytes);
  }

  /** The reference of these {@value #LENGTH} bytes (copied). */
  public static SubjectRef of(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("a subject reference is " + LENGTH + " bytes");
    }
    return new SubjectRef(bytes.clone());
  }

  /** A copy of the bytes. */
  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SubjectRef other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** Hex, for tests and operators' tools; a reference is not personal data. */
  @Override
  public String toString() {
    return HexFormat.of().formatHex(bytes);
  }
}
