package io.cipherd.server.keys;

import java.util.Optional;

/**
 * Where the audit trail anchors itself in the key store: the audit key every replica shares and the
 * head of each trail. Thread-safe; calls may block on disk or network.
 */
public interface AuditStore {
  /**
   * The audit key's 32 bytes, shared by every replica of the store: created on first use with
   * check-and-set (so two replicas starting at once agree on one), then read. It hashes callers'
   * contexts and MACs the audit trail's checkpoints; no API ever returns it. The caller wipes the
   * returned copy.
   */
  byte[] auditKeyMaterial();

  /**
   * The head anchored for audit trail {@code trail} ({@link AuditHead}), or empty if none was ever
   * written for that name.
   */
  Optional<AuditHead> readAuditHead(String trail);

  /**
   * Replaces the head of trail {@code next.trail()} with {@code next} if the stored head is still
   * {@code expected} (null: none stored yet), atomically against other writers (check-and-set: of
   * two writers expecting the same head, one wins). Returns false, and stores nothing, if the
   * stored head is not {@code expected}.
   */
  boolean writeAuditHead(AuditHead expected, AuditHead next);
}
