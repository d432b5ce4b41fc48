package io.cipherd.server.crypto.envelope;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Padded standard base64 (RFC 4648 section 4) between ranges of caller-given arrays, so a payload
 * can be encoded straight after its header in one output array and decoded from the middle of a
 * request's bytes. {@code java.util.Base64} only reads or writes whole arrays from index 0, or
 * allocates ByteBuffers; encoding, and decoding text held in a {@code String}, go through it
 * anyway, in exact-size pieces ({@link BytePieces}, {@link StringPieces}), as its vector intrinsics
 * are several times faster than a loop here. Decoding is strict: only padded, canonical text
 * decodes, so no two texts ever decode to the same payload.
 */
public final class StrictBase64 {
  /** {@link #decode}'s answer for text that is not padded standard base64. */
  public static final int NOT_BASE64 = -1;

  /** {@link #decode}'s answer for base64 whose last digit has stray low bits before the padding. */
  public static final int NOT_CANONICAL = -2;

  private static final byte[] DIGITS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
          .getBytes(StandardCharsets.US_ASCII);

  private static final VarHandle INT_BIG_ENDIAN =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /**
   * Each byte's digit value, or -1 for bytes outside the alphabet (including '=' and all of
   * 0x80-0xff).
   */
  private static final byte[] VALUES = new byte[256];

  /**
   * The 12-bit value of each pair of bytes (first byte in the high byte of the index), or -1 when
   * either is outside the alphabet: one lookup per two digits when decoding. 128 KiB, of which the
   * pairs of digits touch about 12 KiB.
   */
  private static final short[] VALUE_PAIRS = new short[1 << 16];

  static {
    Arrays.fill(VALUES, (byte) -1);
    for (int i = 0; i < DIGITS.length; i++) {
      VALUES[DIGITS[i]] = (byte) i;
    }
    for (int i = 0; i < VALUE_PAIRS.length; i++) {
      int high = VALUES[i >>> 8];
      int low = VALUES[i & 0xff];
      VALUE_PAIRS[i] = (short) ((high | low) < 0 ? -1 : high << 6 | low);
    }
  }

  private StrictBase64() {}

  /** Characters of the padded encoding of {@code length} bytes. */
  public static int encodedLength(int length) {
    return (length + 2) / 3 * 4;
  }

  /**
   * Writes the padded base64 of {@code src[from, from + length)} into {@code dst} at {@code at};
   * returns the index after the last character written.
   */
  public static int encode(byte[] src, int from, int length, byte[] dst, int at) {
    return BytePieces.forThread().encode(src, from, length, dst, at);
  }

  /**
   * Bytes that {@code length} characters of padded base64 ending at {@code src[end - 1]} decode to;
   * -1 if the length cannot be padded base64.
   */
  public static int decodedLength(byte[] src, int end, int length) {
    if (length == 0 || length % 4 != 0) {
      return length == 0 ? 0 : NOT_BASE64;
    }
    int padding = src[end - 1] != '=' ? 0 : src[end - 2] != '=' ? 1 : 2;
    return length / 4 * 3 - padding;
  }

  /**
   * Decodes {@code src[from, from + length)} into {@code dst} at {@code at}, which must have room
   * for {@link #decodedLength}; returns the number of bytes written, {@link #NOT_BASE64} or {@link
   * #NOT_CANONICAL}. On a negative answer, {@code dst} may hold part of the payload.
   */
  public static int decode(byte[] src, int from, int length, byte[] dst, int at) {
    if (length % 4 != 0) {
      return NOT_BASE64;
    }
    if (length == 0) {
      return 0;
    }
    int lastQuad = from + length - 4;
    int out = decodeQuads(src, from, lastQuad, dst, at);
    if (out < 0) {
      return NOT_BASE64;
    }
    return decodeLastQuad(
        src[lastQuad] & 0xff,
        src[lastQuad + 1] & 0xff,
        src[lastQuad + 2] & 0xff,
        src[lastQuad + 3] & 0xff,
        dst,
        out,
        at);
  }

  /**
   * As {@link #decode(byte[], int, int, byte[], int)} for the characters {@code src[from, from +
   * length)} of a string: a character outside the alphabet (any above 0x7f included) makes it
   * {@link #NOT_BASE64}. All but the last four characters go through the JDK's decoder (a vector
   * intrinsic on x86 and arm64), copied as bytes into this thread's {@link StringPieces}; the last
   * four, which may hold the padding, are decoded here, and only a piece that decodes to its full
   * length counts, so the answer is exactly that of the byte decoder.
   */
  public static int decode(String src, int from, int length, byte[] dst, int at) {
    if (length % 4 != 0) {
      return NOT_BASE64;
    }
    if (length == 0) {
      return 0;
    }
    int lastQuad = from + length - 4;
    int out = at;
    if (lastQuad > from) {
      out = StringPieces.forThread().decode(src, from, lastQuad, dst, at);
      if (out < 0) {
        return NOT_BASE64;
      }
    }
    return decodeLastQuad(
        byteOf(src.charAt(lastQuad)),
        byteOf(src.charAt(lastQuad + 1)),
        byteOf(src.charAt(lastQuad + 2)),
        byteOf(src.charAt(lastQuad + 3)),
        dst,
        out,
        at);
  }

  /**
   * Decodes the whole quads {@code src[in, end)} (no padding allowed) into {@code dst} at {@code
   * out}; returns the index after the last byte written, or -1 if a character is not a digit.
   */
  private static int decodeQuads(byte[] src, int in, int end, byte[] dst, int out) {
    for (; in < end; in += 4) {
      // Four digits through one 4-byte read and two pair lookups, a third of the work of four
      // single ones. A -1 pair sets the sign bit whichever half it is: one test for the quad.
      int quad = (int) INT_BIG_ENDIAN.get(src, in);
      int bits = VALUE_PAIRS[quad >>> 16] << 12 | VALUE_PAIRS[quad & 0xffff];
      if (bits < 0) {
        return -1;
      }
      putThree(dst, out, bits);
      out += 3;
    }
    return out;
  }

  /** The three bytes of 24 decoded bits at {@code dst[out]}. */
  private static void putThree(byte[] dst, int out, int bits) {
    dst[out] = (byte) (bits >>> 16);
    dst[out + 1] = (byte) (bits >>> 8);
    dst[out + 2] = (byte) bits;
  }

  /** A character as the byte decoding looks up: itself, or 0xff (no digit, not '=') above it. */
  private static int byteOf(char c) {
    return c > 0xff ? 0xff : c;
  }

  /**
   * The last four characters (as unsigned bytes), which may end in padding, decoded into {@code
   * dst} at {@code out}; returns the bytes written since {@code at}, or a negative answer.
   */
  private static int decodeLastQuad(
      int firstChar, int secondChar, int thirdChar, int fourthChar, byte[] dst, int out, int at) {
    int a = VALUES[firstChar];
    int b = VALUES[secondChar];
    if ((a | b) < 0) {
      return NOT_BASE64;
    }
    if (fourthChar != '=') {
      int c = VALUES[thirdChar];
      int d = VALUES[fourthChar];
      if ((c | d) < 0) {
        return NOT_BASE64;
      }
      putThree(dst, out, a << 18 | b << 12 | c << 6 | d);
      return out + 3 - at;
    }
    if (thirdChar == '=') {
      // "xx==": one byte; the low four bits of the second digit must be zero.
      if ((b & 0x0f) != 0) {
        return NOT_CANONICAL;
      }
      dst[out] = (byte) (a << 2 | b >>> 4);
      return out + 1 - at;
    }
    int c = VALUES[thirdChar];
    if (c < 0) {
      return NOT_BASE64;
    }
    // "xxx=": two bytes; the low two bits of the third digit must be zero.
    if ((c & 0x03) != 0) {
      return NOT_CANONICAL;
    }
    int bits = a << 18 | b << 12 | c << 6;
    dst[out] = (byte) (bits >>> 16);
    dst[out + 1] = (byte) (bits >>> 8);
    return out + 2 - at;
  }
}
