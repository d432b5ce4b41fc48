package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexBatchResponse;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.ComputeIndexResponse;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResponse;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptResponse;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GenerateDataKeyResponse;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.InspectResponse;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResponse;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexBatchResponse;
import io.cipherd.api.v1.ReIndexRequest;
import io.cipherd.api.v1.ReIndexResponse;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.DataKey;
import io.cipherd.server.engine.Decrypted;
import io.cipherd.server.engine.Encrypted;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.engine.Inspection;
import io.cipherd.server.engine.ReEncrypted;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Arrays;

/** The gRPC face of {@link CryptoEngine}: request checks, dispatch, and proto conversion. */
public final class CryptoServiceImpl extends CryptoServiceGrpc.CryptoServiceImplBase {
  private final CryptoEngine engine;
  private final CallDispatcher dispatcher;
  private final RequestLimits limits;
  private final PlaintextLimit plaintextLimit;
  private final BatchItems batchItems;
  private final IndexCalls indexCalls;
  private final ItemStreams streams;
  private final StreamItemKind<EncryptStreamRequest, EncryptStreamResponse> encryptItems;
  private final StreamItemKind<ReEncryptStreamRequest, ReEncryptStreamResponse> reEncryptItems;

  CryptoServiceImpl(
      CryptoEngine engine,
      CallDispatcher dispatcher,
      RequestLimits limits,
      PlaintextLimit plaintextLimit,
      ItemStreams streams) {
    this.engine = engine;
    this.dispatcher = dispatcher;
    this.limits = limits;
    this.plaintextLimit = plaintextLimit;
    this.streams = streams;
    this.batchItems = new BatchItems(engine, plaintextLimit);
    this.encryptItems = StreamItems.encrypt(plaintextLimit);
    this.reEncryptItems = StreamItems.reEncrypt(plaintextLimit);
    this.indexCalls = new IndexCalls(engine);
  }

  @Override
  public void encrypt(EncryptRequest request, StreamObserver<EncryptResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          plaintextLimit.check(request.getPlaintext().size(), request.getContext().size(), 0);
          Encrypted encrypted =
              request.getSubject().isEmpty()
                  ? engine.encrypt(
                      request.getKeyName(),
                      request.getKeyVersion(),
                      request.getPlaintext(),
                      request.getContext())
                  : engine.encrypt(
                      request.getKeyName(),
                      request.getKeyVersion(),
                      request.getPlaintext(),
                      request.getContext(),
                      request.getSubject(),
                      request.getRenewErasedSubject());
          return EncryptResponse.newBuilder()
              .setCiphertextBytes(encrypted.ciphertext())
              .setKeyVersion(encrypted.keyVersion())
              .build();
        });
  }

  @Override
  public void decrypt(DecryptRequest request, StreamObserver<DecryptResponse> observer) {
    ParsedRequest parsed = ParsedRequest.of(request);
    dispatcher.unary(
        parsed.fromMemory(engine),
        observer,
        () -> {
          Decrypted decrypted =
              engine.decrypt(
                  parsed.header(),
                  request.getCiphertext(),
                  request.getContext(),
                  ExpectedKey.parse(request.getExpectedKey(), "expected_key"));
          return DecryptResponse.newBuilder()
              .setPlaintext(UnsafeByteOperations.unsafeWrap(decrypted.plaintext()))
              .setKeyVersion(decrypted.header().version())
              .build();
        });
  }

  @Override
  public void reEncrypt(ReEncryptRequest request, StreamObserver<ReEncryptResponse> observer) {
    if (request.hasLegacy()) {
      reEncryptLegacy(request, observer);
      return;
    }
    ParsedRequest parsed = ParsedRequest.of(request);
    dispatcher.unary(
        parsed.fromMemory(engine.keys()),
        observer,
        () -> {
          return response(
              engine.reEncrypt(
                  parsed.header(),
                  request.getCiphertext(),
                  request.getContext(),
                  request.getKeyName(),
                  ExpectedKey.parse(request.getExpectedKey(), "expected_key")),
              request);
        });
  }

  /** ReEncrypt of a ciphertext made before cipherd, decrypted with its imported legacy key. */
  private void reEncryptLegacy(
      ReEncryptRequest request, StreamObserver<ReEncryptResponse> observer) {
    LegacyCiphertext legacy = request.getLegacy();
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          return response(
              engine.reEncryptLegacy(
                  LegacyProtos.rewrapItem(
                      legacy, request.getCiphertext(), request.getKeyName(), "key_name"),
                  request.getContext(),
                  request.getKeyName(),
                  ExpectedKey.parse(request.getExpectedKey(), "expected_key")),
              request);
        });
  }

  /** The answer to {@code request}, if the new ciphertext can be sent back with its context. */
  private ReEncryptResponse response(ReEncrypted rewrapped, ReEncryptRequest request) {
    plaintextLimit.checkRewrapped(
        rewrapped.encrypted().ciphertext().size(), request.getContext().size(), 0);
    return ReEncryptResponse.newBuilder()
        .setCiphertextBytes(rewrapped.encrypted().ciphertext())
        .setKeyVersion(rewrapped.encrypted().keyVersion())
        .setSourceKeyVersion(rewrapped.sourceVersion())
        .build();
  }

  @Override
  public void inspect(InspectRequest request, StreamObserver<InspectResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          Inspection inspection = engine.inspect(request.getCiphertext());
          return InspectResponse.newBuilder()
              .setKeyName(inspection.header().keyName())
              .setKeyVersion(inspection.header().version())
              .setMode(ModeProtos.toProto(inspection.header().mode()))
              .setCurrentVersion(inspection.currentVersion())
              .setBehindCurrent(inspection.behindCurrent())
              .setSubjectBound(inspection.header().isSubjectBound())
              .build();
        });
  }

  @Override
  public void encryptBatch(
      EncryptBatchRequest request, StreamObserver<EncryptBatchResponse> observer) {
    if (withinLimits(request.getItemsCount(), observer)
        && withinLimits(() -> batchItems.checkFits(request), observer)) {
      dispatcher.unary(fromMemory(request), observer, () -> batchItems.encrypt(request));
    }
  }

  @Override
  public void decryptBatch(
      DecryptBatchRequest request, StreamObserver<DecryptBatchResponse> observer) {
    if (!withinLimits(request.getItemsCount(), observer)) {
      return;
    }
    dispatcher.unary(fromMemory(request), observer, () -> batchItems.decrypt(request));
  }

  @Override
  public void reEncryptBatch(
      ReEncryptBatchRequest request, StreamObserver<ReEncryptBatchResponse> observer) {
    if (!withinLimits(request.getItemsCount(), observer)) {
      return;
    }
    dispatcher.unary(fromMemory(request), observer, () -> batchItems.reEncrypt(request));
  }

  @Override
  public StreamObserver<ReEncryptStreamRequest> reEncryptStream(
      StreamObserver<ReEncryptStreamResponse> observer) {
    return new ItemStream<>(
        engine,
        dispatcher.blocking(),
        streams,
        reEncryptItems,
        (ServerCallStreamObserver<ReEncryptStreamResponse>) observer);
  }

  @Override
  public StreamObserver<EncryptStreamRequest> encryptStream(
      StreamObserver<EncryptStreamResponse> observer) {
    return new ItemStream<>(
        engine,
        dispatcher.blocking(),
        streams,
        encryptItems,
        (ServerCallStreamObserver<EncryptStreamResponse>) observer);
  }

  @Override
  public StreamObserver<DecryptStreamRequest> decryptStream(
      StreamObserver<DecryptStreamResponse> observer) {
    return new ItemStream<>(
        engine,
        dispatcher.blocking(),
        streams,
        StreamItems.DECRYPT,
        (ServerCallStreamObserver<DecryptStreamResponse>) observer);
  }

  @Override
  public void computeIndex(
      ComputeIndexRequest request, StreamObserver<ComputeIndexResponse> observer) {
    dispatcher.unary(fromMemory(request), observer, () -> indexCalls.compute(request));
  }

  @Override
  public void computeIndexBatch(
      ComputeIndexBatchRequest request, StreamObserver<ComputeIndexBatchResponse> observer) {
    if (withinLimits(request.getItemsCount(), observer)) {
      dispatcher.unary(fromMemory(request), observer, () -> indexCalls.computeBatch(request));
    }
  }

  @Override
  public void reIndex(ReIndexRequest request, StreamObserver<ReIndexResponse> observer) {
    dispatcher.unary(fromMemory(request), observer, () -> indexCalls.reIndex(request));
  }

  @Override
  public void reIndexBatch(
      ReIndexBatchRequest request, StreamObserver<ReIndexBatchResponse> observer) {
    if (withinLimits(request.getItemsCount(), observer)) {
      dispatcher.unary(fromMemory(request), observer, () -> indexCalls.reIndexBatch(request));
    }
  }

  @Override
  public void generateDataKey(
      GenerateDataKeyRequest request, StreamObserver<GenerateDataKeyResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          // The wrapped key is a ciphertext of up to 32 bytes (a subject-bound one also holds a
          // 16-byte reference), bound to the context.
          plaintextLimit.check(
              request.getSubject().isEmpty() ? 32 : 48, request.getContext().size(), 0);
          DataKey dataKey =
              request.getSubject().isEmpty()
                  ? engine.generateDataKey(
                      request.getKeyName(), request.getKeySizeBits(), request.getContext())
                  : engine.generateDataKey(
                      request.getKeyName(),
                      request.getKeySizeBits(),
                      request.getContext(),
                      request.getSubject(),
                      request.getRenewErasedSubject());
          GenerateDataKeyResponse.Builder response =
              GenerateDataKeyResponse.newBuilder()
                  .setWrappedKeyBytes(dataKey.wrapped().ciphertext())
                  .setKeyVersion(dataKey.wrapped().keyVersion());
          if (!request.getOmitPlaintext()) {
            // Copied into the message, which the transport serializes and then drops; ours is wiped
            // now.
            response.setPlaintextKey(ByteString.copyFrom(dataKey.plaintextKey()));
          }
          Arrays.fill(dataKey.plaintextKey(), (byte) 0);
          return response.build();
        });
  }

  /** The routing decision for {@code request}, from the one view of it ({@link ParsedRequest}). */
  private boolean fromMemory(Object request) {
    return ParsedRequest.of(request).fromMemory(engine);
  }

  private boolean withinLimits(int items, StreamObserver<?> observer) {
    return withinLimits(() -> limits.checkBatch(items), observer);
  }

  /** Runs {@code check}; if it throws, closes the call with its error and returns false. */
  private static boolean withinLimits(Runnable check, StreamObserver<?> observer) {
    try {
      check.run();
      return true;
    } catch (RuntimeException e) {
      CallDispatcher.closeWithError(observer, e);
      return false;
    }
  }
}
