package io.cipherd.server.api;

import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.cipherd.server.engine.CryptoEngine;

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
                      FormattedResults.of(
                          request.getReference(),
                          () ->
                              engine
                                  .formatted()
                                  .encrypt(
                                      request.getKeyName(),
                                      request.getValue(),
                                      request.getContext().toByteArray())))
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
                      FormattedResults.of(
                          request.getReference(),
                          () ->
                              engine
                                  .formatted()
                                  .decrypt(
                                      request.getKeyName(),
                                      request.getValue(),
                                      request.getContext().toByteArray(),
                                      request.getKeyVersion())))
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
                      FormattedResults.of(
                          request.getReference(),
                          () ->
                              engine
                                  .formatted()
                                  .reEncrypt(
                                      request.getKeyName(),
                                      request.getValue(),
                                      request.getContext().toByteArray(),
                                      request.getKeyVersion())))
                  .build();
            }
          };
}
