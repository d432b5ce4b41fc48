package io.cipherd.server.audit;

import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.lifecycle.DestructionCancellation;
import io.cipherd.server.security.Authorizer;
import io.grpc.ServerBuilder;

/** The audit of a server without an audit trail: records nothing, adds nothing to a call. */
final class NoAudit implements Audit {
  static final NoAudit INSTANCE = new NoAudit();

  private NoAudit() {}

  @Override
  public Authorizer authorizing(Authorizer authorizer) {
    return authorizer;
  }

  @Override
  public CryptoObserver observer() {
    return CryptoObserver.NONE;
  }

  @Override
  public DestructionCancellation.Listener cancellations() {
    return DestructionCancellation.Listener.NONE;
  }

  @Override
  public <T extends ServerBuilder<T>> T intercept(
      T server, AuditInterceptor.Refusals refusals, AuditInterceptor.ItemRefusals itemRefusals) {
    return server;
  }

  @Override
  public AuditKey key() {
    return null;
  }

  @Override
  public ErasureAudit erasures() {
    return ErasureAudit.NONE;
  }

  @Override
  public String trailName() {
    return null;
  }

  @Override
  public void close() {}
}
