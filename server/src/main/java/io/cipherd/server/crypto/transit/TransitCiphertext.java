package io.cipherd.server.crypto.transit;

import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import java.util.Arrays;
import java.util.Base64;

/**
 * A ciphertext made by Vault's Transit engine for an AEAD key ({@code aes128-gcm96}, {@code
 * aes256-gcm96}, {@code chacha20-poly1305}, not derived): {@code vault:vVERSION:BASE64}, the
 * standard base64 of {@code nonce(12) ‖ body ‖ tag(16)}, sealed with Transit's {@code
 * associated_data} as the only associated data. It names no key: the caller does. Its payload is
 * laid out as cipherd's gcm and chacha payloads are, so the mode's family opens it with no header
 * bound.
 *
 * @param version the Transit key version the prefix names, at least 1
 * @param payload the decoded bytes; ciphertext, not secret, but someone's data: never logged
 */
public record TransitCiphertext(int version, byte[] payload) {
  /** What every Transit ciphertext starts with. */
  public static final String PREFIX = "vault:v";

  /** Whether {@code ciphertext} is in Transit's format rather than cipherd's (it may not parse). */
  public static boolean isTransit(String ciphertext) {
    return ciphertext.startsWith(PREFIX);
  }

  /**
   * Parses {@code ciphertext}; throws {@link InvalidCiphertextException}, saying what is wrong
   * without repeating it, when its prefix or base64 is not Transit's.
   */
  public static TransitCiphertext parse(String ciphertext) {
    if (!isTransit(ciphertext)) {
      throw new InvalidCiphertextException("a Transit ciphertext starts with 'vault:v'");
    }
    int colon = ciphertext.indexOf(':', PREFIX.length());
    if (colon < 0) {
      throw new InvalidCiphertextException("a Transit ciphertext is 'vault:vVERSION:BASE64'");
    }
    int version = version(ciphertext, PREFIX.length(), colon);
    String body = ciphertext.substring(colon + 1);
    if (body.isEmpty()) {
      throw new InvalidCiphertextException("the Transit ciphertext has no payload");
    }
    try {
      return new TransitCiphertext(version, Base64.getDecoder().decode(body));
    } catch (IllegalArgumentException e) {
      throw new InvalidCiphertextException(
          "the payload of a Transit ciphertext must be standard base64 (RFC 4648 section 4)");
    }
  }

  /** The decimal version in {@code text[from, to)}: 1 to 2^31 - 1, no sign, no leading zero. */
  private static int version(String text, int from, int to) {
    int length = to - from;
    if (length < 1 || length > 10 || text.charAt(from) == '0') {
      throw new InvalidCiphertextException(
          "the version of a Transit ciphertext is a number from 1, as in 'vault:v3:'");
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        throw new InvalidCiphertextException(
            "the version of a Transit ciphertext is a number from 1, as in 'vault:v3:'");
      }
      value = value * 10 + (c - '0');
    }
    if (value > Integer.MAX_VALUE) {
      throw new InvalidCiphertextException("the version of the Transit ciphertext is too large");
    }
    return (int) value;
  }

  @Override
  public String toString() {
    return "TransitCiphertext[v" + version + ", " + payload.length + " bytes]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TransitCiphertext other
        && version == other.version
        && Arrays.equals(payload, other.payload);
  }

  @Override
  public int hashCode() {
    return 31 * version + Arrays.hashCode(payload);
  }
}
