package io.cipherd.server.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The bearer tokens callers may present, known only by their SHA-256 hashes: a leaked policy file
 * gives away no token. Lookups compare every hash in constant time.
 */
public final class BearerTokens {
  public static final BearerTokens NONE = new BearerTokens(Map.of());

  /** Caller name to SHA-256 of its token. */
  private final Map<String, byte[]> hashes;

  BearerTokens(Map<String, byte[]> hashes) {
    this.hashes = Map.copyOf(hashes);
  }

  public boolean isEmpty() {
    return hashes.isEmpty();
  }

  /**
   * Whether {@code caller} is a token caller: then only its token, never a certificate, makes a
   * caller it.
   */
  public boolean namesCaller(String caller) {
    return hashes.containsKey(caller);
  }

  /** The name of the caller whose token this is, or null if it is nobody's. */
  public String identify(String token) {
    return identifyHash(sha256(token));
  }

  /** The name of the caller whose token has SHA-256 {@code presented}, or null. */
  String identifyHash(byte[] presented) {
    String match = null;
    for (Map.Entry<String, byte[]> entry : hashes.entrySet()) {
      // No early exit: the time taken does not depend on which entry matched.
      if (MessageDigest.isEqual(presented, entry.getValue())) {
        match = entry.getKey();
      }
    }
    return match;
  }

  /** Lower-case hex SHA-256 of a token, as the policy file stores it. */
  public static String hashHex(String token) {
    return HexFormat.of().formatHex(sha256(token));
  }

  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
