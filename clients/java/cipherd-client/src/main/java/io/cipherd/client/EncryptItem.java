package io.cipherd.client;

/**
 * One plaintext of an encrypt batch or stream; {@code reference} is echoed in its result. {@code
 * keyName} (streams only) encrypts this item with another key than the call's; "" for the call's.
 */
public record EncryptItem(String reference, byte[] plaintext, byte[] context, String keyName) {
  public EncryptItem {
    java.util.Objects.requireNonNull(reference, "reference");
    java.util.Objects.requireNonNull(plaintext, "plaintext");
    context = context == null ? new byte[0] : context;
    keyName = keyName == null ? "" : keyName;
  }

  /** An item without context, under the call's key. */
  public static EncryptItem of(String reference, byte[] plaintext) {
    return new EncryptItem(reference, plaintext, new byte[0], "");
  }

  /** An item with a context (the associated data the decryption must give again). */
  public static EncryptItem of(String reference, byte[] plaintext, byte[] context) {
    return new EncryptItem(reference, plaintext, context, "");
  }

  @Override
  public String toString() {
    return "EncryptItem[reference=" + reference + ", " + plaintext.length + " bytes]";
  }
}
