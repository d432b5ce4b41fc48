package io.cipherd.server.keys;

import java.util.Arrays;
import java.util.Objects;

/**
 * A version about to be stored: its metadata and its raw key bytes.
 *
 * @param info the version's metadata
 * @param material the raw key bytes; secret, so left out of {@link #toString()}
 */
public record NewKeyVersion(KeyVersionInfo info, byte[] material) {
  public NewKeyVersion {
    Objects.requireNonNull(info, "info");
    Objects.requireNonNull(material, "material");
    if (material.length * 8 != info.keySizeBits()) {
      throw new IllegalArgumentException(
          "key material is " + material.length * 8 + " bits, version says " + info.keySizeBits());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NewKeyVersion v
        && v.info.equals(info)
        && Arrays.equals(v.material, material);
  }

  @Override
  public int hashCode() {
    return info.hashCode();
  }

  @Override
  public String toString() {
    return "NewKeyVersion[" + info + ", material=<redacted>]";
  }
}
