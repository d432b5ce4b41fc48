package io.cipherd.server.audit;

import java.time.Instant;
import java.util.List;

/**
 * One action the server took on its own, not asked by any caller: a {@code system} line of the
 * trail. Today the only one is {@code CancelKeyVersionDestruction}, written when a call tried to
 * use a version pending destruction and the key's policy sets {@code cancel_destruction_on_use}.
 *
 * @param action the API method the action is equivalent to, e.g. {@code
 *     CancelKeyVersionDestruction}
 * @param keyName the key acted on
 * @param versions the versions acted on
 * @param why what caused it, in words
 * @param requestId the request id of the call that caused it, or "-"
 */
public record SystemRecord(
    Instant time,
    String action,
    String keyName,
    List<Integer> versions,
    String why,
    String requestId)
    implements AuditRecord {
  public SystemRecord {
    versions = List.copyOf(versions);
  }
}
