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

  /**
   * A record of the call made at {@code time} with server request id {@code requestId}; every other
   * field starts empty: no caller's request id, trace, caller, versions or context, no items, the
   * {@link AuditedInventories#NONE} and {@link AuditedCustody#NONE} of a call that sent neither.
   */
  public static Builder builder(Instant time, String requestId) {
    return new Builder(time, requestId);
  }

  /** A {@link CallRecord} field by field; fields not set are empty (see {@link #builder}). */
  public static final class Builder {
    private final Instant time;
    private final String requestId;
    private String clientRequestId;
    private String traceId;
    private String caller;
    private String callerVia;
    private String peer;
    private String method;
    private String keyName;
    private long items;
    private List<ItemTally.VersionOutcomes> versions = List.of();
    private ItemTally.Folded folded;
    private String status;
    private String reason;
    private String contextHash;
    private AuditedInventories inventories = AuditedInventories.NONE;
    private AuditedCustody custody = AuditedCustody.NONE;

    private Builder(Instant time, String requestId) {
      this.time = time;
      this.requestId = requestId;
    }

    public Builder clientRequestId(String clientRequestId) {
      this.clientRequestId = clientRequestId;
      return this;
    }

    public Builder traceId(String traceId) {
      this.traceId = traceId;
      return this;
    }

    public Builder caller(String caller) {
      this.caller = caller;
      return this;
    }

    public Builder callerVia(String callerVia) {
      this.callerVia = callerVia;
      return this;
    }

    public Builder peer(String peer) {
      this.peer = peer;
      return this;
    }

    public Builder method(String method) {
      this.method = method;
      return this;
    }

    public Builder keyName(String keyName) {
      this.keyName = keyName;
      return this;
    }

    public Builder items(long items) {
      this.items = items;
      return this;
    }

    public Builder versions(List<ItemTally.VersionOutcomes> versions) {
      this.versions = versions;
      return this;
    }

    public Builder folded(ItemTally.Folded folded) {
      this.folded = folded;
      return this;
    }

    public Builder status(String status) {
      this.status = status;
      return this;
    }

    public Builder reason(String reason) {
      this.reason = reason;
      return this;
    }

    public Builder contextHash(String contextHash) {
      this.contextHash = contextHash;
      return this;
    }

    public Builder inventories(AuditedInventories inventories) {
      this.inventories = inventories;
      return this;
    }

    public Builder custody(AuditedCustody custody) {
      this.custody = custody;
      return this;
    }

    public CallRecord build() {
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
          inventories,
          custody);
    }
  }
}
