package io.cipherd.server.api;

import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.api.v1.ComputeIndexBatchItem;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexBatchResponse;
import io.cipherd.api.v1.ComputeIndexBatchResult;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.ComputeIndexResponse;
import io.cipherd.api.v1.VersionedIndex;
import io.cipherd.server.crypto.index.Normalization;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.Indexed;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.security.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * The work of ComputeIndex and ComputeIndexBatch: blind indexes of values from the engine, as
 * responses; a batch's items one by one, each with its index or its own error.
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
    for (ComputeIndexBatchItem item : request.getItemsList()) {
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
}
