package io.cipherd.server.lifecycle;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Retirement refused: versions to retire were used within the quiet period on some replica, or an
 * inventory of the stored data still counts ciphertexts under them. FAILED_PRECONDITION, reason
 * {@link ErrorKind#KEY_VERSIONS_IN_USE}, its ErrorInfo naming the {@code key} and the {@code
 * versions} in use (comma-separated, oldest first), and, when an inventory refused, its {@code
 * source}.
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

  /**
   * Refused by {@code inventory}, which counts {@code counts} ciphertexts (by version, oldest
   * first) under versions to retire.
   */
  public KeyVersionsInUseException(
      String name, DataInventory inventory, Map<Integer, Long> counts) {
    super(
        ErrorKind.KEY_VERSIONS_IN_USE,
        "key '"
            + name
            + "' cannot retire version"
            + (counts.size() == 1 ? " " : "s ")
            + joined(List.copyOf(counts.keySet()), ", ")
            + ": inventory '"
            + inventory.source()
            + "'"
            + (inventory.scanTime() == null ? "" : " (scanned " + inventory.scanTime() + ")")
            + " still counts "
            + counts.entrySet().stream()
                .map(
                    count ->
                        count.getValue()
                            + (count.getValue() == 1 ? " ciphertext" : " ciphertexts")
                            + " under v"
                            + count.getKey())
                .collect(Collectors.joining(", "))
            + "; rewrap them with ReEncrypt (cipherctl rewrap) and scan again");
    this.versions = List.copyOf(counts.keySet());
    describe(Map.of("key", name, "versions", joined(versions, ","), "source", inventory.source()));
  }

  /**
   * Refused because {@code counts} live subject keys (by version, oldest first) are still wrapped
   * under versions to retire or destroy: destroying those would erase their subjects by accident.
   */
  public static KeyVersionsInUseException wrappingSubjectKeys(
      String name, Map<Integer, Long> counts) {
    return new KeyVersionsInUseException(name, counts);
  }

  private KeyVersionsInUseException(String name, Map<Integer, Long> subjectKeys) {
    super(
        ErrorKind.KEY_VERSIONS_IN_USE,
        "key '"
            + name
            + "' cannot retire or destroy version"
            + (subjectKeys.size() == 1 ? " " : "s ")
            + joined(List.copyOf(subjectKeys.keySet()), ", ")
            + ": the subject store still holds "
            + subjectKeys.entrySet().stream()
                .map(
                    count ->
                        count.getValue()
                            + (count.getValue() == 1 ? " subject key" : " subject keys")
                            + " wrapped under v"
                            + count.getKey())
                .collect(Collectors.joining(", "))
            + "; the subject sweep rewraps them to the current version after a rotation: retry"
            + " once it ran");
    this.versions = List.copyOf(subjectKeys.keySet());
    describe(Map.of("key", name, "versions", joined(versions, ","), "source", SUBJECT_KEYS_SOURCE));
  }

  /** The {@code source} of a refusal by the subject keys a version still wraps. */
  public static final String SUBJECT_KEYS_SOURCE = "cipherd:subject-keys";

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
