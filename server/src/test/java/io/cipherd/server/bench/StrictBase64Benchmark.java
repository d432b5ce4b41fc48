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
 * floor, without strictness); and {@link Envelope#text} against the JDK's encoder through an exact
 * copy of the payload and a scratch output, which is what using it there would cost.
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
  private static final byte[] VALUES = new byte[256];
  private static final short[] VALUE_PAIRS = new short[1 << 16];

  static {
    Arrays.fill(VALUES, (byte) -1);
    byte[] digits =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            .getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < digits.length; i++) {
      VALUES[digits[i]] = (byte) i;
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
  private byte[] exactPayload;
  private byte[] encodedScratch;
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
    exactPayload = new byte[payloadLength];
    encodedScratch = new byte[StrictBase64.encodedLength(payloadLength)];
    byte[] check = new byte[payloadLength];
    if (StrictBase64.decode(ciphertext, payloadStart, base64Length, check, 0) != payloadLength
        || !Arrays.equals(check, 0, payloadLength, payload, 0, payloadLength)
        || charAtDecode(ciphertext, payloadStart, base64Length, check, 0, lastQuad)
            != payloadLength) {
      throw new AssertionError("the decoders disagree");
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

  /** {@link Envelope#text}: header, then the payload's base64 by {@link StrictBase64#encode}. */
  @Benchmark
  public byte[] encodeText() {
    return Envelope.text(header, payload, payloadLength);
  }

  /**
   * What {@link Envelope#text} would cost through the JDK's encoder, whose source must be an exact
   * array and whose output starts at index 0: copy in, encode to a scratch, copy behind the header.
   */
  @Benchmark
  public byte[] encodeTextJdk() {
    System.arraycopy(payload, 0, exactPayload, 0, payloadLength);
    int length = Base64.getEncoder().encode(exactPayload, encodedScratch);
    byte[] ascii = header.asciiBytes();
    byte[] text = new byte[ascii.length + length];
    System.arraycopy(ascii, 0, text, 0, ascii.length);
    System.arraycopy(encodedScratch, 0, text, ascii.length, length);
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
}
