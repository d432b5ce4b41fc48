package io.cipherd.server.security;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A key-name glob from the access policy: {@code *} matches any run of characters, all else itself.
 */
final class KeyPattern {
  /** Key-name characters plus the wildcard. */
  private static final Pattern SYNTAX = Pattern.compile("[a-z0-9_*-]{1,64}");

  private final String glob;

  /**
   * The glob cut at each {@code *}: one literal when it has no wildcard, empty strings included.
   */
  private final List<String> literals;

  private KeyPattern(String glob) {
    this.glob = glob;
    this.literals = List.of(glob.split("\\*", -1));
  }

  /** Parses {@code glob}, or throws with what is wrong with it. */
  static KeyPattern of(String glob) {
    if (glob == null || !SYNTAX.matcher(glob).matches()) {
      throw new IllegalArgumentException(
          "bad key pattern '"
              + glob
              + "': use key-name characters "
              + "[a-z0-9_-] and '*' for any run of them, e.g. 'payments-*' or '*'");
    }
    return new KeyPattern(glob);
  }

  String glob() {
    return glob;
  }

  /**
   * Whether the whole of {@code keyName} matches, in time linear in its length: the first literal
   * is a prefix, the last a suffix that does not overlap it, and each literal between is found at
   * its leftmost place after the one before. Taking the leftmost place never loses a match when the
   * only wildcard is {@code *}, so nothing is retried (a regex of {@code .*} runs would backtrack,
   * quadratically or worse, on a long caller-chosen name).
   */
  boolean matches(String keyName) {
    String first = literals.getFirst();
    if (literals.size() == 1) {
      return keyName.equals(first);
    }
    String last = literals.getLast();
    if (keyName.length() < first.length() + last.length()
        || !keyName.startsWith(first)
        || !keyName.endsWith(last)) {
      return false;
    }
    int from = first.length();
    int end = keyName.length() - last.length();
    for (String middle : literals.subList(1, literals.size() - 1)) {
      int at = keyName.indexOf(middle, from);
      if (at < 0 || at + middle.length() > end) {
        return false;
      }
      from = at + middle.length();
    }
    return true;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KeyPattern pattern && pattern.glob.equals(glob);
  }

  @Override
  public int hashCode() {
    return glob.hashCode();
  }

  @Override
  public String toString() {
    return glob;
  }
}
