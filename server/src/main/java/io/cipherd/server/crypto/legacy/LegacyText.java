package io.cipherd.server.crypto.legacy;

import io.cipherd.server.errors.InvalidArgumentException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Legacy ciphertexts as applications stored them in text columns: hexadecimal (MySQL's {@code
 * HEX()}, either case) or standard base64 (RFC 4648 section 4, padded or not). Bad text is refused
 * without echoing it: it may be someone's data.
 */
public final class LegacyText {
  private LegacyText() {}

  /** The bytes of hexadecimal {@code text}; {@code field} names it in the error. */
  public static byte[] fromHex(String text, String field) {
    if (text.length() % 2 != 0) {
      throw new InvalidArgumentException(
          field + " is not hexadecimal text: it has an odd number of digits");
    }
    try {
      return HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException e) {
      // HexFormat accepts either case; its message quotes the text, so it is not passed on.
      throw new InvalidArgumentException(field + " is not hexadecimal text (0-9, a-f, A-F only)");
    }
  }

  /**
   * The bytes of standard base64 {@code text}, with or without padding; {@code field} names it in
   * the error.
   */
  public static byte[] fromBase64(String text, String field) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      // Its message quotes the offending character; not passed on.
      throw new InvalidArgumentException(
          field + " is not standard base64 (A-Z, a-z, 0-9, '+', '/', optional '=' padding)");
    }
  }
}
