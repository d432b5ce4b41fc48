package io.cipherd.server.api;

import com.google.protobuf.DurationOrBuilder;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Duration;

/** Durations of requests, checked: a bad one is INVALID_ARGUMENT naming its field. */
final class DurationProtos {
  private DurationProtos() {}

  /**
   * {@code duration} of the field {@code field} as a Duration, or null when the request leaves it
   * out ({@code present} false), which the domain reads as its default. A negative duration, or
   * nanos outside 0 to 999999999, is refused; the domain checks the range.
   */
  static Duration fromProto(String field, boolean present, DurationOrBuilder duration) {
    if (!present) {
      return null;
    }
    // Nanos past a second would make Duration.ofSeconds overflow on huge seconds.
    if (duration.getNanos() < 0 || duration.getNanos() > 999_999_999) {
      throw new InvalidArgumentException(
          field + " nanos must be 0 to 999999999, got " + duration.getNanos());
    }
    if (duration.getSeconds() < 0) {
      throw new InvalidArgumentException(
          field + " must not be negative, got " + duration.getSeconds() + " seconds");
    }
    return Duration.ofSeconds(duration.getSeconds(), duration.getNanos());
  }
}
