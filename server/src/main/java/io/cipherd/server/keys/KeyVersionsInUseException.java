package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Retirement refused: versions to retire were used within the quiet period on some replica.
 * FAILED_PRECONDITION, reason {@link ErrorKind#KEY_VERSIONS_IN_USE}, its ErrorInfo naming the
 * {@code key} and the {@code versions} in use (comma-separated, oldest first).
 */
public final class KeyVersionsInUseException extends CipherdException {
  private final List<Integer> versions;

  public KeyVersionsInUseException(String name, List<Integer> versions, Duration quietPeriod) {
    super(
        ErrorKind.KEY_VERSIONS_IN_USE,
        "key '"
            + name
            + "' cannot retire version"
            + (versions.size() == 1 ? " " : "s ")
            + joined(versions, ", ")
            + ": used within the quiet period ("
            + spelled(quietPeriod)
            + ") on some replica; rewrap their data with ReEncrypt and retry once GetKeyCensus"
            + " shows them idle");
    this.versions = List.copyOf(versions);
    describe(Map.of("key", name, "versions", joined(versions, ",")));
  }

  /** The versions in use, oldest first. */
  public List<Integer> versions() {
    return versions;
  }

  private static String joined(List<Integer> versions, String separator) {
    return versions.stream().map(String::valueOf).collect(Collectors.joining(separator));
  }

  private static String spelled(Duration period) {
    if (period.toSeconds() % 86_400 == 0) {
      return period.toDays() + (period.toDays() == 1 ? " day" : " days");
    }
    if (period.toSeconds() % 3_600 == 0) {
      return period.toHours() + (period.toHours() == 1 ? " hour" : " hours");
    }
    return period.toSeconds() + (period.toSeconds() == 1 ? " second" : " seconds");
  }
}
