package io.cipherd.server.subjects;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The opaque reference a subject-bound ciphertext carries to its subject key: 16 random bytes,
 * drawn when the subject key is made, never derived from the subject's id (a hash of an email
 * address is brute-forced in seconds). It names the key, not the person.
 *
 * <p>The bytes are held as two longs, read straight out of the ciphertext's payload: a
 * subject-bound item looks its key up by reference, and two fields hash and compare without the
 * array (and the cache miss to reach it) that a key of 256 subjects' references would add per item.
 */
public final class SubjectRef {
  public static final int LENGTH = 16;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final long high;
  private final long low;

  private SubjectRef(long high, long low) {
    this.high = high;
    this.low = low;
  }

  /** A fresh reference. */
  public static SubjectRef random(SecureRandom random) {
    byte[] bytes = new byte[LENGTH];
    random.nextBytes(bytes);
    return of(bytes);
  }

  /** The reference of these {@value #LENGTH} bytes. */
  public static SubjectRef of(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("a subject reference is " + LENGTH + " bytes");
    }
    return read(bytes, 0);
  }

  /** The reference in {@code array[offset, offset + LENGTH)}. */
  public static SubjectRef read(byte[] array, int offset) {
    return new SubjectRef((long) LONGS.get(array, offset), (long) LONGS.get(array, offset + 8));
  }

  /** Its bytes, in a new array. */
  public byte[] bytes() {
    byte[] bytes = new byte[LENGTH];
    LONGS.set(bytes, 0, high);
    LONGS.set(bytes, 8, low);
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SubjectRef other && high == other.high && low == other.low;
  }

  @Override
  public int hashCode() {
    // Random bytes: any of their bits hash as well as all of them.
    return Long.hashCode(high ^ low);
  }

  /** Hex, for tests and operators' tools; a reference is not personal data. */
  @Override
  public String toString() {
    return HexFormat.of().formatHex(bytes());
  }
}
