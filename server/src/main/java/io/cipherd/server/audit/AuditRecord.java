package io.cipherd.server.audit;

/** A record of the audit trail other than its own bookkeeping: a call, or a system action. */
sealed interface AuditRecord permits CallRecord, SystemRecord {}
