package io.cipherd.server.api;

import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Decrypted;
import io.cipherd.server.engine.Encrypted;
import io.cipherd.server.engine.ExpectedKey;

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
      public boolean fromMemory(CryptoEngine engine, EncryptStreamRequest request) {
        return engine.fromMemory().canEncrypt(request.getKeyName(), 0);
      }

      @Override
      public EncryptStreamResponse answer(CryptoEngine engine, EncryptStreamRequest request) {
        EncryptBatchResult.Builder result =
            EncryptBatchResult.newBuilder().setReference(request.getReference());
        try {
          limit.check(
              request.getPlaintext().size(),
              request.getContext().size(),
              PlaintextLimit.utf8Length(request.getReference()));
          Encrypted encrypted =
              engine.encrypt(request.getKeyName(), 0, request.getPlaintext(), request.getContext());
          result.setCiphertextBytes(encrypted.ciphertext()).setKeyVersion(encrypted.keyVersion());
        } catch (RuntimeException e) {
          result.setError(StatusMapper.toItemError(e));
        }
        return EncryptStreamResponse.newBuilder().setResult(result).build();
      }
    };
  }

  static final StreamItemKind<DecryptStreamRequest, DecryptStreamResponse> DECRYPT =
      new StreamItemKind<>() {
        @Override
        public String method() {
          return "DecryptStream";
        }

        @Override
        public boolean fromMemory(CryptoEngine engine, DecryptStreamRequest request) {
          return engine.fromMemory().canDecrypt(request.getCiphertext(), request.getExpectedKey());
        }

        @Override
        public DecryptStreamResponse answer(CryptoEngine engine, DecryptStreamRequest request) {
          DecryptBatchResult.Builder result =
              DecryptBatchResult.newBuilder().setReference(request.getReference());
          try {
            Decrypted decrypted =
                engine.decrypt(
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
      };

  static StreamItemKind<ReEncryptStreamRequest, ReEncryptStreamResponse> reEncrypt(
      PlaintextLimit limit) {
    return new StreamItemKind<>() {
      @Override
      public String method() {
        return "ReEncryptStream";
      }

      @Override
      public boolean fromMemory(CryptoEngine engine, ReEncryptStreamRequest request) {
        return BatchItems.canReEncryptFromMemory(
            engine,
            request.hasLegacy() ? request.getLegacy() : null,
            request.getCiphertext(),
            request.getKeyName(),
            request.getExpectedKey());
      }

      @Override
      public ReEncryptStreamResponse answer(CryptoEngine engine, ReEncryptStreamRequest request) {
        return ReEncryptStreamResponse.newBuilder()
            .setResult(
                BatchItems.reEncrypt(
                    engine,
                    limit,
                    request.getReference(),
                    request.getCiphertext(),
                    request.hasLegacy() ? request.getLegacy() : null,
                    request.getContext(),
                    request.getKeyName(),
                    request.getExpectedKey()))
            .build();
      }
    };
  }
}
