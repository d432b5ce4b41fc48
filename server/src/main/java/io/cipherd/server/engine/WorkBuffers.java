package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.Bytes;
import java.util.Arrays;

/**
 * Arrays that one thread's crypto operations reuse instead of allocating per call: the request's
 * bytes (plaintext or ciphertext text, then context), the payload, and a decrypted plaintext. An
 * operation takes them at its start and must wipe what it wrote of {@link #input} and {@link
 * #plaintext} before it returns, so no plaintext outlives the call that brought it.
 *
 * <p>Operations run one at a time per thread and never call each other's public entry points, so
 * one set per thread is enough. Buffers grow to the largest item seen up to {@link #MAX_KEPT}
 * bytes; a larger item gets arrays of its own, so one huge request does not pin memory on every
 * thread it ever ran on.
 */
final class WorkBuffers {
  /** Items up to this size reuse the thread's arrays; larger ones allocate. */
  static final int MAX_KEPT = 64 * 1024;

  private static final int INITIAL = 1024;
  private static final ThreadLocal<WorkBuffers> THREAD = ThreadLocal.withInitial(WorkBuffers::new);

  private final Reused input = new Reused();
  private final Reused payload = new Reused();
  private final Reused plaintext = new Reused();

  static WorkBuffers forThread() {
    return THREAD.get();
  }

  /**
   * An array of at least {@code length} bytes for the request's plaintext or text, then its
   * context.
   */
  byte[] input(int length) {
    return input.atLeast(length);
  }

  /** An array of at least {@code length} bytes for an encrypted payload (IV, ciphertext, tag). */
  byte[] payload(int length) {
    return payload.atLeast(length);
  }

  /** An array of at least {@code length} bytes for a decrypted plaintext. */
  byte[] plaintext(int length) {
    return plaintext.atLeast(length);
  }

  /** Work on a request laid out in the thread's input buffer as {@code text ‖ context}. */
  @FunctionalInterface
  interface InputWork<T> {
    T apply(Bytes text, Bytes context, WorkBuffers buffers);
  }

  /**
   * Copies {@code text ‖ context} into this thread's input buffer, runs {@code work} on it, and
   * wipes what was copied before returning, whether {@code work} succeeded or threw.
   */
  static <T> T withInput(ByteString text, ByteString context, InputWork<T> work) {
    WorkBuffers buffers = forThread();
    int textLength = text.size();
    int used = textLength + context.size();
    byte[] input = buffers.input(used);
    try {
      text.copyTo(input, 0);
      context.copyTo(input, textLength);
      return work.apply(
          new Bytes(input, 0, textLength), new Bytes(input, textLength, context.size()), buffers);
    } finally {
      wipe(input, used);
    }
  }

  /** Overwrites the first {@code length} bytes of {@code array} with zeros. */
  static void wipe(byte[] array, int length) {
    Arrays.fill(array, 0, length, (byte) 0);
  }

  /** One reused array: grown to the largest item seen up to {@link #MAX_KEPT}, never beyond it. */
  private static final class Reused {
    private byte[] array = new byte[INITIAL];

    byte[] atLeast(int length) {
      if (length <= array.length) {
        return array;
      }
      // What the old array held was wiped by its users; a larger item than MAX_KEPT gets its own.
      byte[] grown = new byte[Math.max(length, Math.min(MAX_KEPT, array.length * 2))];
      if (length <= MAX_KEPT) {
        array = grown;
      }
      return grown;
    }
  }
}
