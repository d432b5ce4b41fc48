package io.cipherd.client;

/**
 * One plaintext of an encrypt batch or stream; {@code reference} is echoed in its result. {@code
 * keyName} (streams only) encrypts this item with another key than the call's; "" for the call's.
 * {@code subject} seals this item under that data subject's own key (see {@link Subject}); "" for
 * the call's subject, if any. {@link #toString()} shows neither the plaintext nor the subject.
 */
public record EncryptItem(
    String reference, byte[] plaintext, byte[] context, String keyName, String subject) {
  public EncryptItem {
    java.util.Objects.requireNonNull(reference, "reference");
    java.util.Objects.requireNonNull(plaintext, "plaintext");
    context = context == null ? new byte[0] : context;
    keyName = keyName == null ? "" : keyName;
    subject = subject == null ? "" : subject;
  }

  /** An item without a subject of its own. */
  public EncryptItem(String reference, byte[] plaintext, byte[] context, String keyName) {
    this(reference, plaintext, context, keyName, "");
  }

  /** An item without context, under the call's key. */
  public static EncryptItem of(String reference, byte[] plaintext) {
    return new EncryptItem(reference, plaintext, new byte[0], "");
  }

  /** An item with a context (the associated data the decryption must give again). */
  public static EncryptItem of(String reference, byte[] plaintext, byte[] context) {
    return new EncryptItem(reference, plaintext, context, "");
  }

  /** This item, sealed under {@code subject}'s own key instead of the call's subject. */
  public EncryptItem withSubject(String subject) {
    return new EncryptItem(reference, plaintext, context, keyName, subject);
  }

  @Override
  public String toString() {
    return "EncryptItem[reference="
        + reference
        + ", "
        + plaintext.length
        + " bytes"
        + (subject.isEmpty() ? "" : ", subject redacted")
        + "]";
  }
}
