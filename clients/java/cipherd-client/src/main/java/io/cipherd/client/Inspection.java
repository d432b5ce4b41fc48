package io.cipherd.client;

/**
 * What the server says of a ciphertext's header: its key, version and mode, and the key's current
 * version. A {@code subjectBound} ciphertext (sealed under a data subject's key) names no version
 * ({@code keyVersion} 0) and is never {@code behindCurrent}: the server's sweep moves its subject's
 * key to the current version.
 */
public record Inspection(
    String keyName,
    int keyVersion,
    Mode mode,
    int currentVersion,
    boolean behindCurrent,
    boolean subjectBound) {
  /** A key-bound ciphertext's inspection. */
  public Inspection(
      String keyName, int keyVersion, Mode mode, int currentVersion, boolean behindCurrent) {
    this(keyName, keyVersion, mode, currentVersion, behindCurrent, false);
  }
}
