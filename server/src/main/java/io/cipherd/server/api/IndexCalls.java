package io.cipherd.server.api;

import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.ComputeIndexBatchItem;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexBatchResponse;
import io.cipherd.api.v1.ComputeIndexBatchResult;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.ComputeIndexResponse;
import io.cipherd.api.v1.ReIndexBatchItem;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexBatchResponse;
import io.cipherd.api.v1.ReIndexBatchResult;
import io.cipherd.api.v1.ReIndexRequest;
import io.cipherd.api.v1.ReIndexResponse;
import io.cipherd.api.v1.VersionedIndex;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.index.BlindIndex;
import io.cipherd.server.crypto.index.Normalization;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Indexed;
import io.cipherd.server.engine.ReIndexed;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.security.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * The work of ComputeIndex, ReIndex and their batches: blind indexes of values, or of ciphertexts'
 * plaintexts, from the engine, as responses; a batch's items one by one, each with its index or its
 * own error.
 */
final class IndexCalls {
  private final CryptoEngine engine;

  IndexCalls(CryptoEngine engine) {
    this.engine = engine;
  }

  /** One value's index under the requested version, or under every usable version. */
  ComputeIndexResponse compute(ComputeIndexRequest request) {
    byte[] value = request.getValue().toByteArray();
    Normalization normalization = NormalizationProtos.fromProto(request.getNormalization());
    ComputeIndexResponse.Builder response = ComputeIndexResponse.newBuilder();
    if (request.getAllVersions()) {
      if (request.getKeyVersion() != 0) {
        throw new InvalidArgumentException(
            "all_versions and key_version are exclusive: all_versions "
                + "already includes every usable version");
      }
      List<Indexed> all =
          engine
              .indexes()
              .computeAllVersions(
                  request.getKeyName(), value, normalization, request.getLengthBytes());
      for (Indexed indexed : all) {
        response.addVersions(
            VersionedIndex.newBuilder()
                .setKeyVersion(indexed.keyVersion())
                .setIndex(UnsafeByteOperations.unsafeWrap(indexed.index())));
      }
      Indexed current = all.get(0);
      return response
          .setIndex(UnsafeByteOperations.unsafeWrap(current.index()))
          .setKeyVersion(current.keyVersion())
          .build();
    }
    Indexed indexed =
        engine
            .indexes()
            .compute(
                request.getKeyName(),
                request.getKeyVersion(),
                value,
                normalization,
                request.getLengthBytes());
    return response
        .setIndex(UnsafeByteOperations.unsafeWrap(indexed.index()))
        .setKeyVersion(indexed.keyVersion())
        .build();
  }

  /** Each item's index under the current version. */
  ComputeIndexBatchResponse computeBatch(ComputeIndexBatchRequest request) {
    engine.checkBatch(Operation.INDEX, request.getKeyName());
    Normalization normalization = NormalizationProtos.fromProto(request.getNormalization());
    List<ComputeIndexBatchResult> results = new ArrayList<>(request.getItemsCount());
    ComputeIndexBatchResult.Builder result = ComputeIndexBatchResult.newBuilder();
    // As an array, read once: see BatchItems.items.
    for (ComputeIndexBatchItem item :
        request.getItemsList().toArray(new ComputeIndexBatchItem[0])) {
      result.clear().setReference(item.getReference());
      try {
        Indexed indexed =
            engine
                .indexes()
                .compute(
                    request.getKeyName(),
                    0,
                    item.getValue().toByteArray(),
                    normalization,
                    request.getLengthBytes());
        result
            .setIndex(UnsafeByteOperations.unsafeWrap(indexed.index()))
            .setKeyVersion(indexed.keyVersion());
      } catch (RuntimeException e) {
        result.setError(StatusMapper.toItemError(e));
      }
      results.add(result.build());
    }
    return ComputeIndexBatchResponse.newBuilder().addAllResults(results).build();
  }

  /** One ciphertext's plaintext indexed under the index key's current version. */
  ReIndexResponse reIndex(ReIndexRequest request) {
    ReIndexed reIndexed =
        engine
            .reIndexing()
            .reIndex(
                request.getCiphertext(),
                request.getContext(),
                request.getExpectedKey(),
                request.getIndexKeyName(),
                NormalizationProtos.fromProto(request.getNormalization()),
                request.getLengthBytes());
    return ReIndexResponse.newBuilder()
        .setIndex(UnsafeByteOperations.unsafeWrap(reIndexed.indexed().index()))
        .setKeyVersion(reIndexed.indexed().keyVersion())
        .setSourceKeyVersion(reIndexed.sourceVersion())
        .build();
  }

  /**
   * Each item's plaintext indexed under the index key's current version. The index key, the length
   * and the normalization are the batch's, so a refused or invalid one fails the batch as a whole,
   * with one error; each ciphertext then succeeds or fails on its own.
   */
  ReIndexBatchResponse reIndexBatch(ReIndexBatchRequest request) {
    engine.checkBatch(Operation.INDEX, request.getIndexKeyName());
    BlindIndex.length(request.getLengthBytes());
    Normalization normalization = NormalizationProtos.fromProto(request.getNormalization());
    return engine.inBatch(batch -> reIndexBatch(batch, request, normalization));
  }

  private static ReIndexBatchResponse reIndexBatch(
      CryptoEngine batch, ReIndexBatchRequest request, Normalization normalization) {
    List<ReIndexBatchResult> results = new ArrayList<>(request.getItemsCount());
    ReIndexBatchResult.Builder result = ReIndexBatchResult.newBuilder();
    // As an array, read once: see BatchItems.items.
    for (ReIndexBatchItem item : request.getItemsList().toArray(new ReIndexBatchItem[0])) {
      result.clear().setReference(item.getReference());
      try {
        ReIndexed reIndexed =
            batch
                .reIndexing()
                .reIndex(
                    item.getCiphertext(),
                    item.getContext(),
                    item.getExpectedKey().isEmpty()
                        ? request.getExpectedKey()
                        : item.getExpectedKey(),
                    request.getIndexKeyName(),
                    normalization,
                    request.getLengthBytes());
        result
            .setIndex(UnsafeByteOperations.unsafeWrap(reIndexed.indexed().index()))
            .setKeyVersion(reIndexed.indexed().keyVersion())
            .setSourceKeyVersion(reIndexed.sourceVersion());
      } catch (RuntimeException e) {
        result.setError(StatusMapper.toItemError(e));
        sourceVersion(item.getCiphertext(), result);
      }
      results.add(result.build());
    }
    return ReIndexBatchResponse.newBuilder().addAllResults(results).build();
  }

  private static void sourceVersion(String ciphertext, ReIndexBatchResult.Builder result) {
    try {
      result.setSourceKeyVersion(Envelope.peekHeader(ciphertext).version());
    } catch (RuntimeException unreadable) {
      // The header itself was the problem; source_key_version stays 0 as documented.
    }
  }
}
