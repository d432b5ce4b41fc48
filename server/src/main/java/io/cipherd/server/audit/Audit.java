package io.cipherd.server.audit;

import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.lifecycle.DestructionCancellation;
import io.cipherd.server.security.Authorizer;
import io.grpc.ServerBuilder;

/**
 * What a server audits through: an {@link AuditTrail} ({@link #to}), or nothing ({@link #off}), so
 * the wiring asks no "is there a trail?" question.
 */
public interface Audit extends AutoCloseable {
  /** Audits nothing: calls run unrecorded and the audit service refuses for want of a trail. */
  static Audit off() {
    return NoAudit.INSTANCE;
  }

  /** Audits into {@code trail}, which closes with it. */
  static Audit to(AuditTrail trail) {
    return new TrailAudit(trail);
  }

  /** {@code authorizer}, with its decisions recorded for the call's audit record. */
  Authorizer authorizing(Authorizer authorizer);

  /** What each crypto operation tells the audit record. */
  CryptoObserver observer();

  /** Hears each destruction a crypto call cancelled. */
  DestructionCancellation.Listener cancellations();

  /** {@code server} with the interceptor that writes each call's audit record. */
  <T extends ServerBuilder<T>> T intercept(
      T server, AuditInterceptor.Refusals refusals, AuditInterceptor.ItemRefusals itemRefusals);

  /** The trail's key, or null without a trail (the audit service then refuses). */
  AuditKey key();

  /** Records subject erasures before their calls answer; records nothing without a trail. */
  ErasureAudit erasures();

  /** The trail's name, or null without a trail. */
  String trailName();

  @Override
  void close();
}
