package io.cipherd.server.crypto.envelope;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * One thread's arrays for decoding whole base64 quads held in a {@code String} through the JDK's
 * decoder, for {@link StrictBase64#decode(String, int, int, byte[], int)}. {@code
 * Base64.Decoder.decode(byte[], byte[])} reads a whole array and writes from index 0, and each call
 * costs some 20-30 ns before its vector loop starts, so the characters are copied as bytes into
 * arrays of exact sizes, as few as possible: pieces of 1024, 512 and 256 characters, then the rest
 * (under 256) in an array of its own length, made the first time this thread sees that length. A
 * ciphertext of a few hundred bytes takes one call; each decoded piece is copied to where it
 * belongs. Nothing is allocated per call, and the arrays stay under 12 KiB per thread whatever the
 * input's length.
 *
 * <p>The characters are copied by {@code getChars} and narrowed to bytes by the JDK's US-ASCII
 * encoder (both vector intrinsics; a plain narrowing loop is not vectorized and cost more than the
 * decoding). Strictness is kept without trusting the JDK decoder's leniency: a character above 0x7f
 * stops the encoder (it is never read as its low byte), and a piece counts only if it decodes to
 * its full length, which no text holding '=' or a non-digit does (the JDK throws for those, or
 * stops at the padding). The arrays hold only ciphertext text and payload, which are not secret.
 */
final class StringPieces {
  /** Characters copied out of the string at a time: the largest piece. */
  static final int ROUND = 1024;

  /** The smallest of the power-of-two pieces; a shorter rest gets an array of its own length. */
  static final int MIN_PIECE = 256;

  private static final Base64.Decoder JDK = Base64.getDecoder();
  private static final ThreadLocal<StringPieces> THREAD =
      ThreadLocal.withInitial(StringPieces::new);

  private final char[] chars = new char[ROUND];
  private final byte[] ascii = new byte[ROUND];
  private final CharBuffer charView = CharBuffer.wrap(chars);
  private final ByteBuffer asciiView = ByteBuffer.wrap(ascii);
  private final CharsetEncoder toAscii = StandardCharsets.US_ASCII.newEncoder();
  private final byte[] decoded = new byte[ROUND / 4 * 3];

  /** {@code pieces[k]} holds {@code MIN_PIECE << k} bytes, largest last. */
  private final byte[][] pieces;

  /** {@code rests[n / 4]} holds {@code n} bytes, for each {@code n} under {@link #MIN_PIECE}. */
  private final byte[][] rests = new byte[MIN_PIECE / 4][];

  private StringPieces() {
    int levels = Integer.numberOfTrailingZeros(ROUND / MIN_PIECE) + 1;
    pieces = new byte[levels][];
    for (int k = 0; k < levels; k++) {
      pieces[k] = new byte[MIN_PIECE << k];
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
      if (!copyAscii(src, in, round)) {
        return -1;
      }
      int done = 0;
      // Largest piece first: each size fits at most once, as round is at most twice the largest.
      for (int k = pieces.length - 1; k >= 0 && out >= 0; k--) {
        if (round - done >= pieces[k].length) {
          out = decodePiece(pieces[k], done, dst, out);
          done += pieces[k].length;
        }
      }
      if (out >= 0 && done < round) {
        out = decodePiece(rest(round - done), done, dst, out);
      }
      if (out < 0) {
        return -1;
      }
    }
    return out;
  }

  /** The array of exactly {@code length} bytes for a rest under {@link #MIN_PIECE}. */
  private byte[] rest(int length) {
    byte[] rest = rests[length / 4];
    if (rest == null) {
      rest = new byte[length];
      rests[length / 4] = rest;
    }
    return rest;
  }

  /**
   * Decodes {@code ascii[done, done + piece.length)} through {@code piece} into {@code dst} at
   * {@code out}; returns the index after the last byte written, or -1 if the JDK refused it or it
   * was not all digits.
   */
  private int decodePiece(byte[] piece, int done, byte[] dst, int out) {
    System.arraycopy(ascii, done, piece, 0, piece.length);
    int length;
    try {
      length = JDK.decode(piece, decoded);
    } catch (IllegalArgumentException e) {
      // Its message quotes the offending character: dropped, the caller says what is wrong.
      return -1;
    }
    if (length != piece.length / 4 * 3) {
      return -1;
    }
    System.arraycopy(decoded, 0, dst, out, length);
    return out + length;
  }

  /**
   * Copies {@code src[from, from + length)} into {@link #ascii} from index 0, one byte per
   * character; false if any character is above 0x7f, when the bytes must not be used.
   */
  private boolean copyAscii(String src, int from, int length) {
    src.getChars(from, from + length, chars, 0);
    charView.limit(length).position(0);
    asciiView.clear();
    toAscii.reset();
    CoderResult result = toAscii.encode(charView, asciiView, true);
    return result.isUnderflow() && asciiView.position() == length;
  }
}
