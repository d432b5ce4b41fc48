package io.cipherd.server.api;

import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Decrypted;
import io.cipherd.server.engine.Encrypted;
import io.cipherd.server.engine.ExpectedKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each item stream does with one item: the same work, per-item errors and {@link
 * PlaintextLimit} as a batch item.
 */
final class StreamItems {
  private StreamItems() {}

  static StreamItemKind<EncryptStreamRequest, EncryptStreamResponse> encrypt(PlaintextLimit limit) {
    return new StreamItemKind<>() {
      @Override
      public String method() {
        return "EncryptStream";
      }

      @Override
      public EncryptStreamResponse answer(
          CryptoEngine engine, EncryptStreamRequest request, ParsedRequest parsed) {
        EncryptBatchResult.Builder result =
            EncryptBatchResult.newBuilder().setReference(request.getReference());
        try {
          limit.check(
              request.getPlaintext().size(), request.getContext().size(), request.getReference());
          Encrypted encrypted =
              request.getSubject().isEmpty()
                  ? engine.encrypt(
                      request.getKeyName(), 0, request.getPlaintext(), request.getContext())
                  : engine.encrypt(
                      request.getKeyName(),
                      0,
                      request.getPlaintext(),
                      request.getContext(),
                      request.getSubject(),
                      request.getRenewErasedSubject());
          result.setCiphertextBytes(encrypted.ciphertext()).setKeyVersion(encrypted.keyVersion());
        } catch (RuntimeException e) {
          result.setError(StatusMapper.toItemError(e));
        }
        return EncryptStreamResponse.newBuilder().setResult(result).build();
      }

      /**
       * The subjects of the queued items that would reach their subject key (those within the
       * plaintext limit), per key and renewal, each group in one call as an EncryptBatch resolves
       * its items.
       */
      @Override
      public void prefetch(CryptoEngine engine, List<EncryptStreamRequest> queued) {
        Map<SubjectGroup, List<String>> groups = new LinkedHashMap<>();
        for (EncryptStreamRequest request : queued) {
          if (request.getSubject().isEmpty()) {
            continue;
          }
          try {
            limit.check(
                request.getPlaintext().size(), request.getContext().size(), request.getReference());
          } catch (RuntimeException tooLarge) {
            continue;
          }
          groups
              .computeIfAbsent(
                  new SubjectGroup(request.getKeyName(), request.getRenewErasedSubject()),
                  group -> new ArrayList<>())
              .add(request.getSubject());
        }
        groups.forEach(
            (group, subjects) ->
                engine.prefetchSubjectsForEncryption(
                    group.keyName(), subjects, group.renewErased()));
      }
    };
  }

  /** Queued EncryptStream items whose subjects are resolved in one call. */
  private record SubjectGroup(String keyName, boolean renewErased) {}

  static final StreamItemKind<DecryptStreamRequest, DecryptStreamResponse> DECRYPT =
      new StreamItemKind<>() {
        @Override
        public String method() {
          return "DecryptStream";
        }

        @Override
        public DecryptStreamResponse answer(
            CryptoEngine engine, DecryptStreamRequest request, ParsedRequest parsed) {
          DecryptBatchResult.Builder result =
              DecryptBatchResult.newBuilder().setReference(request.getReference());
          try {
            Decrypted decrypted =
                engine.decrypt(
                    parsed.header(),
                    request.getCiphertext(),
                    request.getContext(),
                    ExpectedKey.parse(request.getExpectedKey(), "expected_key"));
            // A fresh array that nothing else holds: wrapped, not copied again.
            result
                .setPlaintext(UnsafeByteOperations.unsafeWrap(decrypted.plaintext()))
                .setKeyVersion(decrypted.header().version());
          } catch (RuntimeException e) {
            result.setError(StatusMapper.toItemError(e));
          }
          return DecryptStreamResponse.newBuilder().setResult(result).build();
        }

        @Override
        public void prefetch(CryptoEngine engine, List<DecryptStreamRequest> queued) {
          engine.prefetchSubjectsWhenNeeded(
              queued.stream().map(DecryptStreamRequest::getCiphertext).toList());
        }
      };

  static StreamItemKind<ReEncryptStreamRequest, ReEncryptStreamResponse> reEncrypt(
      PlaintextLimit limit) {
    return new StreamItemKind<>() {
      @Override
      public String method() {
        return "ReEncryptStream";
      }

      @Override
      public ReEncryptStreamResponse answer(
          CryptoEngine engine, ReEncryptStreamRequest request, ParsedRequest parsed) {
        return ReEncryptStreamResponse.newBuilder()
            .setResult(
                BatchItems.reEncrypt(
                    engine,
                    limit,
                    ReEncryptBatchResult.newBuilder(),
                    request.getReference(),
                    parsed.header(),
                    request.getCiphertext(),
                    request.hasLegacy() ? request.getLegacy() : null,
                    request.getContext(),
                    request.getKeyName(),
                    "key_name",
                    request.getExpectedKey(),
                    ExpectedKey.ANY))
            .build();
      }

      /** The run's source subjects, as a DecryptStream's (targets are per item here). */
      @Override
      public void prefetch(CryptoEngine engine, List<ReEncryptStreamRequest> queued) {
        engine.prefetchSubjectsWhenNeeded(
            queued.stream().map(ReEncryptStreamRequest::getCiphertext).toList());
      }
    };
  }
}
