package io.cipherd.client;

import java.time.Instant;
import java.util.Map;

/**
 * What a scan of stored data found (e.g. cipherctl scan of a column): how many ciphertexts of
 * {@code keyName} each version still has in {@code source} (e.g. "postgres:users.email"), as of
 * {@code scanTime}. retireVersions refuses to retire a version an inventory still counts.
 */
public record DataInventory(
    String keyName,
    String source,
    Instant scanTime,
    long itemsScanned,
    Map<Integer, Long> ciphertextsByVersion) {
  io.cipherd.api.v1.DataInventory toProto() {
    io.cipherd.api.v1.DataInventory.Builder proto =
        io.cipherd.api.v1.DataInventory.newBuilder()
            .setKeyName(keyName)
            .setSource(source)
            .setScanTime(
                com.google.protobuf.Timestamp.newBuilder()
                    .setSeconds(scanTime.getEpochSecond())
                    .setNanos(scanTime.getNano()))
            .setItemsScanned(itemsScanned);
    ciphertextsByVersion.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                proto.addVersions(
                    io.cipherd.api.v1.VersionCount.newBuilder()
                        .setVersion(e.getKey())
                        .setCiphertexts(e.getValue())));
    return proto.build();
  }
}
