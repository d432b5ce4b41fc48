package io.cipherd.server.api;

import io.cipherd.server.errors.InvalidArgumentException;

/**
 * Limits on a request's shape that the message size alone does not bound.
 *
 * @param maxBatchItems most items one batch request may carry
 */
public record RequestLimits(int maxBatchItems) {
  public RequestLimits {
    if (maxBatchItems < 1) {
      throw new IllegalArgumentException(
          "max batch items must be at least 1, got " + maxBatchItems);
    }
  }

  void checkBatch(int items) {
    if (items > maxBatchItems) {
      throw new InvalidArgumentException(
          "batch has "
              + items
              + " items; this server accepts at most "
              + maxBatchItems
              + " per request");
    }
  }
}
