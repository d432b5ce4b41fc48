package io.cipherd.client;

/**
 * One ciphertext of a decrypt or re-encrypt batch or stream; {@code reference} is echoed in its
 * result. {@code keyName} (re-encrypt streams only) rewraps this item into another key than the
 * call's ("" keeps the call's, or the ciphertext's own). {@code expectedKey} is the key this item
 * must be under (a name, or a prefix ending in '*'); "" means the call's.
 */
public record CiphertextItem(
    String reference, String ciphertext, byte[] context, String keyName, String expectedKey) {
  public CiphertextItem {
    java.util.Objects.requireNonNull(reference, "reference");
    java.util.Objects.requireNonNull(ciphertext, "ciphertext");
    context = context == null ? new byte[0] : context;
    keyName = keyName == null ? "" : keyName;
    expectedKey = expectedKey == null ? "" : expectedKey;
  }

  public static CiphertextItem of(String reference, String ciphertext) {
    return new CiphertextItem(reference, ciphertext, new byte[0], "", "");
  }

  public static CiphertextItem of(String reference, String ciphertext, byte[] context) {
    return new CiphertextItem(reference, ciphertext, context, "", "");
  }

  @Override
  public String toString() {
    return "CiphertextItem[reference=" + reference + "]";
  }
}
