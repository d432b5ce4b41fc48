package io.cipherd.server.crypto.index;

import com.ibm.icu.lang.UCharacter;
import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.regex.Pattern;

/**
 * How a value is made canonical before it is indexed (proto/README.md, "Blind indexes"): trim,
 * then NFKC, then full case folding, each only when asked for. With none asked the bytes are
 * indexed as given; with any, they must be UTF-8 text.
 *
 * @param trim remove leading and trailing Unicode White_Space
 * @param nfkc apply Normalization Form KC
 * @param casefold apply full default case folding (CaseFolding.txt C and F)
 */
public record Normalization(boolean trim, boolean nfkc, boolean casefold) {
  public static final Normalization NONE = new Normalization(false, false, false);

  private static final Pattern EDGE_WHITE_SPACE =
      Pattern.compile("^\\p{IsWhite_Space}+|\\p{IsWhite_Space}+$");

  /** Whether any step is asked for. */
  public boolean isNone() {
    return !trim && !nfkc && !casefold;
  }

  /**
   * The value to hash: {@code value} itself when no step is asked for, else the UTF-8 of the
   * normalized text. Throws {@link InvalidArgumentException} (never quoting the value) when a step
   * is asked for and the value is not well-formed UTF-8.
   */
  public byte[] apply(byte[] value) {
    if (isNone()) {
      return value;
    }
    String text = decode(value);
    if (trim) {
      text = EDGE_WHITE_SPACE.matcher(text).replaceAll("");
    }
    if (nfkc) {
      text = Normalizer.normalize(text, Normalizer.Form.NFKC);
    }
    if (casefold) {
      text = UCharacter.foldCase(text, true);
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String decode(byte[] value) {
    try {
      CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
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
