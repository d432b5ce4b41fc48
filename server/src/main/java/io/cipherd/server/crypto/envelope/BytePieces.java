package io.cipherd.server.crypto.envelope;

import java.util.Base64;

/**
 * One thread's arrays for encoding a range of an array through the JDK's encoder, for {@link
 * StrictBase64#encode}. {@code Base64.Encoder.encode(byte[], byte[])} reads a whole array and
 * writes from index 0, so the bytes are copied into arrays of exact sizes, as few as possible:
 * pieces of 768, 384 and 192 bytes (whole groups of three, so no padding), then the rest (under
 * 192, padded if it must be) in an array of its own length, made the first time this thread sees
 * that length; each piece's base64 is copied to where it belongs. A payload of a few hundred bytes
 * takes one call. Nothing is allocated per call, and the arrays stay under 21 KiB per thread
 * whatever the input's length. They hold only sealed payloads and their base64, which are not
 * secret.
 */
final class BytePieces {
  /** Bytes encoded at a time: the largest piece, 1024 characters of base64. */
  static final int ROUND = 768;

  /** The smallest of the power-of-two pieces; a shorter rest gets an array of its own length. */
  static final int MIN_PIECE = 192;

  private static final Base64.Encoder JDK = Base64.getEncoder();
  private static final ThreadLocal<BytePieces> THREAD = ThreadLocal.withInitial(BytePieces::new);

  private final byte[] encoded = new byte[ROUND / 3 * 4];

  /** {@code pieces[k]} holds {@code MIN_PIECE << k} bytes, largest last. */
  private final byte[][] pieces;

  /** {@code rests[n]} holds {@code n} bytes, for each {@code n} under {@link #MIN_PIECE}. */
  private final byte[][] rests = new byte[MIN_PIECE][];

  private BytePieces() {
    int levels = Integer.numberOfTrailingZeros(ROUND / MIN_PIECE) + 1;
    pieces = new byte[levels][];
    for (int k = 0; k < levels; k++) {
      pieces[k] = new byte[MIN_PIECE << k];
    }
  }

  static BytePieces forThread() {
    return THREAD.get();
  }

  /**
   * Writes the padded base64 of {@code src[from, from + length)} into {@code dst} at {@code at};
   * returns the index after the last character written.
   */
  int encode(byte[] src, int from, int length, byte[] dst, int at) {
    int end = from + length;
    int out = at;
    for (int in = from; in < end; in += ROUND) {
      int round = Math.min(end - in, ROUND);
      int done = 0;
      // Largest piece first: each size fits at most once, as round is at most twice the largest.
      // Only the last round can have a rest, so only the end is padded.
      for (int k = pieces.length - 1; k >= 0; k--) {
        if (round - done >= pieces[k].length) {
          out = encodePiece(pieces[k], src, in + done, dst, out);
          done += pieces[k].length;
        }
      }
      if (done < round) {
        out = encodePiece(rest(round - done), src, in + done, dst, out);
      }
    }
    return out;
  }

  /** The array of exactly {@code length} bytes for a rest under {@link #MIN_PIECE}. */
  private byte[] rest(int length) {
    byte[] rest = rests[length];
    if (rest == null) {
      rest = new byte[length];
      rests[length] = rest;
    }
    return rest;
  }

  /**
   * Encodes {@code src[from, from + piece.length)} through {@code piece} into {@code dst} at {@code
   * out}; returns the index after the last character written.
   */
  private int encodePiece(byte[] piece, byte[] src, int from, byte[] dst, int out) {
    System.arraycopy(src, from, piece, 0, piece.length);
    int length = JDK.encode(piece, encoded);
    System.arraycopy(encoded, 0, dst, out, length);
    return out + length;
  }
}
