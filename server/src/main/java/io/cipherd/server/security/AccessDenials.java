package io.cipherd.server.security;

import java.util.concurrent.atomic.LongAdder;

/** Counts calls and items the access policy refused, for the metrics exporter to read. */
public final class AccessDenials {
  private final LongAdder denied = new LongAdder();
  private final LongAdder anonymous = new LongAdder();

  /** Refusals of a known caller (PERMISSION_DENIED). */
  public long denied() {
    return denied.sum();
  }

  /** Refusals of a caller without identity (UNAUTHENTICATED). */
  public long anonymous() {
    return anonymous.sum();
  }

  /** Both kinds together. */
  public long total() {
    return denied() + anonymous();
  }

  void recordDenied() {
    denied.increment();
  }

  void recordAnonymous() {
    anonymous.increment();
  }
}
