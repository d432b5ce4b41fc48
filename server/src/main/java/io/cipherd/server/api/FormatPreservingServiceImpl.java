package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedBatchResponse;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptFormattedResponse;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedBatchResponse;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedResponse;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.MaskFormattedResponse;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedBatchResponse;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedResponse;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Formatted;
import io.cipherd.server.engine.FormattedValues;
import io.cipherd.server.engine.FormattedValues.BatchKind;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * The FormatPreservingService over the engine's {@link FormattedValues}: unary calls, batches and
 * streams of format-preserving values. A batch is authorized once, so a refused caller gets one
 * error; then each item succeeds or fails on its own, one result per item in order, an item's
 * context and key_version defaulting to the batch's, its successes told once per key version at its
 * end ({@link CryptoEngine#inBatch}). A stream is an {@link ItemStream}, as the crypto service's:
 * one response per item in order, flow control, the idle timeout, each item authorized alone since
 * each names its key ({@link FormattedStreamItems}). Calls whose key is cached run on the transport
 * thread, the rest on the blocking pool, as the crypto service's do.
 */
final class FormatPreservingServiceImpl
    extends FormatPreservingServiceGrpc.FormatPreservingServiceImplBase {
  private final CryptoEngine engine;
  private final CallDispatcher dispatcher;
  private final RequestLimits limits;
  private final ItemStreams streams;

  FormatPreservingServiceImpl(
      CryptoEngine engine, CallDispatcher dispatcher, RequestLimits limits, ItemStreams streams) {
    this.engine = engine;
    this.dispatcher = dispatcher;
    this.limits = limits;
    this.streams = streams;
  }

  @Override
  public void encryptFormatted(
      EncryptFormattedRequest request, StreamObserver<EncryptFormattedResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          Formatted encrypted =
              values()
                  .encrypt(
                      request.getKeyName(), request.getValue(), request.getContext().toByteArray());
          return EncryptFormattedResponse.newBuilder()
              .setValue(encrypted.value())
              .setKeyVersion(encrypted.keyVersion())
              .build();
        });
  }

  @Override
  public void decryptFormatted(
      DecryptFormattedRequest request, StreamObserver<DecryptFormattedResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          Formatted decrypted =
              values()
                  .decrypt(
                      request.getKeyName(),
                      request.getValue(),
                      request.getContext().toByteArray(),
                      request.getKeyVersion());
          return DecryptFormattedResponse.newBuilder()
              .setValue(decrypted.value())
              .setKeyVersion(decrypted.keyVersion())
              .build();
        });
  }

  @Override
  public void reEncryptFormatted(
      ReEncryptFormattedRequest request, StreamObserver<ReEncryptFormattedResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          Formatted moved =
              values()
                  .reEncrypt(
                      request.getKeyName(),
                      request.getValue(),
                      request.getContext().toByteArray(),
                      request.getKeyVersion());
          return ReEncryptFormattedResponse.newBuilder()
              .setValue(moved.value())
              .setKeyVersion(moved.keyVersion())
              .setSourceKeyVersion(moved.sourceVersion())
              .build();
        });
  }

  @Override
  public void maskFormatted(
      MaskFormattedRequest request, StreamObserver<MaskFormattedResponse> observer) {
    dispatcher.unary(
        fromMemory(request),
        observer,
        () -> {
          Formatted masked =
              values()
                  .mask(
                      request.getKeyName(),
                      request.getValue(),
                      request.getContext().toByteArray(),
                      request.getKeyVersion());
          return MaskFormattedResponse.newBuilder()
              .setMasked(masked.value())
              .setKeyVersion(masked.keyVersion())
              .build();
        });
  }

  @Override
  public void encryptFormattedBatch(
      EncryptFormattedBatchRequest request,
      StreamObserver<EncryptFormattedBatchResponse> observer) {
    if (!withinLimits(request.getItemsCount(), observer)) {
      return;
    }
    dispatcher.unary(
        fromMemory(request),
        observer,
        () ->
            engine.inBatch(
                batch -> {
                  FormattedValues.Batch items =
                      batch.formatted().batch(BatchKind.ENCRYPT, request.getKeyName());
                  List<FormattedBatchResult> results = new ArrayList<>(request.getItemsCount());
                  // As an array, read once: see BatchItems.items.
                  for (EncryptFormattedBatchItem item :
                      request.getItemsList().toArray(new EncryptFormattedBatchItem[0])) {
                    results.add(
                        FormattedResults.of(
                            item.getReference(),
                            () ->
                                items.encrypt(
                                    item.getValue(),
                                    context(item.getContext(), request.getContext()))));
                  }
                  return EncryptFormattedBatchResponse.newBuilder().addAllResults(results).build();
                }));
  }

  @Override
  public void decryptFormattedBatch(
      DecryptFormattedBatchRequest request,
      StreamObserver<DecryptFormattedBatchResponse> observer) {
    if (!withinLimits(request.getItemsCount(), observer)) {
      return;
    }
    dispatcher.unary(
        fromMemory(request),
        observer,
        () ->
            engine.inBatch(
                batch ->
                    DecryptFormattedBatchResponse.newBuilder()
                        .addAllResults(
                            items(
                                batch.formatted().batch(BatchKind.DECRYPT, request.getKeyName()),
                                request.getItemsList(),
                                request.getContext(),
                                request.getKeyVersion()))
                        .build()));
  }

  @Override
  public void reEncryptFormattedBatch(
      ReEncryptFormattedBatchRequest request,
      StreamObserver<ReEncryptFormattedBatchResponse> observer) {
    if (!withinLimits(request.getItemsCount(), observer)) {
      return;
    }
    dispatcher.unary(
        fromMemory(request),
        observer,
        () ->
            engine.inBatch(
                batch ->
                    ReEncryptFormattedBatchResponse.newBuilder()
                        .addAllResults(
                            items(
                                batch.formatted().batch(BatchKind.REENCRYPT, request.getKeyName()),
                                request.getItemsList(),
                                request.getContext(),
                                request.getKeyVersion()))
                        .build()));
  }

  @Override
  public StreamObserver<EncryptFormattedStreamRequest> encryptFormattedStream(
      StreamObserver<EncryptFormattedStreamResponse> observer) {
    return new ItemStream<>(
        engine,
        dispatcher.blocking(),
        streams,
        FormattedStreamItems.ENCRYPT,
        (ServerCallStreamObserver<EncryptFormattedStreamResponse>) observer);
  }

  @Override
  public StreamObserver<DecryptFormattedStreamRequest> decryptFormattedStream(
      StreamObserver<DecryptFormattedStreamResponse> observer) {
    return new ItemStream<>(
        engine,
        dispatcher.blocking(),
        streams,
        FormattedStreamItems.DECRYPT,
        (ServerCallStreamObserver<DecryptFormattedStreamResponse>) observer);
  }

  @Override
  public StreamObserver<ReEncryptFormattedStreamRequest> reEncryptFormattedStream(
      StreamObserver<ReEncryptFormattedStreamResponse> observer) {
    return new ItemStream<>(
        engine,
        dispatcher.blocking(),
        streams,
        FormattedStreamItems.REENCRYPT,
        (ServerCallStreamObserver<ReEncryptFormattedStreamResponse>) observer);
  }

  /** Each ciphertext item decrypted or re-encrypted, as {@code batch} does, with its own result. */
  private static List<FormattedBatchResult> items(
      FormattedValues.Batch batch,
      List<FormattedBatchItem> items,
      ByteString batchContext,
      int batchVersion) {
    List<FormattedBatchResult> results = new ArrayList<>(items.size());
    // As an array, read once: see BatchItems.items.
    for (FormattedBatchItem item : items.toArray(new FormattedBatchItem[0])) {
      byte[] context = context(item.getContext(), batchContext);
      int version = item.getKeyVersion() != 0 ? item.getKeyVersion() : batchVersion;
      results.add(
          FormattedResults.of(
              item.getReference(),
              () ->
                  batch.kind() == BatchKind.DECRYPT
                      ? batch.decrypt(item.getValue(), context, version)
                      : batch.reEncrypt(item.getValue(), context, version)));
    }
    return results;
  }

  private FormattedValues values() {
    return engine.formatted();
  }

  /** An item's context: its own, else its batch's. */
  private static byte[] context(ByteString item, ByteString batch) {
    return (item.isEmpty() ? batch : item).toByteArray();
  }

  private boolean fromMemory(Object request) {
    return ParsedRequest.of(request).fromMemory(engine.keys());
  }

  private boolean withinLimits(int items, StreamObserver<?> observer) {
    try {
      limits.checkBatch(items);
      return true;
    } catch (RuntimeException e) {
      CallDispatcher.closeWithError(observer, e);
      return false;
    }
  }
}
