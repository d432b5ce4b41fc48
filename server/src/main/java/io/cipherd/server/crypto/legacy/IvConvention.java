package io.cipherd.server.crypto.legacy;

/** Where a legacy ciphertext's IV (or nonce) is, for ciphers that take one. */
public enum IvConvention {
  /** The cipher takes no IV (ECB, RC4). */
  NONE("none"),
  /** The IV is the ciphertext's first bytes, as most applications stored it. */
  PREPENDED("prepended"),
  /** Each item brings its IV beside the ciphertext (LegacyCiphertext.iv). */
  SEPARATE("separate"),
  /** Every ciphertext used the one IV recorded with the key version. */
  FIXED("fixed");

  private final String storeName;

  IvConvention(String storeName) {
    this.storeName = storeName;
  }

  /** The name key stores record, e.g. {@code prepended}. */
  public String storeName() {
    return storeName;
  }

  /** The convention a key store recorded as {@code name}, or null if there is none. */
  public static IvConvention fromStoreName(String name) {
    for (IvConvention convention : values()) {
      if (convention.storeName.equals(name)) {
        return convention;
      }
    }
    return null;
  }
}
