package io.cipherd.server.crypto.index;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * How a value is made canonical before it is indexed (proto/README.md, "Blind indexes"): trim, then
 * NFKC, then full case folding, each only when asked for. With none asked the bytes are indexed as
 * given; with any, they must be UTF-8 text.
 *
 * @param trim remove leading and trailing Unicode White_Space
 * @param nfkc apply Normalization Form KC
 * @param casefold apply full default case folding (CaseFolding.txt C and F)
 */
public record Normalization(boolean trim, boolean nfkc, boolean casefold) {
  public static final Normalization NONE =
      new Normalization(/* trim= */ false, /* nfkc= */ false, /* casefold= */ false);

  /**
   * The longest value indexed, 64 KiB: far above any field worth a blind index, and it bounds the
   * work of NFKC and case folding (each may grow the text several times) per value.
   */
  public static final int MAX_VALUE_BYTES = 65_536;

  /** These steps and trimming. */
  public Normalization withTrim() {
    return new Normalization(true, nfkc, casefold);
  }

  /** These steps and NFKC. */
  public Normalization withNfkc() {
    return new Normalization(trim, true, casefold);
  }

  /** These steps and case folding. */
  public Normalization withCasefold() {
    return new Normalization(trim, nfkc, true);
  }

  /** Whether any step is asked for. */
  public boolean isNone() {
    return !trim && !nfkc && !casefold;
  }

  /**
   * The value to hash: {@code value} itself when no step is asked for, else the UTF-8 of the
   * normalized text. Throws {@link InvalidArgumentException} (never quoting the value) when the
   * value is over {@link #MAX_VALUE_BYTES}, or a step is asked for and it is not well-formed UTF-8.
   */
  public byte[] apply(byte[] value) {
    if (value.length > MAX_VALUE_BYTES) {
      throw new InvalidArgumentException(
          "value is over " + MAX_VALUE_BYTES + " bytes (64 KiB), the most a blind index accepts");
    }
    if (isNone()) {
      return value;
    }
    String text = decode(value);
    if (trim) {
      text = trimWhiteSpace(text);
    }
    if (nfkc) {
      text = Normalizer.normalize(text, Normalizer.Form.NFKC);
    }
    if (casefold) {
      text = UCharacter.foldCase(text, UCharacter.FOLD_CASE_DEFAULT);
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * {@code text} without leading and trailing White_Space, found by one scan from each end; a regex
   * such as {@code \p{White_Space}+$} retries from every inner space and is quadratic in a long
   * run.
   */
  private static String trimWhiteSpace(String text) {
    int start = 0;
    while (start < text.length()) {
      int cp = text.codePointAt(start);
      if (!isWhiteSpace(cp)) {
        break;
      }
      start += Character.charCount(cp);
    }
    int end = text.length();
    while (end > start) {
      int cp = text.codePointBefore(end);
      if (!isWhiteSpace(cp)) {
        break;
      }
      end -= Character.charCount(cp);
    }
    return text.substring(start, end);
  }

  private static boolean isWhiteSpace(int codePoint) {
    return UCharacter.hasBinaryProperty(codePoint, UProperty.WHITE_SPACE);
  }

  private static String decode(byte[] value) {
    try {
      CharBuffer chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(value));
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw new InvalidArgumentException(
          "value is not well-formed UTF-8, which normalization (trim, nfkc, casefold) needs; send no "
              + "normalization to index raw bytes");
    }
  }
}
