package io.cipherd.server.crypto.envelope;


import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.Mode;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The {@code <NAME/vVERSION:MODE>} prefix of a ciphertext: which key version and mode decrypt it.
 *
 * <p>Its ASCII bytes are also the first part of the associated data of AEAD modes, so a ciphertext
 * moved to another name, version or mode fails to decrypt.
 */
public final class EnvelopeHeader {
  /** The key-name grammar of the ciphertext format, also enforced when keys are created. */
  public static final String KEY_NAME_SYNTAX = "[a-z0-9][a-z0-9_-]{0,63}";

  private static final Pattern KEY_NAME = Pattern.compile(KEY_NAME_SYNTAX);

  private final String keyName;
  private final int version;
  private final Mode mode;
  private final byte[] aad;
  private final ByteString ascii;

  /** Validates and builds a header; throws {@link IllegalArgumentException} for a bad name or version. */
  public EnvelopeHeader(String keyName, int version, Mode mode) {
    if (!isValidKeyName(keyName)) {
      throw new IllegalArgumentException("key name must match " + KEY_NAME_SYNTAX);
    }
    if (version < 1) {
      throw new IllegalArgumentException("key version must be at least 1, got " + version);
    }
    this.keyName = keyName;
    this.version = version;
    this.mode = mode;
    this.aad = ("<" + keyName + "/v" + version + ":" + mode.headerName() + ">")
        .getBytes(StandardCharsets.US_ASCII);
    this.ascii = UnsafeByteOperations.unsafeWrap(aad);
  }

  /** Whether {@code name} matches {@link #KEY_NAME_SYNTAX}. */
  public static boolean isValidKeyName(String name) {
    return name != null && KEY_NAME.matcher(name).matches();
  }

  public String keyName() {
    return keyName;
  }

  public int version() {
    return version;
  }

  public Mode mode() {
    return mode;
  }

  /** The header as it starts a ciphertext, e.g. {@code <payments/v3:gcm>}. */
  public ByteString ascii() {
    return ascii;
  }

  /**
   * The header's ASCII bytes, the first part of an AEAD mode's associated data. The array is shared:
   * callers pass it to the JCE or copy from it, and never change it.
   */
  public byte[] asciiBytes() {
    return aad;
  }

  /** The header's length in bytes, '<' through '>'. */
  public int length() {
    return aad.length;
  }

  /** {@code NAME/vVERSION}: the key version without the mode, as logs show it. */
  public String versionedName() {
    return keyName + "/v" + version;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EnvelopeHeader h
        && h.version == version
        && h.mode == mode
        && h.keyName.equals(keyName);
  }

  @Override
  public int hashCode() {
    return (keyName.hashCode() * 31 + version) * 31 + mode.hashCode();
  }

  @Override
  public String toString() {
    return ascii.toStringUtf8();
  }
}
