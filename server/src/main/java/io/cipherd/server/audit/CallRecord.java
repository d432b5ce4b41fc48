package io.cipherd.server.audit;

import java.time.Instant;
import java.util.List;

/**
 * One audited call: who called, from where, what they asked, which key versions it used with how
 * many items per outcome, and how it ended. It holds no plaintext, ciphertext, key bytes or token:
 * the caller's context appears only as {@code contextHash}, a keyed hash an investigator can match
 * against a known value.
 *
 * @param callerVia how the caller was identified: {@code certificate}, {@code token} or {@code
 *     anonymous}
 * @param contextHash {@code hmac-sha256:<hex>} of the call's context, or null when it had none
 * @param inventories the data inventories a RetireKeyVersions request sent as evidence; empty for
 *     any other call
 */
public record CallRecord(
    Instant time,
    String requestId,
    String caller,
    String callerVia,
    String peer,
    String method,
    String keyName,
    long items,
    List<ItemTally.VersionOutcomes> versions,
    String status,
    String reason,
    String contextHash,
    List<AuditedInventory> inventories)
    implements AuditRecord {
  public CallRecord {
    versions = List.copyOf(versions);
    inventories = List.copyOf(inventories);
  }

  /** This record without its inventories. */
  CallRecord withoutInventories() {
    return new CallRecord(
        time,
        requestId,
        caller,
        callerVia,
        peer,
        method,
        keyName,
        items,
        versions,
        status,
        reason,
        contextHash,
        List.of());
  }

  /** A call without inventories. */
  public CallRecord(
      Instant time,
      String requestId,
      String caller,
      String callerVia,
      String peer,
      String method,
      String keyName,
      long items,
      List<ItemTally.VersionOutcomes> versions,
      String status,
      String reason,
      String contextHash) {
    this(
        time,
        requestId,
        caller,
        callerVia,
        peer,
        method,
        keyName,
        items,
        versions,
        status,
        reason,
        contextHash,
        List.of());
  }
}
