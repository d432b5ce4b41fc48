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

  /**
   * The remembered header that {@code text} starts with, {@code length} characters long, or null;
   * read in place, for a ciphertext as protobuf delivers it.
   */
  EnvelopeHeader find(String text, int length) {
    int hash = length;
    for (int i = 0; i < length; i++) {
      hash = hash * 31 + text.charAt(i);
    }
    EnvelopeHeader header = slots[slot(hash)];
    return header != null && header.length() == length && text.startsWith(header.text())
        ? header
        : null;
  }

  void remember(EnvelopeHeader header) {
    byte[] ascii = header.asciiBytes();
    slots[slot(ascii, 0, ascii.length)] = header;
  }

  /** The slot of a header's bytes; the same as of its characters, as a header is ASCII. */
  private static int slot(byte[] text, int from, int length) {
    int hash = length;
    for (int i = from; i < from + length; i++) {
      hash = hash * 31 + text[i];
    }
    return slot(hash);
  }

  private static int slot(int hash) {
    return (hash ^ (hash >>> 16)) & (SLOTS - 1);
  }
}
