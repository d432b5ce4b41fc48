package io.cipherd.client;

import java.util.Objects;

/**
 * One ciphertext, with its version, of {@link FormattedValues#decryptAll} or {@link
 * FormattedValues#reEncryptAll}; an empty {@code context} means the call's.
 */
public record FormattedItem(String reference, FormattedValue ciphertext, byte[] context) {
  public FormattedItem {
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(ciphertext, "ciphertext: keep the FormattedValue encrypt returned");
    context = context == null ? new byte[0] : context.clone();
  }

  public FormattedItem(String reference, FormattedValue ciphertext) {
    this(reference, ciphertext, new byte[0]);
  }
}
