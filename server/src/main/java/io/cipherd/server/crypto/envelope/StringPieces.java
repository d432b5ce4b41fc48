package io.cipherd.server.crypto.envelope;

import java.util.Base64;

/**
 * One thread's arrays for decoding whole base64 quads held in a {@code String} through the JDK's
 * decoder, for {@link StrictBase64#decode(String, int, int, byte[], int)}. {@code
 * Base64.Decoder.decode(byte[], byte[])} reads a whole array and writes from index 0, so the
 * characters are copied as bytes into arrays of exact power-of-two sizes (one of each, {@value
 * #MIN_PIECE} to {@value #ROUND} bytes) and each decoded piece is copied to where it belongs: any
 * length decodes without allocating, in at most six calls per {@value #ROUND} characters. A rest
 * shorter than {@value #MIN_PIECE} is decoded by {@link StrictBase64#decodeQuads}.
 *
 * <p>Strictness is kept without trusting the JDK's leniency: a character above 0x7f fails the copy
 * (it is never read as its low byte), and a piece counts only if it decodes to its full length,
 * which no text holding '=' or a non-digit does (the JDK throws for those, or stops at the
 * padding). The arrays hold only ciphertext text and payload, which are not secret; they stay at
 * about 5 KiB per thread whatever the input's length.
 */
final class StringPieces {
  /** Characters copied out of the string at a time. */
  static final int ROUND = 1024;

  /** The shortest piece handed to the JDK: below it, the call costs more than the loop saves. */
  static final int MIN_PIECE = 32;

  private static final Base64.Decoder JDK = Base64.getDecoder();
  private static final ThreadLocal<StringPieces> THREAD =
      ThreadLocal.withInitial(StringPieces::new);

  private final char[] chars = new char[ROUND];

  /** {@code exact[k]} holds {@code MIN_PIECE << k} bytes, largest last. */
  private final byte[][] exact;

  private final byte[] rest = new byte[MIN_PIECE];
  private final byte[] decoded = new byte[ROUND / 4 * 3];

  private StringPieces() {
    int levels = Integer.numberOfTrailingZeros(ROUND / MIN_PIECE) + 1;
    exact = new byte[levels][];
    for (int k = 0; k < levels; k++) {
      exact[k] = new byte[MIN_PIECE << k];
    }
  }

  static StringPieces forThread() {
    return THREAD.get();
  }

  /**
   * Decodes the whole quads {@code src[from, end)} ({@code end - from} a multiple of 4, no padding
   * allowed) into {@code dst} at {@code out}; returns the index after the last byte written, or -1
   * if a character is not a digit.
   */
  int decode(String src, int from, int end, byte[] dst, int out) {
    for (int in = from; in < end; in += ROUND) {
      int round = Math.min(end - in, ROUND);
      src.getChars(in, in + round, chars, 0);
      int done = 0;
      // Largest piece first: each size fits at most once, as round is at most twice the largest.
      for (int k = exact.length - 1; k >= 0; k--) {
        byte[] piece = exact[k];
        if (round - done < piece.length) {
          continue;
        }
        if (!copyAscii(chars, done, piece, piece.length)) {
          return -1;
        }
        int length = decodeWhole(piece);
        if (length != piece.length / 4 * 3) {
          return -1;
        }
        System.arraycopy(decoded, 0, dst, out, length);
        out += length;
        done += piece.length;
      }
      int left = round - done;
      if (!copyAscii(chars, done, rest, left)) {
        return -1;
      }
      out = StrictBase64.decodeQuads(rest, 0, left, dst, out);
      if (out < 0) {
        return -1;
      }
    }
    return out;
  }

  /** {@code piece} decoded by the JDK into {@link #decoded}: its length, or -1 if it refused. */
  private int decodeWhole(byte[] piece) {
    try {
      return JDK.decode(piece, decoded);
    } catch (IllegalArgumentException e) {
      // Its message quotes the offending character: dropped, the caller says what is wrong.
      return -1;
    }
  }

  /**
   * Copies {@code chars[from, from + length)} into {@code bytes} from index 0, one byte per
   * character; false if any is above 0x7f, when the bytes must not be used (each holds only the low
   * bits of its character).
   */
  private static boolean copyAscii(char[] chars, int from, byte[] bytes, int length) {
    int all = 0;
    for (int i = 0; i < length; i++) {
      char c = chars[from + i];
      all |= c;
      bytes[i] = (byte) c;
    }
    return all < 0x80;
  }
}
