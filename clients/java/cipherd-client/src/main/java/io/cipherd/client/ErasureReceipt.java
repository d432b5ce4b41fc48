package io.cipherd.client;

import java.time.Instant;

/**
 * The audit record of an erasure, to check later against the trail ({@code cipherctl subjects
 * verify-receipt}). It names the subject by {@code subjectHash} only: the audit key's hash of the
 * id (lowercase hex), as {@link AuditTrail#hashValue} gives it and as the audit record names it;
 * {@code recordHash} is the record's chain hash (lowercase hex).
 */
public record ErasureReceipt(
    String keyName,
    String subjectHash,
    Instant eraseTime,
    String trail,
    long auditSeq,
    String recordHash) {}
