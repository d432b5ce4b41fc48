package io.cipherd.client;

/**
 * One ciphertext of a decrypt or re-encrypt batch or stream; {@code reference} is echoed in its
 * result. {@code keyName} (re-encrypt streams only) rewraps this item into another key than the
 * call's ("" keeps the call's, or the ciphertext's own). {@code expectedKey} is the key this item
 * must be under (a name, or a prefix ending in '*'); "" means the call's. The rewraps also take a
 * {@link LegacyCiphertext} instead of a ciphertext ({@link #legacy}), data encrypted before
 * cipherd, which they rewrap into the call's key.
 */
public record CiphertextItem(
    String reference,
    String ciphertext,
    byte[] context,
    String keyName,
    String expectedKey,
    LegacyCiphertext legacyCiphertext) {
  public CiphertextItem {
    java.util.Objects.requireNonNull(reference, "reference");
    if ((ciphertext == null) == (legacyCiphertext == null)) {
      throw new IllegalArgumentException("an item has a ciphertext or a legacy ciphertext");
    }
    ciphertext = ciphertext == null ? "" : ciphertext;
    context = context == null ? new byte[0] : context;
    keyName = keyName == null ? "" : keyName;
    expectedKey = expectedKey == null ? "" : expectedKey;
  }

  public static CiphertextItem of(String reference, String ciphertext) {
    return new CiphertextItem(reference, ciphertext, new byte[0], "", "", null);
  }

  public static CiphertextItem of(String reference, String ciphertext, byte[] context) {
    return new CiphertextItem(reference, ciphertext, context, "", "", null);
  }

  /** A legacy ciphertext to rewrap, bound to {@code context} in its new ciphertext. */
  public static CiphertextItem legacy(String reference, LegacyCiphertext legacy, byte[] context) {
    return new CiphertextItem(reference, null, context, "", "", legacy);
  }

  boolean isLegacy() {
    return legacyCiphertext != null;
  }

  @Override
  public String toString() {
    return "CiphertextItem[reference=" + reference + "]";
  }
}
