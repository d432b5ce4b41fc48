package io.cipherd.server.audit;

/**
 * A record of the audit trail other than its own bookkeeping: a call, a system action, or a
 * subject's erasure.
 */
sealed interface AuditRecord permits CallRecord, SystemRecord, ErasureRecord {}
