package io.cipherd.server.api;

import com.google.common.base.Utf8;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * The largest plaintext the server encrypts: one whose ciphertext, with the item's context and
 * reference, always fits in the requests that bring it back (Decrypt, ReEncrypt, ReIndex, a batch
 * item, a stream item) under the server's message size limit, so no ciphertext it makes is
 * write-only.
 *
 * <p>A ciphertext is bounded as if made in the mode that expands most (a 24-byte nonce and a
 * 16-byte tag) under the longest header ({@link Envelope#MAX_HEADER_BYTES}), so it still fits after
 * a rewrap to any key. Every other field of those requests (a target or index key name, an expected
 * key, a normalization, the framing of each field) gets {@link #OTHER_FIELDS} bytes; a batch, per
 * item, {@link #ITEM_FIELDS}, and once {@link #BATCH_FIELDS}.
 */
public final class PlaintextLimit {
  /**
   * Room for the fields of a unary or stream request besides ciphertext, context and reference, and
   * for the framing of every field: 2 key names of 64 characters with a '*' and their tags (134), a
   * normalization and an index length (19), and 3 length-prefixed fields' tags and lengths (18),
   * rounded up; also a one-item batch's {@link #ITEM_FIELDS} plus {@link #BATCH_FIELDS}.
   */
  static final int OTHER_FIELDS = 256;

  /** Room per batch item: its own tag and length, its 3 fields' framing, its expected key. */
  static final int ITEM_FIELDS = 96;

  /** Room per batch request: a key name, an expected key, a normalization, an index length. */
  static final int BATCH_FIELDS = OTHER_FIELDS - ITEM_FIELDS;

  /**
   * The most bytes a batch item's error result takes besides its reference: an item error's code,
   * its message (at most {@link StatusMapper#MAX_ITEM_MESSAGE_BYTES}), its reason, and framing.
   */
  static final int ERROR_RESULT = 320;

  private final int maxMessageBytes;
  private final int maxPlaintext;

  /** The limit under {@code maxMessageBytes}, the transport's largest request. */
  public PlaintextLimit(int maxMessageBytes) {
    if (maxMessageBytes < 1024) {
      throw new IllegalArgumentException(
          "max message size must be at least 1024 bytes, got " + maxMessageBytes);
    }
    this.maxMessageBytes = maxMessageBytes;
    this.maxPlaintext = largest(0);
  }

  /** The transport's largest request, in bytes. */
  public int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** The largest plaintext of an item without context or reference. */
  public int maxPlaintext() {
    return maxPlaintext;
  }

  /**
   * The largest plaintext whose ciphertext fits with {@code extra} bytes of context and reference;
   * -1 if none does.
   */
  public int largest(long extra) {
    // room for the ciphertext = header + 4 * ceil(payload / 3), and payload = plaintext + 40 at
    // most
    // (xgcm's nonce and tag; cbc and ecb add 32 at most): solved for the plaintext.
    long room = maxMessageBytes - OTHER_FIELDS - extra - Envelope.MAX_HEADER_BYTES;
    if (room < 0) {
      return -1;
    }
    long plaintext = room / 4 * 3 - WORST_EXPANSION;
    while (plaintext >= 0 && ciphertextBound(plaintext) > room + Envelope.MAX_HEADER_BYTES) {
      plaintext--;
    }
    return (int) Math.max(-1, plaintext);
  }

  /**
   * Every mode, read per batch item: {@code CipherMode.values()} copies its array on each call, 7 %
   * of EncryptBatch-256's allocation when it ran per item.
   */
  private static final CipherMode[] MODES = CipherMode.values();

  /**
   * Most bytes of a ciphertext of a {@code plaintext}-byte plaintext, in any mode, under any key.
   */
  static long ciphertextBound(long plaintext) {
    long payload = 0;
    for (CipherMode mode : MODES) {
      payload = Math.max(payload, mode.payloadLength((int) Math.min(plaintext, Integer.MAX_VALUE)));
    }
    return Envelope.MAX_HEADER_BYTES + (payload + 2) / 3 * 4;
  }

  /** The most a mode adds to a plaintext, over all modes and plaintext lengths. */
  private static final int WORST_EXPANSION = worstExpansion();

  private static int worstExpansion() {
    int worst = 0;
    for (CipherMode mode : CipherMode.values()) {
      // Padding repeats every block: 16 lengths show every case.
      for (int length = 0; length < 16; length++) {
        worst = Math.max(worst, mode.payloadLength(length) - length);
      }
    }
    return worst;
  }

  /**
   * Throws {@link InvalidArgumentException} unless a {@code plaintext}-byte plaintext's ciphertext
   * fits with {@code context} bytes of context and {@code reference} bytes of reference.
   */
  void check(int plaintext, int context, int reference) {
    if (ciphertextBound(plaintext) + (long) context + reference + OTHER_FIELDS <= maxMessageBytes) {
      return;
    }
    throw tooLarge(plaintext, context, reference);
  }

  /**
   * As {@link #check(int, int, int)} with the reference's text: its exact UTF-8 length is read only
   * when the bound of three bytes per character would not fit, which a batch item's reference
   * almost never comes near.
   */
  void check(int plaintext, int context, String reference) {
    if (ciphertextBound(plaintext) + (long) context + utf8LengthBound(reference) + OTHER_FIELDS
        <= maxMessageBytes) {
      return;
    }
    check(plaintext, context, utf8Length(reference));
  }

  private InvalidArgumentException tooLarge(int plaintext, int context, int reference) {
    String with =
        context == 0 && reference == 0
            ? ""
            : " with this "
                + (reference == 0 ? "" : "reference (" + reference + " bytes) and ")
                + "context ("
                + context
                + " bytes)";
    int largest = largest((long) context + reference);
    return new InvalidArgumentException(
        "plaintext is "
            + plaintext
            + " bytes; the largest this server encrypts"
            + with
            + " is "
            + Math.max(0, largest)
            + " bytes, so that its ciphertext fits a "
            + maxMessageBytes
            + "-byte request to decrypt it; encrypt larger data with a data key"
            + " (GenerateDataKey, proto/README.md \"Data keys\")");
  }

  /**
   * As {@link #checkRewrapped(int, int, int)} with the reference's text, read as {@link #check(int,
   * int, String)} reads it.
   */
  void checkRewrapped(int ciphertext, int context, String reference) {
    if ((long) ciphertext + context + utf8LengthBound(reference) + OTHER_FIELDS
        <= maxMessageBytes) {
      return;
    }
    checkRewrapped(ciphertext, context, utf8Length(reference));
  }

  /**
   * Throws {@link InvalidArgumentException} unless a new {@code ciphertext}-byte ciphertext (a
   * rewrap's) fits with {@code context} bytes of context and {@code reference} bytes of reference:
   * a ciphertext made before this limit, or under a larger one, is not rewrapped into one that
   * could not be sent back.
   */
  void checkRewrapped(int ciphertext, int context, int reference) {
    if ((long) ciphertext + context + reference + OTHER_FIELDS <= maxMessageBytes) {
      return;
    }
    throw new InvalidArgumentException(
        "the rewrapped ciphertext would be "
            + ciphertext
            + " bytes, too large to send back with its "
            + (reference == 0 ? "" : "reference and ")
            + "context in a "
            + maxMessageBytes
            + "-byte request (the largest plaintext this server encrypts is "
            + maxPlaintext
            + " bytes); decrypt it and encrypt the data with a data key"
            + " (GenerateDataKey, proto/README.md \"Data keys\")");
  }

  /**
   * Room a batch item takes in the batch's results, and in a DecryptBatch or ReEncryptBatch of
   * them: its ciphertext with its context, or its error result, whichever is larger, and its
   * reference. An item over the limit on its own counts as the error it gets.
   */
  long itemBound(int plaintext, int context, int reference) {
    long ciphertext = ciphertextBound(plaintext);
    boolean fits = ciphertext + context + reference + OTHER_FIELDS <= maxMessageBytes;
    return Math.max(fits ? ciphertext + context : 0, ERROR_RESULT) + reference + (long) ITEM_FIELDS;
  }

  /**
   * The UTF-8 length of {@code text} (a reference), as protobuf encodes it: an unpaired surrogate,
   * which only a request built in this process can hold, counts 3 bytes.
   */
  static int utf8Length(String text) {
    try {
      return Utf8.encodedLength(text);
    } catch (IllegalArgumentException unpaired) {
      return text.length() * 3;
    }
  }

  /** At least {@link #utf8Length} of {@code text}, without reading it: 3 bytes per UTF-16 unit. */
  private static long utf8LengthBound(String text) {
    return 3L * text.length();
  }

  /** The sizes of an EncryptBatch's items, which its results take in a DecryptBatch of them. */
  interface BatchItemSizes {
    int count();

    int plaintext(int i);

    int context(int i);

    String reference(int i);
  }

  /**
   * Throws {@link InvalidArgumentException} unless the results of an EncryptBatch whose items take
   * {@code items}, and a DecryptBatch or ReEncryptBatch of them with their references and contexts,
   * fit in a message. The references' exact UTF-8 lengths are read only when a bound of three bytes
   * per character would not fit.
   */
  void checkBatch(BatchItemSizes items) {
    long atMost = BATCH_FIELDS;
    for (int i = 0; i < items.count(); i++) {
      // itemBound without its "fits on its own" test, which can only make it smaller.
      atMost +=
          Math.max(ciphertextBound(items.plaintext(i)) + items.context(i), ERROR_RESULT)
              + utf8LengthBound(items.reference(i))
              + ITEM_FIELDS;
    }
    if (atMost <= maxMessageBytes) {
      return;
    }
    long total = BATCH_FIELDS;
    int fitting = -1;
    for (int i = 0; i < items.count(); i++) {
      total += itemBound(items.plaintext(i), items.context(i), utf8Length(items.reference(i)));
      if (total > maxMessageBytes && fitting < 0) {
        fitting = i;
      }
    }
    if (fitting < 0) {
      return;
    }
    throw new InvalidArgumentException(
        "batch of "
            + items.count()
            + " items is too large: their ciphertexts, with their references and contexts, may"
            + " take up to "
            + total
            + " bytes in a DecryptBatch or ReEncryptBatch request, over this server's "
            + maxMessageBytes
            + "-byte limit; the first "
            + fitting
            + " items fit: send the rest in another batch, or use EncryptStream");
  }
}
