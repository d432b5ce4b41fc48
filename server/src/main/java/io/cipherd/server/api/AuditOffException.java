package io.cipherd.server.api;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/** The server keeps no audit trail, so the audit service has no audit key to answer with. */
final class AuditOffException extends CipherdException {
  AuditOffException() {
    super(
        ErrorKind.POLICY_DENIED,
        "this server keeps no audit trail (start it with --audit-log), so it has no audit key");
  }
}
