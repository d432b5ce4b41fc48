package io.cipherd.client;

import java.util.Objects;

/**
 * One ciphertext made before cipherd, decrypted on the server with the imported legacy key {@code
 * keyName} (version {@code keyVersion}, 0 for its newest) and rewrapped into a cipherd key; the
 * plaintext never comes back. The data is given exactly one way, as stored: {@link #raw raw} bytes,
 * {@link #hex hex} text (either case, as MySQL's HEX() gives) or standard {@link #base64 base64}
 * text. {@code iv} is for a key imported with {@link LegacyIv#SEPARATE} only.
 */
public record LegacyCiphertext(
    String keyName, int keyVersion, byte[] raw, String hex, String base64, byte[] iv) {
  public LegacyCiphertext {
    Objects.requireNonNull(keyName, "keyName");
    int given = (raw != null ? 1 : 0) + (hex != null ? 1 : 0) + (base64 != null ? 1 : 0);
    if (given != 1) {
      throw new IllegalArgumentException(
          "a LegacyCiphertext takes exactly one of raw, hex or base64, got " + given);
    }
    if (keyVersion < 0) {
      throw new IllegalArgumentException(
          "keyVersion must be 0 (the legacy key's newest) or a version number");
    }
    iv = iv == null ? new byte[0] : iv;
  }

  public static LegacyCiphertext raw(String keyName, byte[] data) {
    return new LegacyCiphertext(keyName, 0, data, null, null, null);
  }

  public static LegacyCiphertext hex(String keyName, String data) {
    return new LegacyCiphertext(keyName, 0, null, data, null, null);
  }

  public static LegacyCiphertext base64(String keyName, String data) {
    return new LegacyCiphertext(keyName, 0, null, null, data, null);
  }

  /** The same ciphertext with its own IV (a key imported with {@link LegacyIv#SEPARATE}). */
  public LegacyCiphertext withIv(byte[] separateIv) {
    return new LegacyCiphertext(keyName, keyVersion, raw, hex, base64, separateIv);
  }

  /** The same ciphertext under another version of the legacy key. */
  public LegacyCiphertext withKeyVersion(int version) {
    return new LegacyCiphertext(keyName, version, raw, hex, base64, iv);
  }

  io.cipherd.api.v1.LegacyCiphertext toProto() {
    io.cipherd.api.v1.LegacyCiphertext.Builder proto =
        io.cipherd.api.v1.LegacyCiphertext.newBuilder()
            .setKeyName(keyName)
            .setKeyVersion(keyVersion)
            .setIv(com.google.protobuf.ByteString.copyFrom(iv));
    if (raw != null) {
      proto.setRaw(com.google.protobuf.ByteString.copyFrom(raw));
    } else if (hex != null) {
      proto.setHex(hex);
    } else {
      proto.setBase64(base64);
    }
    return proto.build();
  }

  @Override
  public String toString() {
    return "LegacyCiphertext[keyName=" + keyName + ", keyVersion=" + keyVersion + "]";
  }
}
