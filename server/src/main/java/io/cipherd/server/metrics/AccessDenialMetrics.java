package io.cipherd.server.metrics;

import io.cipherd.server.security.AccessDenials;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Calls the access policy refused, read at scrape time: a rise is a misconfigured client or a
 * probe.
 */
public final class AccessDenialMetrics {
  private static final String DESCRIPTION =
      "Calls refused by the access policy: denied (known caller, operation not allowed) or anonymous";

  private AccessDenialMetrics() {}

  public static void bind(AccessDenials denials, MeterRegistry registry) {
    FunctionCounter.builder("cipherd.access.denials", denials, AccessDenials::denied)
        .description(DESCRIPTION)
        .tag("reason", "denied")
        .register(registry);
    FunctionCounter.builder("cipherd.access.denials", denials, AccessDenials::anonymous)
        .description(DESCRIPTION)
        .tag("reason", "anonymous")
        .register(registry);
  }
}
