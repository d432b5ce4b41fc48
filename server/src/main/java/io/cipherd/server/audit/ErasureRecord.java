package io.cipherd.server.audit;

import java.time.Instant;

/**
 * One subject's erasure: an {@code erasure} line of the trail, written before the call answers so
 * its receipt can name the line. The subject is named by the audit key's hash of its id (what
 * AuditService.HashAuditValue gives for it), never by the id.
 *
 * @param keyName the key the subject was erased under
 * @param subjectHash {@code hmac-sha256:<hex>} of the subject id under the audit key
 * @param outcome ERASED or ALREADY_ERASED
 * @param caller who erased it
 * @param requestId the erasing call's request id, or "-"
 */
public record ErasureRecord(
    Instant time,
    String keyName,
    String subjectHash,
    String outcome,
    String caller,
    String requestId)
    implements AuditRecord {}
