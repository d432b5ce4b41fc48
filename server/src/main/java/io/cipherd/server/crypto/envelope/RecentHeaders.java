package io.cipherd.server.crypto.envelope;

import java.util.Arrays;

/**
 * The headers parsed lately, so the ciphertexts of a hot key parse without allocating: a header's
 * bytes that equal a remembered header's ASCII form are that header, as parsing reads nothing past
 * the closing '>'. Only headers that parsed are remembered, in a fixed number of slots, so hostile
 * input can at worst evict them. Headers are immutable (final fields), so a slot read without a
 * lock sees a whole header or null.
 */
final class RecentHeaders {
  private static final int SLOTS = 64;

  private final EnvelopeHeader[] slots = new EnvelopeHeader[SLOTS];

  /** The remembered header whose ASCII form is {@code text[from, from + length)}, or null. */
  EnvelopeHeader find(byte[] text, int from, int length) {
    EnvelopeHeader header = slots[slot(text, from, length)];
    if (header == null) {
      return null;
    }
    byte[] ascii = header.asciiBytes();
    return Arrays.equals(ascii, 0, ascii.length, text, from, from + length) ? header : null;
  }

  void remember(EnvelopeHeader header) {
    byte[] ascii = header.asciiBytes();
    slots[slot(ascii, 0, ascii.length)] = header;
  }

  private static int slot(byte[] text, int from, int length) {
    int hash = length;
    for (int i = from; i < from + length; i++) {
      hash = hash * 31 + text[i];
    }
    return (hash ^ (hash >>> 16)) & (SLOTS - 1);
  }
}
