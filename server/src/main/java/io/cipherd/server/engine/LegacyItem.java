package io.cipherd.server.engine;

import java.util.Objects;

/**
 * One ciphertext made before cipherd, to be rewrapped: which legacy key version decrypts it, its
 * bytes as stored, and its own IV when the version's convention keeps IVs apart. Not secret, but
 * someone's data: never logged.
 *
 * @param keyName the legacy key
 * @param keyVersion its version; 0 for the newest
 * @param data the ciphertext (with its IV first under the prepended convention)
 * @param iv the item's IV, empty unless the convention is separate
 */
public record LegacyItem(String keyName, int keyVersion, byte[] data, byte[] iv) {
  public LegacyItem {
    Objects.requireNonNull(keyName, "keyName");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(iv, "iv");
  }

  @Override
  public String toString() {
    return "LegacyItem[" + keyName + "/v" + keyVersion + ", " + data.length + " bytes]";
  }
}
