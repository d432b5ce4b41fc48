package io.cipherd.client;

import java.util.Map;

/**
 * A value's blind index under {@code keyVersion}; with allVersions, {@code versions} maps every
 * usable version (newest first) to the value's index under it, for {@code WHERE idx IN (...)}
 * across a rotation.
 */
public record BlindIndex(byte[] index, int keyVersion, Map<Integer, byte[]> versions) {
  @Override
  public String toString() {
    return "BlindIndex[keyVersion=" + keyVersion + ", versions=" + versions.keySet() + "]";
  }
}
