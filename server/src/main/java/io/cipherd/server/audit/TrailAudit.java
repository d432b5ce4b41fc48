package io.cipherd.server.audit;

import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.lifecycle.DestructionCancellation;
import io.cipherd.server.logging.RequestIds;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.CallerIdentity;
import io.grpc.ServerBuilder;
import java.time.Instant;
import java.util.List;

/** The audit of a server with an audit trail: every call's record goes to {@link AuditTrail}. */
final class TrailAudit implements Audit {
  private final AuditTrail trail;

  TrailAudit(AuditTrail trail) {
    this.trail = trail;
  }

  @Override
  public Authorizer authorizing(Authorizer authorizer) {
    return new AuditedAuthorizer(authorizer);
  }

  @Override
  public CryptoObserver observer() {
    return new AuditObserver();
  }

  @Override
  public DestructionCancellation.Listener cancellations() {
    return trail::recordDestructionCancelledOnUse;
  }

  @Override
  public <T extends ServerBuilder<T>> T intercept(
      T server, AuditInterceptor.Refusals refusals, AuditInterceptor.ItemRefusals itemRefusals) {
    return server.intercept(new AuditInterceptor(trail, refusals, itemRefusals));
  }

  @Override
  public AuditKey key() {
    return trail.key();
  }

  @Override
  public ErasureAudit erasures() {
    return new ErasureAudit() {
      @Override
      public String hashSubject(byte[] subject) {
        return trail.key().hashContext(subject);
      }

      @Override
      public List<AuditReceipt> recordErasures(
          Instant time, String keyName, List<String> subjectHashes) {
        // Read in the erasing call's context, which the blocking pool carries.
        String caller = CallerIdentity.current();
        String requestId = RequestIds.current();
        return trail.recordErasures(
            subjectHashes.stream()
                .map(
                    hash ->
                        new ErasureRecord(
                            time,
                            keyName,
                            hash,
                            "ERASED",
                            caller == null ? "-" : caller,
                            requestId == null ? "-" : requestId))
                .toList());
      }
    };
  }

  @Override
  public String trailName() {
    return trail.trailName();
  }

  @Override
  public void close() {
    trail.close();
  }
}
