package io.cipherd.server.crypto;

/**
 * One key version as the crypto path reports it to metrics and usage counts: its key's name, its
 * number and its {@link KeyType}. An encryption key's version is reported as the {@code
 * envelope.EnvelopeHeader} its ciphertexts start with; index and legacy versions, which start none,
 * as a plain reference. Either is made once per loaded version and reused for every operation.
 */
public class KeyVersionRef {
  private final String keyName;
  private final int version;
  private final KeyType type;

  /** The version {@code version} of {@code keyName}, a version of {@code type}. */
  public KeyVersionRef(String keyName, int version, KeyType type) {
    this.keyName = keyName;
    this.version = version;
    this.type = type;
  }

  public final String keyName() {
    return keyName;
  }

  public final int version() {
    return version;
  }

  public final KeyType type() {
    return type;
  }

  /**
   * Whether {@code other} names the same version of the same key, of the same type: what a report
   * of {@code other} counts under. Two refs of one version need not be one object (a subject-bound
   * item's is made per item), and equality stays identity, as the subclasses' is theirs.
   */
  public final boolean sameVersion(KeyVersionRef other) {
    return other == this
        || (version == other.version && type == other.type && keyName.equals(other.keyName));
  }

  /**
   * {@code NAME/vVERSION}: the key version without its type, as logs show it; {@code NAME/s} for a
   * subject-bound ciphertext's header, which names no version (0).
   */
  public final String versionedName() {
    return version == 0 ? keyName + "/s" : keyName + "/v" + version;
  }

  @Override
  public String toString() {
    return versionedName() + ":" + type.typeName();
  }
}
