package io.cipherd.client;

import java.util.Objects;

/**
 * One plaintext of {@link FormattedValues#encryptAll}; an empty {@code context} means the call's.
 * Its {@code toString} does not show the value.
 */
public record FormattedPlainItem(String reference, String value, byte[] context) {
  public FormattedPlainItem {
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(value, "value");
    context = context == null ? new byte[0] : context.clone();
  }

  public FormattedPlainItem(String reference, String value) {
    this(reference, value, new byte[0]);
  }

  @Override
  public String toString() {
    return "FormattedPlainItem[reference=" + reference + ", value=(" + value.length() + " chars)]";
  }
}
