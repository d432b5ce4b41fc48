package io.cipherd.server.audit;

import java.time.Instant;
import java.util.List;

/**
 * One audited call: who called, from where, what they asked, which key versions it used with how
 * many items per outcome, and how it ended. It holds no plaintext, ciphertext, key bytes or token:
 * the caller's context appears only as {@code contextHash}, a keyed hash an investigator can match
 * against a known value.
 *
 * @param requestId the id the server gave the call (the one its access log line carries)
 * @param clientRequestId the {@code x-request-id} the caller sent, cut to {@value
 *     #MAX_CLIENT_REQUEST_ID} characters, or null when it sent none
 * @param traceId the W3C trace id (32 hex digits) of the call's server span when the call was
 *     traced (sampled), so the record and the trace find each other; null otherwise
 * @param callerVia how the caller was identified: {@code certificate}, {@code token} or {@code
 *     anonymous}
 * @param versions at most {@value ItemTally#MAX_ROWS} key versions, one row each
 * @param folded the aggregate row of the key versions past those, or null when there were none
 * @param contextHash {@code hmac-sha256:<hex>} of the call's context, or null when it had none
 * @param inventories the data inventories a RetireKeyVersions request sent as evidence; empty for
 *     any other call
 * @param custody what a key custody call (CreateImportJob, ImportKey, BackupKey, RestoreKey) asked
 *     and did: the import job, the backup's recipient, the versions whose material moved; {@link
 *     AuditedCustody#NONE} for any other call
 */
public record CallRecord(
    Instant time,
    String requestId,
    String clientRequestId,
    String traceId,
    String caller,
    String callerVia,
    String peer,
    String method,
    String keyName,
    long items,
    List<ItemTally.VersionOutcomes> versions,
    ItemTally.Folded folded,
    String status,
    String reason,
    String contextHash,
    AuditedInventories inventories,
    AuditedCustody custody)
    implements AuditRecord {
  /** The longest caller's request id a record keeps. */
  public static final int MAX_CLIENT_REQUEST_ID = 64;

  public CallRecord {
    versions = List.copyOf(versions);
    if (custody == null) {
      custody = AuditedCustody.NONE;
    }
    if (clientRequestId != null && clientRequestId.length() > MAX_CLIENT_REQUEST_ID) {
      clientRequestId = clientRequestId.substring(0, MAX_CLIENT_REQUEST_ID);
    }
  }

  /** A call that is not a key custody call. */
  public CallRecord(
      Instant time,
      String requestId,
      String clientRequestId,
      String traceId,
      String caller,
      String callerVia,
      String peer,
      String method,
      String keyName,
      long items,
      List<ItemTally.VersionOutcomes> versions,
      ItemTally.Folded folded,
      String status,
      String reason,
      String contextHash,
      AuditedInventories inventories) {
    this(
        time,
        requestId,
        clientRequestId,
        traceId,
        caller,
        callerVia,
        peer,
        method,
        keyName,
        items,
        versions,
        folded,
        status,
        reason,
        contextHash,
        inventories,
        AuditedCustody.NONE);
  }

  /** A call that was not traced and is not a key custody call. */
  public CallRecord(
      Instant time,
      String requestId,
      String clientRequestId,
      String caller,
      String callerVia,
      String peer,
      String method,
      String keyName,
      long items,
      List<ItemTally.VersionOutcomes> versions,
      ItemTally.Folded folded,
      String status,
      String reason,
      String contextHash,
      AuditedInventories inventories) {
    this(
        time,
        requestId,
        clientRequestId,
        null,
        caller,
        callerVia,
        peer,
        method,
        keyName,
        items,
        versions,
        folded,
        status,
        reason,
        contextHash,
        inventories);
  }

  /** This record without its inventories. */
  CallRecord withoutInventories() {
    return new CallRecord(
        time,
        requestId,
        clientRequestId,
        traceId,
        caller,
        callerVia,
        peer,
        method,
        keyName,
        items,
        versions,
        folded,
        status,
        reason,
        contextHash,
        AuditedInventories.NONE,
        custody);
  }

  /** A call without a caller's request id, folded versions or inventories. */
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
        null,
        caller,
        callerVia,
        peer,
        method,
        keyName,
        items,
        versions,
        null,
        status,
        reason,
        contextHash,
        AuditedInventories.NONE);
  }
}
