package io.cipherd.client;

import java.util.Objects;

/**
 * The data subject an encrypt seals its data for (proto/README.md, "Subject-bound ciphertexts"):
 * any opaque id the application has, e.g. "user-8812" (1 to 256 bytes of UTF-8). The data is sealed
 * under that subject's own key, made on first use, so that {@link Subjects#erase} makes all of it
 * undecryptable and nobody else's. For an erased subject the encrypt fails with {@link
 * SubjectErasedException} unless {@link #renewingErased()}. The id is personal data: {@link
 * #toString()} never shows it.
 */
public record Subject(String id, boolean renewErased) {
  public Subject {
    Objects.requireNonNull(id, "id");
  }

  /** The subject {@code id}, refused once erased. */
  public static Subject of(String id) {
    return new Subject(id, false);
  }

  /**
   * This subject, with a new key if it was erased instead of failing; what was sealed before the
   * erasure stays erased.
   */
  public Subject renewingErased() {
    return new Subject(id, true);
  }

  @Override
  public String toString() {
    return "Subject[redacted" + (renewErased ? ", renewErased" : "") + "]";
  }
}
