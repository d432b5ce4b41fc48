package io.cipherd.server.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The audit key, kept in the key store like any key and never written out: it hashes the callers'
 * contexts (as Vault's audit devices hash secrets, so an investigator with a known value can ask
 * the server for its hash and find the records) and MACs the chain's checkpoints, so a rewritten
 * log cannot be passed off as the server's. The two uses get separate subkeys, derived by HMAC with
 * a label, so a context hash can never be replayed as a checkpoint MAC.
 */
public final class AuditKey {
  static final String PREFIX = "hmac-sha256:";
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec contextKey;
  private final SecretKeySpec checkpointKey;
  private final ThreadLocal<Mac> contextMacs;

  /** {@code material}: at least 32 random bytes from the key store; copied, not kept. */
  public AuditKey(byte[] material) {
    if (material.length < 32) {
      throw new IllegalArgumentException("the audit key needs at least 32 bytes");
    }
    SecretKeySpec root = new SecretKeySpec(material, ALGORITHM);
    this.contextKey = new SecretKeySpec(derive(root, "cipherd audit context hash v1"), ALGORITHM);
    this.checkpointKey = new SecretKeySpec(derive(root, "cipherd audit checkpoint v1"), ALGORITHM);
    this.contextMacs = ThreadLocal.withInitial(() -> newMac(contextKey));
  }

  /** {@code hmac-sha256:<hex>} of a caller's context, as records carry it. */
  public String hashContext(byte[] context) {
    return PREFIX + HexFormat.of().formatHex(contextMacs.get().doFinal(context));
  }

  /**
   * The MAC of a checkpoint at {@code seq}, made at {@code time}, after the line hashed {@code
   * prev}.
   */
  String checkpointMac(long seq, String time, String prev) {
    Mac mac = newMac(checkpointKey);
    byte[] message = (seq + "\n" + time + "\n" + prev).getBytes(StandardCharsets.US_ASCII);
    return PREFIX + HexFormat.of().formatHex(mac.doFinal(message));
  }

  /** Whether {@code mac} is the MAC of that checkpoint, compared in constant time. */
  public boolean verifyCheckpoint(long seq, String time, String prev, String mac) {
    return MessageDigest.isEqual(
        checkpointMac(seq, time, prev).getBytes(StandardCharsets.US_ASCII),
        mac.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] derive(SecretKeySpec root, String label) {
    return newMac(root).doFinal(label.getBytes(StandardCharsets.US_ASCII));
  }

  private static Mac newMac(SecretKeySpec key) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable in this JDK", e);
    }
  }

  @Override
  public String toString() {
    return "AuditKey[hidden]";
  }
}
