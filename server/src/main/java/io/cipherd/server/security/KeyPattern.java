package io.cipherd.server.security;

import java.util.regex.Pattern;

/** A key-name glob from the access policy: {@code *} matches any run of characters, all else itself. */
record KeyPattern(String glob, Pattern regex) {
  /** Key-name characters plus the wildcard. */
  private static final Pattern SYNTAX = Pattern.compile("[a-z0-9_*-]{1,64}");

  /** Parses {@code glob}, or throws with what is wrong with it. */
  static KeyPattern of(String glob) {
    if (glob == null || !SYNTAX.matcher(glob).matches()) {
      throw new IllegalArgumentException("bad key pattern '" + glob + "': use key-name characters "
          + "[a-z0-9_-] and '*' for any run of them, e.g. 'payments-*' or '*'");
    }
    StringBuilder regex = new StringBuilder();
    for (String literal : glob.split("\\*", -1)) {
      if (!regex.isEmpty()) {
        regex.append(".*");
      }
      regex.append(Pattern.quote(literal));
    }
    return new KeyPattern(glob, Pattern.compile(regex.toString()));
  }

  boolean matches(String keyName) {
    return regex.matcher(keyName).matches();
  }

  @Override
  public String toString() {
    return glob;
  }
}
