package io.cipherd.server.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The ciphertext format {@code <NAME/vVERSION:MODE>PAYLOAD}, where PAYLOAD is the padded standard
 * base64 (RFC 4648 section 4) of the mode's bytes. This class is the only place that parses or
 * writes it; the grammar is specified in {@code proto/README.md}.
 *
 * @param header which key version and mode the ciphertext names
 * @param payload the decoded mode bytes: IV, ciphertext and tag as the mode lays them out
 */
public record Envelope(EnvelopeHeader header, byte[] payload) {
  private static final int MAX_VERSION_DIGITS = 9;
  private static final Base64.Encoder ENCODER = Base64.getEncoder();
  private static final Base64.Decoder DECODER = Base64.getDecoder();

  /** Parses a ciphertext given as text. */
  public static Envelope parse(String ciphertext) {
    if (ciphertext == null) {
      throw new InvalidCiphertextException("ciphertext is empty");
    }
    return parse(ciphertext.getBytes(StandardCharsets.UTF_8));
  }

  /** Parses a ciphertext given as its UTF-8 bytes; never echoes them in an error. */
  public static Envelope parse(byte[] text) {
    EnvelopeHeader header = parseHeader(text);
    int start = header.ascii().size();
    byte[] payload = decodePayload(text, start);
    String problem = header.mode().payloadLengthProblem(payload.length);
    if (problem != null) {
      throw new InvalidCiphertextException(problem);
    }
    return new Envelope(header, payload);
  }

  /** Parses only the header of a ciphertext, leaving the payload unread. */
  public static EnvelopeHeader parseHeader(byte[] text) {
    if (text.length == 0) {
      throw new InvalidCiphertextException("ciphertext is empty");
    }
    if (text[0] != '<') {
      throw new InvalidCiphertextException("ciphertext must start with a '<NAME/vVERSION:MODE>' header");
    }
    int slash = indexOf(text, (byte) '/', 1);
    int close = indexOf(text, (byte) '>', 1);
    if (close < 0) {
      throw new InvalidCiphertextException("header has no closing '>'");
    }
    if (slash < 0 || slash > close) {
      throw new InvalidCiphertextException("header has no '/' between key name and version");
    }
    String name = ascii(text, 1, slash);
    if (name == null || !EnvelopeHeader.isValidKeyName(name)) {
      throw new InvalidCiphertextException(
          "key name in header must match " + EnvelopeHeader.KEY_NAME_SYNTAX);
    }
    int colon = indexOf(text, (byte) ':', slash);
    if (colon < 0 || colon > close) {
      throw new InvalidCiphertextException("header has no ':' between version and mode");
    }
    int version = parseVersion(text, slash + 1, colon);
    String modeName = ascii(text, colon + 1, close);
    Mode mode = modeName == null ? null : Mode.fromHeaderName(modeName);
    if (mode == null) {
      throw new InvalidCiphertextException(
          "unknown mode in header; expected one of gcm, chacha, cbc, ctr, cfb, ofb, ecb");
    }
    return new EnvelopeHeader(name, version, mode);
  }

  /** The base64 text of {@code payload}, to follow the header. */
  public static byte[] encodePayload(byte[] payload) {
    return ENCODER.encode(payload);
  }

  /** The whole ciphertext as text, for callers off the hot path. */
  public String format() {
    return header.ascii().toStringUtf8() + ENCODER.encodeToString(payload);
  }

  private static int parseVersion(byte[] text, int from, int to) {
    if (to - from < 2 || text[from] != 'v') {
      throw new InvalidCiphertextException("version in header must be 'v' followed by a number");
    }
    int digits = to - from - 1;
    if (digits > MAX_VERSION_DIGITS) {
      throw new InvalidCiphertextException("version in header is too large");
    }
    if (text[from + 1] == '0') {
      throw new InvalidCiphertextException("version in header must be at least 1, without leading zeros");
    }
    int version = 0;
    for (int i = from + 1; i < to; i++) {
      byte b = text[i];
      if (b < '0' || b > '9') {
        throw new InvalidCiphertextException("version in header must be decimal digits");
      }
      version = version * 10 + (b - '0');
    }
    return version;
  }

  private static byte[] decodePayload(byte[] text, int start) {
    int length = text.length - start;
    if (length == 0) {
      throw new InvalidCiphertextException("payload after the header is empty");
    }
    if (length % 4 != 0) {
      throw new InvalidCiphertextException("payload is not padded base64 (length is not a multiple of 4)");
    }
    byte[] decoded;
    try {
      ByteBuffer out = DECODER.decode(ByteBuffer.wrap(text, start, length));
      decoded = out.arrayOffset() == 0 && out.remaining() == out.array().length
          ? out.array()
          : Arrays.copyOfRange(out.array(), out.arrayOffset(), out.arrayOffset() + out.remaining());
    } catch (IllegalArgumentException e) {
      throw new InvalidCiphertextException("payload is not standard base64");
    }
    if (!isCanonical(text, length, decoded.length)) {
      throw new InvalidCiphertextException("payload is not canonical base64 (stray bits before the padding)");
    }
    return decoded;
  }

  /**
   * Whether the unused low bits of the last base64 digit are zero: otherwise two different texts
   * would decode to the same payload, and a changed ciphertext would still decrypt.
   */
  private static boolean isCanonical(byte[] text, int length, int decodedLength) {
    int padding = (length / 4) * 3 - decodedLength;
    if (padding == 0) {
      return true;
    }
    int last = digitValue(text[text.length - 1 - padding]);
    int unusedBitsMask = padding == 1 ? 0b11 : 0b1111;
    return (last & unusedBitsMask) == 0;
  }

  private static int digitValue(byte b) {
    if (b >= 'A' && b <= 'Z') {
      return b - 'A';
    }
    if (b >= 'a' && b <= 'z') {
      return b - 'a' + 26;
    }
    if (b >= '0' && b <= '9') {
      return b - '0' + 52;
    }
    return b == '+' ? 62 : 63;
  }

  private static int indexOf(byte[] text, byte b, int from) {
    for (int i = from; i < text.length; i++) {
      if (text[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** The bytes as a string if they are all printable ASCII, else null. */
  private static String ascii(byte[] text, int from, int to) {
    for (int i = from; i < to; i++) {
      if (text[i] < 0x20 || text[i] > 0x7e) {
        return null;
      }
    }
    return new String(text, from, to - from, StandardCharsets.US_ASCII);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Envelope e
        && e.header.equals(header)
        && Arrays.equals(e.payload, payload);
  }

  @Override
  public int hashCode() {
    return header.hashCode() * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "Envelope[" + header + ", " + payload.length + " payload bytes]";
  }
}
