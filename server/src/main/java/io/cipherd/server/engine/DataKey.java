package io.cipherd.server.engine;

/**
 * A generated data key: its bytes (secret: wipe them once sent) and the same bytes wrapped.
 *
 * @param plaintextKey the data key
 * @param wrapped the data key encrypted with the named key's current version
 */
public record DataKey(byte[] plaintextKey, Encrypted wrapped) {
  @Override
  public String toString() {
    return "DataKey["
        + plaintextKey.length * 8
        + " bits, wrapped by "
        + wrapped.header().versionedName()
        + "]";
  }
}
