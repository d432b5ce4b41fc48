package io.cipherd.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One timer per store operation and outcome ({@link Outcomes}: a fixed set, so an exception type
 * never becomes a new series), made on first use. Store calls are the slow path (disk or network),
 * so a timer per call costs nothing that matters.
 */
final class StoreCallTimers {
  private final MeterRegistry registry;
  private final String name;
  private final String description;
  private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();

  StoreCallTimers(MeterRegistry registry, String name, String description) {
    this.registry = registry;
    this.name = name;
    this.description = description;
  }

  /** {@code call}'s result, its time recorded under {@code operation} and how it ended. */
  <T> T timed(String operation, Supplier<T> call) {
    long start = System.nanoTime();
    String outcome = Outcomes.OK;
    try {
      return call.get();
    } catch (RuntimeException e) {
      outcome = Outcomes.of(e);
      throw e;
    } finally {
      timer(operation, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }
  }

  private Timer timer(String operation, String outcome) {
    return timers.computeIfAbsent(
        operation + '/' + outcome,
        k ->
            Timer.builder(name)
                .description(description)
                .tags("operation", operation, "outcome", outcome)
                .register(registry));
  }
}
