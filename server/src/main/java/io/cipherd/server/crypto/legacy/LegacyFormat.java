package io.cipherd.server.crypto.legacy;

import io.cipherd.server.errors.InvalidArgumentException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * How one legacy key version's ciphertexts were made: the cipher, where their IV is, and the fixed
 * IV if they share one. Immutable; validates on construction with the ImportKey field names, so an
 * import that does not fit says which field to fix. Nothing here is secret (the fixed IV is not).
 */
public final class LegacyFormat {
  private final LegacyCipher cipher;
  private final IvConvention iv;
  private final byte[] fixedIv;

  /**
   * {@code iv} null means the default: {@link IvConvention#PREPENDED} for ciphers with an IV,
   * {@link IvConvention#NONE} for the others; {@code fixedIv} is needed with {@link
   * IvConvention#FIXED} only (null or empty otherwise). Throws {@link InvalidArgumentException}
   * naming the field that does not fit.
   */
  public static LegacyFormat of(LegacyCipher cipher, IvConvention iv, byte[] fixedIv) {
    Objects.requireNonNull(cipher, "cipher");
    IvConvention chosen =
        iv != null ? iv : cipher.takesIv() ? IvConvention.PREPENDED : IvConvention.NONE;
    byte[] fixed = fixedIv == null ? new byte[0] : fixedIv;
    if (!cipher.takesIv() && chosen != IvConvention.NONE) {
      throw new InvalidArgumentException(
          "legacy_iv must be unspecified for " + cipher.storeName() + ", which takes no IV");
    }
    if (cipher.takesIv() && chosen == IvConvention.NONE) {
      throw new InvalidArgumentException(
          cipher.storeName()
              + " takes a "
              + cipher.ivLength()
              + "-byte IV: legacy_iv must say where it is (prepended, separate or fixed)");
    }
    if (chosen != IvConvention.FIXED && fixed.length > 0) {
      throw new InvalidArgumentException("legacy_fixed_iv is only for legacy_iv LEGACY_IV_FIXED");
    }
    if (chosen == IvConvention.FIXED && fixed.length != cipher.ivLength()) {
      throw new InvalidArgumentException(
          "legacy_fixed_iv must be "
              + cipher.ivLength()
              + " bytes for "
              + cipher.storeName()
              + ", got "
              + fixed.length);
    }
    return new LegacyFormat(cipher, chosen, fixed.clone());
  }

  private LegacyFormat(LegacyCipher cipher, IvConvention iv, byte[] fixedIv) {
    this.cipher = cipher;
    this.iv = iv;
    this.fixedIv = fixedIv;
  }

  public LegacyCipher cipher() {
    return cipher;
  }

  /** Where the IV is; {@link IvConvention#NONE} exactly when the cipher takes none. */
  public IvConvention iv() {
    return iv;
  }

  /** A copy of the fixed IV; empty unless {@link #iv()} is {@link IvConvention#FIXED}. */
  public byte[] fixedIv() {
    return fixedIv.clone();
  }

  /** The fixed IV without copying, for the decryptor, which only reads it. */
  byte[] fixedIvShared() {
    return fixedIv;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LegacyFormat f
        && f.cipher == cipher
        && f.iv == iv
        && Arrays.equals(f.fixedIv, fixedIv);
  }

  @Override
  public int hashCode() {
    return (cipher.hashCode() * 31 + iv.hashCode()) * 31 + Arrays.hashCode(fixedIv);
  }

  @Override
  public String toString() {
    return "LegacyFormat["
        + cipher.storeName()
        + ", iv "
        + iv.storeName()
        + (fixedIv.length > 0 ? " " + HexFormat.of().formatHex(fixedIv) : "")
        + "]";
  }
}
