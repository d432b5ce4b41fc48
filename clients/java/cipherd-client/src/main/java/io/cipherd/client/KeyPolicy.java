package io.cipherd.client;

import java.time.Duration;

/**
 * A key's policy (proto/README.md, "Key policy"): the lowest versions that decrypt and encrypt, ECB
 * encryption allowed, the automatic rotation period ({@link Duration#ZERO} for none), the cap on
 * encryptions per version (0 for none), and whether a use cancels a scheduled destruction.
 */
public record KeyPolicy(
    int minDecryptionVersion,
    int minEncryptionVersion,
    boolean allowEcbEncryption,
    Duration autoRotatePeriod,
    long maxEncryptionsPerVersion,
    boolean cancelDestructionOnUse) {
  /** The server's defaults: every version usable, no rotation, no cap. */
  public static final KeyPolicy DEFAULT = new KeyPolicy(0, 0, false, Duration.ZERO, 0, false);

  public KeyPolicy withMinDecryptionVersion(int version) {
    return new KeyPolicy(
        version,
        minEncryptionVersion,
        allowEcbEncryption,
        autoRotatePeriod,
        maxEncryptionsPerVersion,
        cancelDestructionOnUse);
  }

  public KeyPolicy withAutoRotatePeriod(Duration period) {
    return new KeyPolicy(
        minDecryptionVersion,
        minEncryptionVersion,
        allowEcbEncryption,
        period,
        maxEncryptionsPerVersion,
        cancelDestructionOnUse);
  }
}
