package io.cipherd.server.api;

import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Formatted;
import io.cipherd.server.engine.FormattedValues;

/**
 * What each format-preserving item stream (EncryptFormattedStream, DecryptFormattedStream,
 * ReEncryptFormattedStream) does with one item, run by the same {@link ItemStream} as the crypto
 * service's streams: each item names its key and is authorized, checked and answered alone, its
 * error in its result, as a batch item's.
 */
final class FormattedStreamItems {
  private FormattedStreamItems() {}

  static final StreamItemKind<EncryptFormattedStreamRequest, EncryptFormattedStreamResponse>
      ENCRYPT =
          new StreamItemKind<>() {
            @Override
            public String method() {
              return "EncryptFormattedStream";
            }

            @Override
            public EncryptFormattedStreamResponse answer(
                CryptoEngine engine, EncryptFormattedStreamRequest request, ParsedRequest parsed) {
              return EncryptFormattedStreamResponse.newBuilder()
                  .setResult(
                      result(
                          request.getReference(),
                          values ->
                              values.encrypt(
                                  request.getKeyName(),
                                  request.getValue(),
                                  request.getContext().toByteArray()),
                          engine))
                  .build();
            }
          };

  static final StreamItemKind<DecryptFormattedStreamRequest, DecryptFormattedStreamResponse>
      DECRYPT =
          new StreamItemKind<>() {
            @Override
            public String method() {
              return "DecryptFormattedStream";
            }

            @Override
            public DecryptFormattedStreamResponse answer(
                CryptoEngine engine, DecryptFormattedStreamRequest request, ParsedRequest parsed) {
              return DecryptFormattedStreamResponse.newBuilder()
                  .setResult(
                      result(
                          request.getReference(),
                          values ->
                              values.decrypt(
                                  request.getKeyName(),
                                  request.getValue(),
                                  request.getContext().toByteArray(),
                                  request.getKeyVersion()),
                          engine))
                  .build();
            }
          };

  static final StreamItemKind<ReEncryptFormattedStreamRequest, ReEncryptFormattedStreamResponse>
      REENCRYPT =
          new StreamItemKind<>() {
            @Override
            public String method() {
              return "ReEncryptFormattedStream";
            }

            @Override
            public ReEncryptFormattedStreamResponse answer(
                CryptoEngine engine,
                ReEncryptFormattedStreamRequest request,
                ParsedRequest parsed) {
              return ReEncryptFormattedStreamResponse.newBuilder()
                  .setResult(
                      result(
                          request.getReference(),
                          values ->
                              values.reEncrypt(
                                  request.getKeyName(),
                                  request.getValue(),
                                  request.getContext().toByteArray(),
                                  request.getKeyVersion()),
                          engine))
                  .build();
            }
          };

  /** One operation on the stream's engine's format-preserving values. */
  private interface ItemWork {
    Formatted on(FormattedValues values);
  }

  /** The item's result: its value and versions, or its own error; never throws for a bad item. */
  private static FormattedBatchResult result(String reference, ItemWork work, CryptoEngine engine) {
    FormattedBatchResult.Builder result = FormattedBatchResult.newBuilder().setReference(reference);
    try {
      Formatted done = work.on(engine.formatted());
      result
          .setValue(done.value())
          .setKeyVersion(done.keyVersion())
          .setSourceKeyVersion(done.sourceVersion());
    } catch (RuntimeException e) {
      result.setError(StatusMapper.toItemError(e));
    }
    return result.build();
  }
}
