package io.cipherd.server.audit;

import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.lifecycle.DestructionCancellation;
import io.cipherd.server.security.Authorizer;
import io.grpc.ServerBuilder;

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
  public String trailName() {
    return trail.trailName();
  }

  @Override
  public void close() {
    trail.close();
  }
}
