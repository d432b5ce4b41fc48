package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * FF1's tweak for a value of one key in one context: SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name
 * (UTF-8) ‖ 0x00 ‖ context), 32 bytes. The key name makes equal values encrypt differently under
 * keys that share bytes (an import into two names); the context, differently in two columns. This
 * formula is part of the API (proto/README.md): a client that imported a key can recompute it.
 */
public final class FpeTweak {
  /** The longest context accepted, in bytes. */
  public static final int MAX_CONTEXT_BYTES = 1024;

  private static final byte[] LABEL = "cipherd-ff1".getBytes(StandardCharsets.US_ASCII);

  private FpeTweak() {}

  /** The tweak of values of {@code keyName} in {@code context}. */
  public static byte[] of(String keyName, byte[] context) {
    if (context.length > MAX_CONTEXT_BYTES) {
      throw new InvalidArgumentException(
          "context has at most " + MAX_CONTEXT_BYTES + " bytes, not " + context.length);
    }
    MessageDigest sha256 = sha256();
    sha256.update(LABEL);
    sha256.update((byte) 0);
    sha256.update(keyName.getBytes(StandardCharsets.UTF_8));
    sha256.update((byte) 0);
    sha256.update(context);
    return sha256.digest();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
