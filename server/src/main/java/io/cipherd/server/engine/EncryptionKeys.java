package io.cipherd.server.engine;

import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.UsableKey;

/**
 * Where an engine finds the key version to encrypt with. An engine of its own asks the {@link
 * KeyCache} for every encryption. A leased engine (a batch, a stream's run of items) keeps the last
 * answer, so items that encrypt with one key pay the lookup and the policy's checks (the encryption
 * cap reads the usage counters, which other cores are writing) once rather than per item.
 *
 * <p>What is kept lives as long as the lease's work: a batch, or one check period of a stream
 * ({@code api.StreamLease} calls {@link #forget}). A rotation, a policy change or a version
 * reaching its encryption cap is therefore seen by the next batch or within milliseconds on a
 * stream; a version may exceed its cap by the rest of one batch, far inside the margin the 2³⁰
 * default leaves below the 2³² bound of random 96-bit nonces. Confined to the thread, or the lock,
 * the lease's work runs under.
 */
final class EncryptionKeys {
  private final KeyCache keys;
  private final boolean keepLast;
  private String lastName;
  private int lastVersion;
  private UsableKey last;

  private EncryptionKeys(KeyCache keys, boolean keepLast) {
    this.keys = keys;
    this.keepLast = keepLast;
  }

  /** Asks the cache every time. */
  static EncryptionKeys perEncryption(KeyCache keys) {
    return new EncryptionKeys(keys, false);
  }

  /** Keeps the last answer until {@link #forget}. */
  static EncryptionKeys perLease(KeyCache keys) {
    return new EncryptionKeys(keys, true);
  }

  /**
   * As {@link KeyCache#forEncryption}, from the kept answer when it is for the same name and
   * version.
   */
  UsableKey forEncryption(String keyName, int keyVersion) {
    if (last != null && keyVersion == lastVersion && keyName.equals(lastName)) {
      return last;
    }
    UsableKey key = keys.forEncryption(keyName, keyVersion);
    if (keepLast) {
      lastName = keyName;
      lastVersion = keyVersion;
      last = key;
    }
    return key;
  }

  /** Drops the kept answer: the next encryption asks the cache again. */
  void forget() {
    last = null;
    lastName = null;
  }
}
