package io.cipherd.server.subjectkeys;

import io.cipherd.server.subjects.SubjectRef;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How subject keys are wrapped: as a cipherd ciphertext of the named key's current version (the
 * crypto engine's own key-bound encryption), bound to the context {@code "cipherd subject key " ‖
 * ref}, so a wrapped key moved to another row does not unwrap. Disabled keys and destroyed versions
 * refuse to unwrap as they refuse any decryption.
 */
public interface SubjectKeyWrapping {
  /** A wrapped key and the version that wrapped it. */
  record Wrapped(String text, int version) {}

  /** {@code key} wrapped under the current version of {@code keyName}. */
  Wrapped wrap(String keyName, SubjectRef ref, byte[] key);

  /** The key in {@code wrapped}, a row's wrapped key of {@code ref}. */
  byte[] unwrap(String wrapped, SubjectRef ref);

  /** The context a subject key of {@code ref} is wrapped under. */
  static byte[] context(SubjectRef ref) {
    byte[] label = "cipherd subject key ".getBytes(StandardCharsets.US_ASCII);
    byte[] bytes = ref.bytes();
    byte[] context = Arrays.copyOf(label, label.length + bytes.length);
    System.arraycopy(bytes, 0, context, label.length, bytes.length);
    return context;
  }
}
