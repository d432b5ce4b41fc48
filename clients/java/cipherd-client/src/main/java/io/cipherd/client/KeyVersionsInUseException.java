package io.cipherd.client;

import java.util.List;
import java.util.Optional;

/**
 * RetireKeyVersions refused: {@link #versions()} of the key were used within the quiet period on
 * some replica, or the inventory {@link #source()} still counts ciphertexts under them. Rewrap
 * their data, scan again or wait a quiet period, and retry.
 */
public class KeyVersionsInUseException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  KeyVersionsInUseException(ErrorDetails details) {
    super(details);
  }

  /** The versions in use (ascending) from the metadata; empty when it names none or not a list. */
  public List<Integer> versions() {
    String listed = metadata().getOrDefault("versions", "");
    try {
      return listed.isBlank()
          ? List.of()
          : java.util.Arrays.stream(listed.split(","))
              .map(String::strip)
              .filter(v -> !v.isEmpty())
              .map(Integer::valueOf)
              .toList();
    } catch (NumberFormatException e) {
      return List.of(); // not the server's list: say nothing rather than something wrong
    }
  }

  /**
   * The source of the inventory that refused (e.g. "postgres:users.email"); empty when traffic did.
   */
  public Optional<String> source() {
    return Optional.ofNullable(metadata().get("source")).filter(s -> !s.isEmpty());
  }
}
