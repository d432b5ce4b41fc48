package io.cipherd.server.crypto.envelope;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The ciphertext format {@code <NAME/vVERSION:MODE>PAYLOAD}, where PAYLOAD is the padded standard
 * base64 (RFC 4648 section 4) of the mode's bytes, and its subject-bound form {@code
 * <NAME/s:MODE>PAYLOAD}, whose payload is the 16-byte subject reference followed by the mode's
 * bytes. This class is the only place that parses, peeks at or writes it; the grammar is specified
 * in {@code proto/README.md}.
 */
public final class Envelope {
  /** '<' + 64-character name + "/v" + 9 digits + ':' + longest mode name + '>', rounded up. */
  public static final int MAX_HEADER_BYTES = 96;

  private static final int MAX_VERSION_DIGITS = 9;
  private static final RecentHeaders RECENT = new RecentHeaders();

  /** Room to copy just a header's worth of a ciphertext, per thread, for {@link #peekHeader}. */
  private static final ThreadLocal<byte[]> HEADER_BUFFER =
      ThreadLocal.withInitial(() -> new byte[MAX_HEADER_BYTES]);

  private Envelope() {}

  /**
   * Parses only the header of {@code ciphertext}, as protobuf delivers a string field, copying no
   * more than a header's worth of it; the payload is not read.
   */
  public static EnvelopeHeader peekHeader(String ciphertext) {
    byte[] header = HEADER_BUFFER.get();
    int length = Math.min(ciphertext.length(), MAX_HEADER_BYTES);
    if (!copyAscii(ciphertext, length, header)) {
      return peekHeader(ByteString.copyFromUtf8(ciphertext));
    }
    return parseHeader(header, 0, length);
  }

  /** As {@link #peekHeader(String)} for a ciphertext given as its bytes. */
  public static EnvelopeHeader peekHeader(ByteString ciphertext) {
    byte[] header = HEADER_BUFFER.get();
    int length = Math.min(ciphertext.size(), MAX_HEADER_BYTES);
    ciphertext.copyTo(header, 0, 0, length);
    return parseHeader(header, 0, length);
  }

  /**
   * Copies {@code text[0, length)} into {@code array} from index 0 as one byte per character, if
   * every character is ASCII; returns false otherwise, when what was copied must not be used (each
   * byte holds only the low bits of its character). Valid ciphertexts are ASCII, and this reads one
   * that protobuf delivered as a String without the UTF-8 copy of {@code getCiphertextBytes()}.
   */
  public static boolean copyAscii(String text, int length, byte[] array) {
    int all = 0;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      all |= c;
      array[i] = (byte) c;
    }
    return all < 0x80;
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
      throw new InvalidCiphertextException(
          isWhitespace(text[from])
              ? "ciphertext starts with whitespace before its '<NAME/vVERSION:MODE>' header: strip it"
              : "ciphertext must start with a '<NAME/vVERSION:MODE>' header");
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
    boolean subjectBound = colon == slash + 2 && text[slash + 1] == 's';
    int version = subjectBound ? 0 : parseVersion(text, slash + 1, colon);
    String modeName = ascii(text, colon + 1, close);
    CipherMode mode = modeName == null ? null : CipherMode.fromHeaderName(modeName);
    if (mode == null) {
      throw new InvalidCiphertextException(
          "unknown mode in header; expected one of " + CipherMode.headerNames());
    }
    if (!subjectBound) {
      return new EnvelopeHeader(name, version, mode);
    }
    if (!EnvelopeHeader.bindsSubjects(mode)) {
      throw new InvalidCiphertextException(
          "a subject-bound header ('/s:') names mode "
              + mode.headerName()
              + "; only "
              + EnvelopeHeader.SUBJECT_MODES
              + " bind subjects");
    }
    return EnvelopeHeader.subjectBound(name, mode);
  }

  /**
   * The subject reference that leads the payload {@code payload} of a subject-bound ciphertext
   * (whose length passed {@link EnvelopeHeader#payloadLengthProblem}).
   */
  public static byte[] subjectRef(Bytes payload) {
    byte[] ref = new byte[EnvelopeHeader.SUBJECT_REF_LENGTH];
    System.arraycopy(payload.array(), payload.offset(), ref, 0, ref.length);
    return ref;
  }

  /**
   * The subject reference of a subject-bound ciphertext as protobuf delivers it, read from the
   * first 24 base64 characters after its header without decoding the rest; null when it is not a
   * subject-bound ciphertext or they do not decode. Only a hint, for looking up a batch's subjects
   * at once: decryption parses the whole ciphertext.
   */
  public static byte[] peekSubjectRef(String ciphertext) {
    EnvelopeHeader header;
    try {
      header = peekHeader(ciphertext);
    } catch (RuntimeException e) {
      return null;
    }
    int start = header.length();
    if (!header.isSubjectBound() || ciphertext.length() < start + 24) {
      return null;
    }
    byte[] out = new byte[18];
    int decoded = StrictBase64.decode(ciphertext, start, 24, out, 0);
    if (decoded != 18) {
      return null;
    }
    return Arrays.copyOf(out, EnvelopeHeader.SUBJECT_REF_LENGTH);
  }

  /**
   * The whole text of a subject-bound ciphertext: the header's bytes, then the base64 of {@code ref
   * ‖ payload[0, length)}.
   */
  public static byte[] subjectText(EnvelopeHeader header, byte[] ref, byte[] payload, int length) {
    byte[] joined = new byte[ref.length + length];
    System.arraycopy(ref, 0, joined, 0, ref.length);
    System.arraycopy(payload, 0, joined, ref.length, length);
    return text(header, joined, joined.length);
  }

  /**
   * The header part of a subject-bound ciphertext's associated data: {@code ASCII(header) ‖ ref},
   * followed by the context as for any AEAD ciphertext. The header ends at its only '>' and the
   * reference has a fixed length, so the concatenation is unambiguous.
   */
  public static byte[] subjectAad(EnvelopeHeader header, byte[] ref) {
    if (ref.length != EnvelopeHeader.SUBJECT_REF_LENGTH) {
      throw new IllegalArgumentException(
          "a subject reference is " + EnvelopeHeader.SUBJECT_REF_LENGTH + " bytes");
    }
    return subjectAad(header, ref, 0);
  }

  /**
   * As {@link #subjectAad(EnvelopeHeader, byte[])}, with the reference read from {@code
   * array[refOffset, refOffset + 16)}: a subject-bound payload, which starts with it.
   */
  public static byte[] subjectAad(EnvelopeHeader header, byte[] array, int refOffset) {
    byte[] ascii = header.asciiBytes();
    byte[] aad = new byte[ascii.length + EnvelopeHeader.SUBJECT_REF_LENGTH];
    System.arraycopy(ascii, 0, aad, 0, ascii.length);
    System.arraycopy(array, refOffset, aad, ascii.length, EnvelopeHeader.SUBJECT_REF_LENGTH);
    return aad;
  }

  /**
   * The header {@code ciphertext} starts with, if it is one parsed lately (every ciphertext of a
   * hot key): found in place, without copying the text. Null otherwise, and the text must be parsed
   * ({@link #parseHeader}).
   */
  public static EnvelopeHeader recentHeader(String ciphertext) {
    int end = Math.min(ciphertext.length(), MAX_HEADER_BYTES);
    if (end < 2 || ciphertext.charAt(0) != '<') {
      return null;
    }
    int close = ciphertext.indexOf('>', 1, end);
    return close < 0 ? null : RECENT.find(ciphertext, close + 1);
  }

  /**
   * Decodes the payload of {@code ciphertext}, which starts with {@code header} ({@link
   * #recentHeader}), from the string ({@link StrictBase64#decode(String, int, int, byte[], int)})
   * into {@code out} from index 0: the payload's slice of {@code out}, or null if it is not a valid
   * payload for the header's mode (then {@link #decodePayload} of its bytes says why). {@code out}
   * needs {@link #maxPayloadLength} bytes.
   */
  public static Bytes decodePayloadInPlace(EnvelopeHeader header, String ciphertext, byte[] out) {
    int start = header.length();
    int base64Length = ciphertext.length() - start;
    if (base64Length == 0) {
      return null;
    }
    int decoded = StrictBase64.decode(ciphertext, start, base64Length, out, 0);
    if (decoded < 0 || header.payloadLengthProblem(decoded) != null) {
      return null;
    }
    return new Bytes(out, 0, decoded);
  }

  /**
   * Room that {@link #decodePayload} needs for the payload of a ciphertext text of {@code
   * textLength} bytes.
   */
  public static int maxPayloadLength(int textLength) {
    return textLength / 4 * 3;
  }

  /**
   * Decodes the payload of the ciphertext {@code text[from, from + length)}, whose header is {@code
   * header} (as {@link #parseHeader} returned it), into {@code out} from index 0; returns the
   * payload's length. {@code out} needs {@link #maxPayloadLength} bytes.
   */
  public static int decodePayload(
      EnvelopeHeader header, byte[] text, int from, int length, byte[] out) {
    int start = from + header.length();
    int end = from + length;
    int base64Length = end - start;
    if (base64Length == 0) {
      throw new InvalidCiphertextException("payload after the header is empty");
    }
    if (base64Length % 4 != 0) {
      throw new InvalidCiphertextException(
          withWhitespaceHint(
              "payload is not padded base64 (length is not a multiple of 4)", text, start, end));
    }
    int decoded = StrictBase64.decode(text, start, base64Length, out, 0);
    if (decoded == StrictBase64.NOT_BASE64) {
      throw new InvalidCiphertextException(
          withWhitespaceHint("payload is not standard base64", text, start, end));
    }
    if (decoded == StrictBase64.NOT_CANONICAL) {
      // Otherwise two different texts would decode to the same payload, and a changed ciphertext
      // would still decrypt.
      throw new InvalidCiphertextException(
          "payload is not canonical base64 (stray bits before the padding)");
    }
    String problem = header.payloadLengthProblem(decoded);
    if (problem != null) {
      throw new InvalidCiphertextException(problem);
    }
    return decoded;
  }

  /**
   * The whole ciphertext text for {@code payload[0, length)}: the header's bytes, then the
   * payload's base64, written into one array of exactly that size.
   */
  public static byte[] text(EnvelopeHeader header, byte[] payload, int length) {
    byte[] ascii = header.asciiBytes();
    byte[] text = new byte[ascii.length + StrictBase64.encodedLength(length)];
    System.arraycopy(ascii, 0, text, 0, ascii.length);
    StrictBase64.encode(payload, 0, length, text, ascii.length);
    return text;
  }

  private static int parseVersion(byte[] text, int from, int to) {
    if (to - from < 2 || text[from] != 'v') {
      throw new InvalidCiphertextException(
          "version in header must be 'v' followed by a number, or 's' for a subject-bound"
              + " ciphertext");
    }
    int digits = to - from - 1;
    if (digits > MAX_VERSION_DIGITS) {
      throw new InvalidCiphertextException("version in header is too large");
    }
    if (text[from + 1] == '0') {
      throw new InvalidCiphertextException(
          "version in header must be at least 1, without leading zeros");
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

  /**
   * {@code problem}, and where the payload {@code text[from, end)} holds whitespace, what to do
   * about it: a ciphertext read from a line of a file often keeps its newline, and the plain
   * message would not say so.
   */
  private static String withWhitespaceHint(String problem, byte[] text, int from, int end) {
    for (int i = from; i < end; i++) {
      if (isWhitespace(text[i])) {
        String where = i == end - 1 ? "ends with" : "contains";
        return problem + ": it " + where + " whitespace (a newline?); strip it before sending";
      }
    }
    return problem;
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\n' || b == '\r' || b == '\t';
  }
}
