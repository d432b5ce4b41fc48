package io.cipherd.server.bench;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.StrictBase64;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The base64 of one gcm ciphertext as the server reads and writes it: {@link
 * StrictBase64#decode(String, int, int, byte[], int)} from the string protobuf delivers (the
 * payload after an in-place header), against the character-at-a-time decoder it replaced ({@link
 * #charAtDecode}, kept here as the baseline) and the JDK's own decoder on an exact byte array (the
 * floor, without strictness); and {@link Envelope#text} against the lookup encoder it replaced
 * ({@link #lookupEncode}).
 *
 * <p>{@code make bench BENCH_ARGS='StrictBase64Benchmark -prof gc'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class StrictBase64Benchmark {
  private static final VarHandle INT_BIG_ENDIAN =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final byte[] DIGITS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
          .getBytes(StandardCharsets.US_ASCII);
  private static final short[] DIGIT_PAIRS = new short[1 << 12];
  private static final byte[] VALUES = new byte[256];
  private static final short[] VALUE_PAIRS = new short[1 << 16];

  static {
    Arrays.fill(VALUES, (byte) -1);
    for (int i = 0; i < DIGITS.length; i++) {
      VALUES[DIGITS[i]] = (byte) i;
    }
    for (int i = 0; i < DIGIT_PAIRS.length; i++) {
      DIGIT_PAIRS[i] = (short) (DIGITS[i >>> 6] << 8 | DIGITS[i & 0x3f]);
    }
    for (int i = 0; i < VALUE_PAIRS.length; i++) {
      int high = VALUES[i >>> 8];
      int low = VALUES[i & 0xff];
      VALUE_PAIRS[i] = (short) ((high | low) < 0 ? -1 : high << 6 | low);
    }
  }

  /** 100 bytes make a 128-byte gcm payload, 172 base64 characters; 4096 make 5500. */
  @Param({"100", "4096"})
  public int plaintextSize;

  private EnvelopeHeader header;
  private String ciphertext;
  private int payloadStart;
  private int base64Length;
  private byte[] exactBase64;
  private byte[] payload;
  private int payloadLength;
  private byte[] decoded;
  private final byte[] lastQuad = new byte[4];

  @Setup(Level.Trial)
  public void setUp() {
    header = new EnvelopeHeader("orders", 1, CipherMode.fromHeaderName("gcm"));
    payloadLength = 12 + plaintextSize + 16;
    payload = new byte[payloadLength + 1024];
    new Random(7).nextBytes(payload);
    ciphertext =
        new String(Envelope.text(header, payload, payloadLength), StandardCharsets.US_ASCII);
    payloadStart = header.length();
    base64Length = ciphertext.length() - payloadStart;
    exactBase64 = ciphertext.substring(payloadStart).getBytes(StandardCharsets.US_ASCII);
    decoded = new byte[payloadLength + 3];
    byte[] check = new byte[payloadLength];
    if (StrictBase64.decode(ciphertext, payloadStart, base64Length, check, 0) != payloadLength
        || !Arrays.equals(check, 0, payloadLength, payload, 0, payloadLength)
        || charAtDecode(ciphertext, payloadStart, base64Length, check, 0, lastQuad)
            != payloadLength) {
      throw new AssertionError("the decoders disagree");
    }
    byte[] before = encodeTextLookup();
    if (!Arrays.equals(before, encodeText())) {
      throw new AssertionError("the encoders disagree");
    }
  }

  /** Today's string decoder: the JDK's, in exact power-of-two pieces. */
  @Benchmark
  public int decodeString() {
    return StrictBase64.decode(ciphertext, payloadStart, base64Length, decoded, 0);
  }

  /** The string decoder before issue 30: each character read with {@code charAt}. */
  @Benchmark
  public int decodeStringCharAt() {
    return charAtDecode(ciphertext, payloadStart, base64Length, decoded, 0, lastQuad);
  }

  /** The byte decoder on the text already copied into an array (the fallback path). */
  @Benchmark
  public int decodeBytes() {
    return StrictBase64.decode(exactBase64, 0, exactBase64.length, decoded, 0);
  }

  /** The floor: the JDK's decoder on an exact array, no strictness, no copy out of the string. */
  @Benchmark
  public int decodeJdkExact() {
    return Base64.getDecoder().decode(exactBase64, decoded);
  }

  /**
   * {@link Envelope#text}: header, then the payload's base64 by {@link StrictBase64#encode}, the
   * JDK's encoder in exact pieces.
   */
  @Benchmark
  public byte[] encodeText() {
    return Envelope.text(header, payload, payloadLength);
  }

  /** {@link Envelope#text} as it was before issue 30: the payload's base64 by a lookup loop. */
  @Benchmark
  public byte[] encodeTextLookup() {
    byte[] ascii = header.asciiBytes();
    byte[] text = new byte[ascii.length + StrictBase64.encodedLength(payloadLength)];
    System.arraycopy(ascii, 0, text, 0, ascii.length);
    lookupEncode(payload, 0, payloadLength, text, ascii.length);
    return text;
  }

  /**
   * The string decoder as it was before issue 30 (its bulk loop; the last quad through the byte
   * decoder, as it then shared it): the baseline.
   */
  static int charAtDecode(String src, int from, int length, byte[] dst, int at, byte[] last) {
    if (length % 4 != 0) {
      return StrictBase64.NOT_BASE64;
    }
    if (length == 0) {
      return 0;
    }
    int lastQuad = from + length - 4;
    int out = at;
    for (int in = from; in < lastQuad; in += 4) {
      int first = src.charAt(in);
      int second = src.charAt(in + 1);
      int third = src.charAt(in + 2);
      int fourth = src.charAt(in + 3);
      if ((first | second | third | fourth) > 0xff) {
        return StrictBase64.NOT_BASE64;
      }
      int bits = VALUE_PAIRS[first << 8 | second] << 12 | VALUE_PAIRS[third << 8 | fourth];
      if (bits < 0) {
        return StrictBase64.NOT_BASE64;
      }
      dst[out] = (byte) (bits >>> 16);
      dst[out + 1] = (byte) (bits >>> 8);
      dst[out + 2] = (byte) bits;
      out += 3;
    }
    for (int i = 0; i < 4; i++) {
      char c = src.charAt(lastQuad + i);
      last[i] = (byte) (c > 0xff ? 0xff : c);
    }
    int tail = StrictBase64.decode(last, 0, 4, dst, out);
    return tail < 0 ? tail : out - at + tail;
  }

  /** The encoder as it was before issue 30: two digits per lookup. The baseline. */
  static int lookupEncode(byte[] src, int from, int length, byte[] dst, int at) {
    int end = from + length;
    int whole = from + length / 3 * 3;
    int out = at;
    int in = from;
    for (; in < whole && in + 4 <= src.length; in += 3) {
      int bits = (int) INT_BIG_ENDIAN.get(src, in) >>> 8;
      INT_BIG_ENDIAN.set(
          dst,
          out,
          (DIGIT_PAIRS[bits >>> 12] & 0xffff) << 16 | (DIGIT_PAIRS[bits & 0xfff] & 0xffff));
      out += 4;
    }
    for (; in < whole; in += 3) {
      int bits = (src[in] & 0xff) << 16 | (src[in + 1] & 0xff) << 8 | (src[in + 2] & 0xff);
      dst[out] = DIGITS[bits >>> 18];
      dst[out + 1] = DIGITS[(bits >>> 12) & 0x3f];
      dst[out + 2] = DIGITS[(bits >>> 6) & 0x3f];
      dst[out + 3] = DIGITS[bits & 0x3f];
      out += 4;
    }
    int left = end - whole;
    if (left > 0) {
      int bits = (src[whole] & 0xff) << 16 | (left == 2 ? (src[whole + 1] & 0xff) << 8 : 0);
      dst[out] = DIGITS[bits >>> 18];
      dst[out + 1] = DIGITS[(bits >>> 12) & 0x3f];
      dst[out + 2] = left == 2 ? DIGITS[(bits >>> 6) & 0x3f] : (byte) '=';
      dst[out + 3] = '=';
      out += 4;
    }
    return out;
  }
}
