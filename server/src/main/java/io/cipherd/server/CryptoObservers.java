package io.cipherd.server;

import io.cipherd.server.audit.Audit;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.PendingDestructionObserver;
import io.cipherd.server.engine.UsageObserver;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.lifecycle.DestructionCancellation;
import io.cipherd.server.lifecycle.KeyLifecycleAdmin;
import io.cipherd.server.logging.RequestIds;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.metrics.CryptoMetrics;
import io.cipherd.server.tracing.Tracing;
import io.cipherd.server.usage.UsageLedger;
import java.util.concurrent.Executor;

/**
 * What every crypto operation is told to, in order: the metrics, the cancellation of destructions a
 * call runs into (when its key's policy says so), the usage ledger, the audit tally, and the traced
 * call's span.
 */
final class CryptoObservers {
  private CryptoObservers() {}

  /**
   * The observers of a server with {@code metrics}, counting into {@code usage}, auditing into
   * {@code audit}, cancelling through {@code lifecycle} on {@code executor} what {@code keys}'
   * metadata says to cancel.
   */
  static CryptoObserver of(
      CipherdMetrics metrics,
      UsageLedger usage,
      Audit audit,
      Tracing tracing,
      KeyCache keys,
      KeyLifecycleAdmin lifecycle,
      Executor executor) {
    DestructionCancellation cancellation =
        new DestructionCancellation(
            keys, lifecycle, executor, RequestIds::current, audit.cancellations());
    return CryptoObserver.all(
        new CryptoMetrics(metrics.registry(), metrics.keyNames()),
        new PendingDestructionObserver(cancellation),
        new UsageObserver(usage),
        audit.observer(),
        tracing.observer());
  }
}
