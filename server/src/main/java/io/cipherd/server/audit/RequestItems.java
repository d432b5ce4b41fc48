package io.cipherd.server.audit;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexRequest;

/**
 * What a request message holds for its call's audit record: how many items (a batch's items, one
 * for any other crypto request, none for admin and audit requests) and the caller's {@code context}
 * of its first item, which the record carries only as a keyed hash.
 */
final class RequestItems {
  private RequestItems() {}

  static int count(Object request) {
    return switch (request) {
      case EncryptBatchRequest r -> r.getItemsCount();
      case DecryptBatchRequest r -> r.getItemsCount();
      case ReEncryptBatchRequest r -> r.getItemsCount();
      case ComputeIndexBatchRequest r -> r.getItemsCount();
      case ReIndexBatchRequest r -> r.getItemsCount();
      case EncryptRequest r -> 1;
      case DecryptRequest r -> 1;
      case ReEncryptRequest r -> 1;
      case EncryptStreamRequest r -> 1;
      case DecryptStreamRequest r -> 1;
      case ReEncryptStreamRequest r -> 1;
      case InspectRequest r -> 1;
      case ComputeIndexRequest r -> 1;
      case ReIndexRequest r -> 1;
      case GenerateDataKeyRequest r -> 1;
      default -> 0;
    };
  }

  /** The first item's context; empty when it has none. */
  static ByteString context(Object request) {
    return switch (request) {
      case EncryptRequest r -> r.getContext();
      case DecryptRequest r -> r.getContext();
      case ReEncryptRequest r -> r.getContext();
      case GenerateDataKeyRequest r -> r.getContext();
      case EncryptStreamRequest r -> r.getContext();
      case DecryptStreamRequest r -> r.getContext();
      case ReEncryptStreamRequest r -> r.getContext();
      case ReIndexRequest r -> r.getContext();
      case EncryptBatchRequest r ->
          r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getContext();
      case DecryptBatchRequest r ->
          r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getContext();
      case ReEncryptBatchRequest r ->
          r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getContext();
      case ReIndexBatchRequest r ->
          r.getItemsCount() == 0 ? ByteString.EMPTY : r.getItems(0).getContext();
      default -> ByteString.EMPTY;
    };
  }
}
