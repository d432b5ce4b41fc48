package io.cipherd.server.crypto;

import java.util.Arrays;
import java.util.Objects;

/**
 * A slice {@code array[offset, offset + length)} of bytes on the hot path: a request's plaintext or
 * context, a decoded payload, each where it already lies (a protobuf buffer copied once into the
 * thread's work buffers, or the work buffers themselves). It never copies: whoever made the array
 * owns it, and the slice only says which part to read. As Tink's AEADs take {@code ByteBuffer}s,
 * but with the array at hand for the JCE's {@code (array, offset, length)} methods.
 */
public record Bytes(byte[] array, int offset, int length) {
  /** No bytes: an absent context. */
  public static final Bytes EMPTY = new Bytes(new byte[0], 0, 0);

  /** Checks that the slice lies inside {@code array}. */
  public Bytes {
    Objects.checkFromIndexSize(offset, length, array.length);
  }

  /** All of {@code array}; {@link #EMPTY} for null. */
  public static Bytes of(byte[] array) {
    return array == null ? EMPTY : new Bytes(array, 0, array.length);
  }

  /** Index just past the slice's last byte. */
  public int end() {
    return offset + length;
  }

  public boolean isEmpty() {
    return length == 0;
  }

  /** A copy of the slice's bytes, for the few callers that must own them. */
  public byte[] toArray() {
    return Arrays.copyOfRange(array, offset, offset + length);
  }

  /** Overwrites the slice with zeros. */
  public void wipe() {
    Arrays.fill(array, offset, offset + length, (byte) 0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes b && Arrays.equals(array, offset, end(), b.array, b.offset, b.end());
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (int i = offset; i < end(); i++) {
      h = 31 * h + array[i];
    }
    return h;
  }

  /** The length only: a slice may hold a plaintext or key, which must never reach a log. */
  @Override
  public String toString() {
    return "Bytes[" + length + " bytes]";
  }
}
