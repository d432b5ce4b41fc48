package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.keys.KeyCache;
import java.util.function.IntFunction;

/**
 * Whether serving a request needs no key-store call, because every key version it uses is in the
 * {@link KeyCache}, or because it fails at once (a header that does not parse, a key its {@code
 * expected_key} refuses): such a request may be served on an event loop, any other goes to the
 * blocking pool. Only answers; never loads a key.
 */
public final class FromMemory {
  private final KeyCache keys;

  FromMemory(KeyCache keys) {
    this.keys = keys;
  }

  /**
   * Whether encrypting with {@code keyName}'s {@code keyVersion} (0: current) needs no store: its
   * version is cached and its encryption can be reserved from memory. A batch's later items may
   * still need the store (a full block of reservations, a rotation at the cap): on an event loop
   * that costs one store call per block, the price of a cap that holds.
   */
  public boolean canEncrypt(String keyName, int keyVersion) {
    return keys.canEncryptFromMemory(keyName, keyVersion);
  }

  /** Whether decrypting or inspecting {@code ciphertext} needs no store. */
  public boolean canDecrypt(String ciphertext) {
    return canDecrypt(ciphertext, "");
  }

  /**
   * Whether decrypting {@code ciphertext} for a request whose raw {@code expected_key} is {@code
   * expectedKey} needs no store: a ciphertext it refuses fails at once, its key never looked up.
   */
  public boolean canDecrypt(String ciphertext, String expectedKey) {
    EnvelopeHeader header = headerOrNull(ciphertext);
    return header == null
        || ExpectedKey.refusesAtOnce(expectedKey, header.keyName())
        || keys.isCached(header.keyName(), header.version());
  }

  /**
   * Whether decrypting every one of {@code count} ciphertexts ({@code ciphertextAt} gives each, or
   * null for an item that has none to decrypt, such as a legacy one; {@code expectedKeyAt} each
   * item's raw {@code expected_key}, its own or its batch's) needs no store; stops at the first
   * that does. A batch's ciphertexts mostly share a header: one that starts with the text of the
   * last header found in memory is not parsed again.
   */
  public boolean canDecrypt(
      int count, IntFunction<String> ciphertextAt, IntFunction<String> expectedKeyAt) {
    String inMemory = null;
    for (int i = 0; i < count; i++) {
      String ciphertext = ciphertextAt.apply(i);
      if (ciphertext != null && (inMemory == null || !ciphertext.startsWith(inMemory))) {
        EnvelopeHeader header = headerOrNull(ciphertext);
        if (header != null
            && !ExpectedKey.refusesAtOnce(expectedKeyAt.apply(i), header.keyName())) {
          if (!keys.isCached(header.keyName(), header.version())) {
            return false;
          }
          inMemory = header.text();
        }
      }
    }
    return true;
  }

  /**
   * Whether rewrapping {@code ciphertext} into {@code targetKeyName} (empty: its own key) for a
   * request whose raw {@code expected_key} is {@code expectedKey} needs no store.
   */
  public boolean canReEncrypt(String ciphertext, String targetKeyName, String expectedKey) {
    return canDecrypt(ciphertext, expectedKey)
        && (targetKeyName.isEmpty() || canEncrypt(targetKeyName, 0));
  }

  /**
   * Whether rewrapping a legacy ciphertext of {@code legacyKeyName} version {@code legacyVersion}
   * (0: its newest) into {@code targetKeyName}, for a request whose raw {@code expected_key} is
   * {@code expectedKey}, needs no store: a legacy key it refuses fails at once.
   */
  public boolean canReEncryptLegacy(
      String legacyKeyName, int legacyVersion, String targetKeyName, String expectedKey) {
    return ExpectedKey.refusesAtOnce(expectedKey, legacyKeyName)
        || (keys.isCached(legacyKeyName, legacyVersion) && canEncrypt(targetKeyName, 0));
  }

  /** The header of {@code ciphertext}, or null if it does not parse (it then fails at once). */
  private static EnvelopeHeader headerOrNull(String ciphertext) {
    EnvelopeHeader recent = Envelope.recentHeader(ciphertext);
    if (recent != null) {
      return recent;
    }
    try {
      return Envelope.peekHeader(ciphertext);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
