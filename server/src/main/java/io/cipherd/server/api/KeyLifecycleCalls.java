package io.cipherd.server.api;

import io.cipherd.api.v1.CancelKeyDeletionRequest;
import io.cipherd.api.v1.CancelKeyDeletionResponse;
import io.cipherd.api.v1.CancelKeyVersionDestructionRequest;
import io.cipherd.api.v1.CancelKeyVersionDestructionResponse;
import io.cipherd.api.v1.DisableKeyRequest;
import io.cipherd.api.v1.DisableKeyResponse;
import io.cipherd.api.v1.EnableKeyRequest;
import io.cipherd.api.v1.EnableKeyResponse;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.ScheduleKeyDeletionRequest;
import io.cipherd.api.v1.ScheduleKeyDeletionResponse;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse;
import io.cipherd.server.engine.AuthorizedKeyAdmin;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.lifecycle.Retirement;

/**
 * The work of the lifecycle RPCs of the key-admin API (disable, enable, destroy, delete, retire):
 * requests to {@link AuthorizedKeyAdmin} calls, their results to responses carrying the key with
 * its state. Every call reaches the key store.
 */
final class KeyLifecycleCalls {
  private final AuthorizedKeyAdmin keys;

  KeyLifecycleCalls(AuthorizedKeyAdmin keys) {
    this.keys = keys;
  }

  DisableKeyResponse disable(DisableKeyRequest request) {
    return DisableKeyResponse.newBuilder()
        .setKey(asProto(keys.disable(request.getKeyName())))
        .build();
  }

  EnableKeyResponse enable(EnableKeyRequest request) {
    return EnableKeyResponse.newBuilder()
        .setKey(asProto(keys.enable(request.getKeyName())))
        .build();
  }

  ScheduleKeyVersionDestructionResponse scheduleDestruction(
      ScheduleKeyVersionDestructionRequest request) {
    KeyMetadata key =
        keys.scheduleDestruction(
            request.getKeyName(),
            request.getVersionsList(),
            DurationProtos.fromProto(
                "pending_window", request.hasPendingWindow(), request.getPendingWindow()));
    return ScheduleKeyVersionDestructionResponse.newBuilder().setKey(asProto(key)).build();
  }

  CancelKeyVersionDestructionResponse cancelDestruction(
      CancelKeyVersionDestructionRequest request) {
    KeyMetadata key = keys.cancelDestruction(request.getKeyName(), request.getVersionsList());
    return CancelKeyVersionDestructionResponse.newBuilder().setKey(asProto(key)).build();
  }

  ScheduleKeyDeletionResponse scheduleDeletion(ScheduleKeyDeletionRequest request) {
    KeyMetadata key =
        keys.scheduleDeletion(
            request.getKeyName(),
            DurationProtos.fromProto(
                "pending_window", request.hasPendingWindow(), request.getPendingWindow()));
    return ScheduleKeyDeletionResponse.newBuilder().setKey(asProto(key)).build();
  }

  CancelKeyDeletionResponse cancelDeletion(CancelKeyDeletionRequest request) {
    return CancelKeyDeletionResponse.newBuilder()
        .setKey(asProto(keys.cancelDeletion(request.getKeyName())))
        .build();
  }

  RetireKeyVersionsResponse retire(RetireKeyVersionsRequest request) {
    Retirement retirement =
        keys.retire(
            request.getKeyName(),
            request.getBelowVersion(),
            DurationProtos.fromProto(
                "quiet_period", request.hasQuietPeriod(), request.getQuietPeriod()),
            DurationProtos.fromProto(
                "pending_window", request.hasPendingWindow(), request.getPendingWindow()),
            request.getValidateOnly(),
            InventoryProtos.fromProto(request.getInventoriesList()));
    RetireKeyVersionsResponse.Builder response =
        RetireKeyVersionsResponse.newBuilder()
            .setKey(asProto(retirement.key()))
            .addAllRetiredVersions(retirement.retiredVersions());
    if (retirement.destroyTime() != null) {
      response.setDestroyTime(KeyProtos.timestamp(retirement.destroyTime()));
    }
    return response.build();
  }

  /**
   * The key as written, without usage: a caller with {@code destroy} alone may not inspect the key.
   */
  private static Key asProto(KeyMetadata key) {
    return KeyProtos.toProto(key);
  }
}
