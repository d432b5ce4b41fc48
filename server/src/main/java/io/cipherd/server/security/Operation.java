package io.cipherd.server.security;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What an access policy rule may allow a caller to do with a key. */
public enum Operation {
  ENCRYPT,
  DECRYPT,
  /** Rewrap a ciphertext to the current version of its own key, never seeing the plaintext. */
  REENCRYPT,
  /** Compute blind indexes with an index key (ComputeIndex, ComputeIndexBatch). */
  INDEX,
  /**
   * Generate data keys wrapped by a key (GenerateDataKey). Unwrapping one is a Decrypt, which needs
   * {@code decrypt}; a caller with {@code datakey} alone can make wrapped keys but not read them
   * back.
   */
  DATAKEY,
  /** Read a ciphertext's header or a key's metadata (Inspect, GetKey, ListKeys). */
  INSPECT,
  /**
   * Create and rotate keys, change their policy, and disable and enable them: a key's future
   * configuration (mode, rotation, version limits), never its bytes, which cipherd generates. It
   * reads no data and destroys none.
   */
  ADMIN,
  /**
   * Import caller-chosen key material as a key's new current version (ImportKey, legacy keys
   * included). Apart from {@code admin}: whoever chooses the bytes can read everything encrypted
   * with them afterwards, so it is granted to a migration's operator, not to every administrator.
   */
  IMPORT,
  /**
   * Destroy key material for good: schedule and cancel the destruction of versions and the deletion
   * of a key, and retire old versions (RetireKeyVersions). Apart from {@code admin}, so rotating a
   * key and destroying its versions are granted to different people; disabling and enabling a key,
   * which loses nothing, is {@code admin}'s.
   */
  DESTROY,
  /**
   * Ask the AuditService for the audit key's hash of a known value and to check audit checkpoints'
   * MACs: for investigators. Not about one key: a rule grants it with keys {@code ["*"]}.
   */
  AUDIT,
  /**
   * Compute the blind index of a ciphertext's plaintext inside the server (ReIndex, ReIndexBatch),
   * granted on the ciphertext's key; the index key also needs {@code index}. The plaintext never
   * leaves the server, so a re-indexing job needs no {@code decrypt}, and {@code decrypt} does not
   * imply this. Ciphertexts of unauthenticated modes also need {@code decrypt}: whether their
   * re-index succeeds would be a padding oracle.
   */
  REINDEX,
  /**
   * Erase data subjects under a key and read their state (SubjectService: EraseSubject,
   * EraseSubjects, GetSubject): every ciphertext of an erased subject becomes undecryptable for
   * good. Apart from {@code admin}, which does not imply it: erasing a person's data is granted to
   * the data-protection process, not to every administrator.
   */
  ERASE,
  /**
   * Read the display mask of a format-preserving value (MaskFormatted): its plaintext's last few
   * characters, the rest hidden, never the plaintext. Allows nothing else; {@code decrypt} implies
   * it (a caller who may decrypt could compute the mask from the plaintext), and not the reverse.
   */
  MASK,
  /**
   * Write a key out whole, every version's bytes, wrapped for an offline recipient (BackupKey), if
   * the key is exportable. Apart from {@code admin}, which does not imply it, as {@code import} and
   * {@code destroy} are: whoever holds a backup and its recipient's private key holds the key.
   */
  EXPORT;

  /** The name used in policy files and messages. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The operation named {@code name} in a policy file, or null if there is none. */
  static Operation fromConfigName(String name) {
    for (Operation operation : values()) {
      if (operation.configName().equals(name)) {
        return operation;
      }
    }
    return null;
  }

  static String configNames() {
    return Arrays.stream(values()).map(Operation::configName).collect(Collectors.joining(", "));
  }
}
