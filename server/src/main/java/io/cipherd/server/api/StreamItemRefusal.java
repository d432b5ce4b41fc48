package io.cipherd.server.api;

import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.cipherd.api.v1.ReEncryptStreamResponse;

/**
 * A stream item's answer replaced by an error, keeping its reference: what an open stream sends,
 * instead of an item it will not serve, once its audit trail has failed under {@code
 * --audit-required}.
 */
public final class StreamItemRefusal {
  private StreamItemRefusal() {}

  /** {@code response} with its outcome replaced by {@code error}; null if it is no stream item. */
  public static Object of(Object response, Throwable error) {
    return switch (response) {
      case EncryptStreamResponse r ->
          EncryptStreamResponse.newBuilder()
              .setResult(
                  r.getResult().toBuilder()
                      .clearOutcome()
                      .clearKeyVersion()
                      .setError(StatusMapper.toItemError(error)))
              .build();
      case DecryptStreamResponse r ->
          DecryptStreamResponse.newBuilder()
              .setResult(
                  r.getResult().toBuilder()
                      .clearOutcome()
                      .clearKeyVersion()
                      .setError(StatusMapper.toItemError(error)))
              .build();
      case ReEncryptStreamResponse r ->
          ReEncryptStreamResponse.newBuilder()
              .setResult(
                  r.getResult().toBuilder()
                      .clearOutcome()
                      .clearKeyVersion()
                      .setError(StatusMapper.toItemError(error)))
              .build();
      case EncryptFormattedStreamResponse r ->
          EncryptFormattedStreamResponse.newBuilder()
              .setResult(refused(r.getResult(), error))
              .build();
      case DecryptFormattedStreamResponse r ->
          DecryptFormattedStreamResponse.newBuilder()
              .setResult(refused(r.getResult(), error))
              .build();
      case ReEncryptFormattedStreamResponse r ->
          ReEncryptFormattedStreamResponse.newBuilder()
              .setResult(refused(r.getResult(), error))
              .build();
      default -> null;
    };
  }

  /** A format-preserving item's result with its value replaced by {@code error}. */
  private static FormattedBatchResult refused(FormattedBatchResult result, Throwable error) {
    return result.toBuilder()
        .clearOutcome()
        .clearKeyVersion()
        .clearSourceKeyVersion()
        .setError(StatusMapper.toItemError(error))
        .build();
  }
}
