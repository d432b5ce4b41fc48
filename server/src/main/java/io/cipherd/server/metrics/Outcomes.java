package io.cipherd.server.metrics;

import io.cipherd.server.errors.CipherdException;

/**
 * The fixed set of {@code outcome} label values, so an exception type can never become a new
 * series.
 */
final class Outcomes {
  static final String OK = "ok";

  /** Anything that is not a domain error: a bug, never a new label. */
  static final String ERROR = "error";

  private Outcomes() {}

  static String of(Throwable error) {
    return error instanceof CipherdException e ? e.kind().outcome() : ERROR;
  }
}
