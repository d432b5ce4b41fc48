package io.cipherd.server.keys;

import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * Where named, versioned keys live: a PKCS12 file for a single node, Vault for many replicas.
 *
 * <p>A store keeps the keys themselves; one that also keeps usage totals or the audit trail's key
 * and heads implements {@link UsageStore} or {@link AuditStore} too. Implementations are
 * thread-safe, never delete or overwrite a version, and make each write atomic: after a crash a
 * version is either fully stored or absent. Calls may block on disk or network, so callers keep
 * them off the gRPC event loop.
 */
public interface KeyStore extends AutoCloseable {
  /** Every key name, in ascending order. */
  List<String> listKeyNames();

  /** A key's metadata, or empty if there is no such key. */
  Optional<KeyMetadata> readKey(String name);

  /**
   * The bytes of one version, as a key for {@code mode}'s algorithm; throws {@link
   * KeyNotFoundException} if the key or version does not exist.
   */
  SecretKey readMaterial(String name, KeyVersionInfo version);

  /**
   * Stores a new key whose only version is {@code first}; throws {@link KeyAlreadyExistsException}.
   */
  KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy);

  /**
   * Adds {@code next} as the newest version if the key's newest version is still {@code
   * expectedCurrentVersion}; otherwise throws {@link ConcurrentKeyUpdateException} and stores
   * nothing.
   */
  KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next);

  /** Replaces a key's policy; throws {@link KeyNotFoundException} if there is no such key. */
  KeyMetadata updatePolicy(String name, KeyPolicy policy);

  /**
   * Writes {@code next}'s lifecycle (the key's state and each version's) and policy if the stored
   * key still has {@code expected}'s (check-and-set, so of two replicas applying one transition
   * only one wins; the loser gets {@link ConcurrentKeyUpdateException} and nothing changes), then
   * erases for good the bytes of each version that {@code next} has destroyed and {@code expected}
   * had not. The metadata of a destroyed version stays readable. Versions are never added or
   * removed here; throws {@link KeyNotFoundException} if there is no such key.
   */
  KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next);

  /**
   * Marks a key exportable for good (BackupKey may then write it out); a no-op if it already is.
   * Throws {@link KeyNotFoundException} if there is no such key. No other write clears the flag.
   */
  KeyMetadata setExportable(String name);

  /**
   * Stores {@code key} whole, as a restore from a backup brings it: every version with its state
   * and destruction schedule, the bytes in {@code live} for each version that is not destroyed (in
   * version order, one each), the policy, the key's lifecycle and its exportable flag. Create if
   * absent, as {@link #createKey}: throws {@link KeyAlreadyExistsException} and stores nothing if a
   * key of that name exists.
   */
  KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live);

  @Override
  default void close() {}
}
