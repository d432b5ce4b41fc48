package io.cipherd.client;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The ciphertext's data subject was erased ({@link CipherdClient#eraseSubject}): its data can never
 * be decrypted again; or an encrypt named an erased subject without {@code
 * renewErasedSubject(true)}. Never a {@link DecryptionFailedException}: nothing is wrong with the
 * ciphertext. The metadata names the key and the erase time, never the subject.
 */
public class SubjectErasedException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  SubjectErasedException(ErrorDetails details) {
    super(details);
  }

  /** When the subject was erased, from the metadata; empty when it names none (an item's error). */
  public Optional<Instant> eraseTime() {
    String time = metadata().getOrDefault("erase_time", "");
    try {
      return time.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(time));
    } catch (DateTimeParseException e) {
      return Optional.empty(); // not the server's time: say nothing rather than something wrong
    }
  }
}
