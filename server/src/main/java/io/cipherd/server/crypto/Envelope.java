package io.cipherd.server.crypto;

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
  private static final RecentHeaders RECENT = new RecentHeaders();

  /** Parses a ciphertext given as text. */
  public static Envelope parse(String ciphertext) {
    if (ciphertext == null) {
      throw new InvalidCiphertextException("ciphertext is empty");
    }
    return parse(ciphertext.getBytes(StandardCharsets.UTF_8));
  }

  /** Parses a ciphertext given as its UTF-8 bytes; never echoes them in an error. */
  public static Envelope parse(byte[] text) {
    EnvelopeHeader header = parseHeader(text, 0, text.length);
    byte[] payload = new byte[maxPayloadLength(text.length)];
    int length = decodePayload(header, text, 0, text.length, payload);
    return new Envelope(header, length == payload.length ? payload : Arrays.copyOf(payload, length));
  }

  /** Parses only the header of a ciphertext, leaving the payload unread. */
  public static EnvelopeHeader parseHeader(byte[] text) {
    return parseHeader(text, 0, text.length);
  }

  /**
   * Parses only the header of the ciphertext {@code text[from, from + length)}. A header seen
   * lately is found without allocating.
   */
  public static EnvelopeHeader parseHeader(byte[] text, int from, int length) {
    if (length == 0) {
      throw new InvalidCiphertextException("ciphertext is empty");
    }
    if (text[from] != '<') {
      throw new InvalidCiphertextException("ciphertext must start with a '<NAME/vVERSION:MODE>' header");
    }
    int end = from + length;
    int close = indexOf(text, (byte) '>', from + 1, end);
    if (close >= 0) {
      EnvelopeHeader seen = RECENT.find(text, from, close + 1 - from);
      if (seen != null) {
        return seen;
      }
    }
    EnvelopeHeader header = parseNewHeader(text, from, end, close);
    RECENT.remember(header);
    return header;
  }

  private static EnvelopeHeader parseNewHeader(byte[] text, int from, int end, int close) {
    int slash = indexOf(text, (byte) '/', from + 1, end);
    if (close < 0) {
      throw new InvalidCiphertextException("header has no closing '>'");
    }
    if (slash < 0 || slash > close) {
      throw new InvalidCiphertextException("header has no '/' between key name and version");
    }
    String name = ascii(text, from + 1, slash);
    if (name == null || !EnvelopeHeader.isValidKeyName(name)) {
      throw new InvalidCiphertextException(
          "key name in header must match " + EnvelopeHeader.KEY_NAME_SYNTAX);
    }
    int colon = indexOf(text, (byte) ':', slash, end);
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

  /** Room that {@link #decodePayload} needs for the payload of a ciphertext text of {@code textLength} bytes. */
  public static int maxPayloadLength(int textLength) {
    return textLength / 4 * 3;
  }

  /**
   * Decodes the payload of the ciphertext {@code text[from, from + length)}, whose header is
   * {@code header} (as {@link #parseHeader} returned it), into {@code out} from index 0; returns
   * the payload's length. {@code out} needs {@link #maxPayloadLength} bytes.
   */
  public static int decodePayload(EnvelopeHeader header, byte[] text, int from, int length, byte[] out) {
    int start = from + header.aad().length;
    int base64Length = from + length - start;
    if (base64Length == 0) {
      throw new InvalidCiphertextException("payload after the header is empty");
    }
    if (base64Length % 4 != 0) {
      throw new InvalidCiphertextException("payload is not padded base64 (length is not a multiple of 4)");
    }
    int decoded = StrictBase64.decode(text, start, base64Length, out, 0);
    if (decoded == StrictBase64.NOT_BASE64) {
      throw new InvalidCiphertextException("payload is not standard base64");
    }
    if (decoded == StrictBase64.NOT_CANONICAL) {
      // Otherwise two different texts would decode to the same payload, and a changed ciphertext would still decrypt.
      throw new InvalidCiphertextException("payload is not canonical base64 (stray bits before the padding)");
    }
    String problem = header.mode().payloadLengthProblem(decoded);
    if (problem != null) {
      throw new InvalidCiphertextException(problem);
    }
    return decoded;
  }

  /** The base64 text of {@code payload}, to follow the header. */
  public static byte[] encodePayload(byte[] payload) {
    return ENCODER.encode(payload);
  }

  /**
   * The whole ciphertext text for {@code payload[0, length)}: the header's bytes, then the payload's
   * base64, written into one array of exactly that size.
   */
  public static byte[] text(EnvelopeHeader header, byte[] payload, int length) {
    byte[] ascii = header.aad();
    byte[] text = new byte[ascii.length + StrictBase64.encodedLength(length)];
    System.arraycopy(ascii, 0, text, 0, ascii.length);
    StrictBase64.encode(payload, 0, length, text, ascii.length);
    return text;
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

  private static int indexOf(byte[] text, byte b, int from, int end) {
    for (int i = from; i < end; i++) {
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
