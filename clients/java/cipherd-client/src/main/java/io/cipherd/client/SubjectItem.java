package io.cipherd.client;

import java.util.Objects;

/**
 * One subject of {@link Subjects#eraseAll}; {@code reference} is echoed in its result. {@link
 * #toString()} never shows the subject.
 */
public record SubjectItem(String reference, String subject) {
  public SubjectItem {
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(subject, "subject");
  }

  @Override
  public String toString() {
    return "SubjectItem[reference=" + reference + ", subject redacted]";
  }
}
