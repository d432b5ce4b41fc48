package io.cipherd.server.audit;

import io.cipherd.server.errors.ErrorKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * The largest call records a caller can make, built with the real tally the server counts into: a
 * DecryptBatch of 4,096 items naming 4,096 refused keys (names of the longest length), and one
 * naming 4,096 versions of one key, some pending destruction.
 */
final class AuditRecordBudget {
  /** The most bytes one call's record may take, whatever the call named. */
  static final int MAX_RECORD_BYTES = 4096;

  static final int BATCH = 4096;

  private AuditRecordBudget() {}

  static CallRecord refusedKeys(Instant time, AuditKey key) {
    ItemTally tally = new ItemTally();
    for (int i = 0; i < BATCH; i++) {
      String name = String.format("%064d", i);
      tally.add(name, ItemTally.NO_VERSION, ErrorKind.ACCESS_DENIED.name());
    }
    return record(time, key, tally, "cipherd.v1.CryptoService/DecryptBatch", "PERMISSION_DENIED");
  }

  static CallRecord versions(Instant time, AuditKey key) {
    ItemTally tally = new ItemTally();
    for (int version = 1; version <= BATCH; version++) {
      String outcome =
          version % 2 == 0
              ? ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED.name()
              : ErrorKind.KEY_VERSION_DESTROYED.name();
      tally.add("o".repeat(64), version, outcome);
    }
    return record(time, key, tally, "cipherd.v1.CryptoService/DecryptBatch", "OK");
  }

  private static CallRecord record(
      Instant time, AuditKey key, ItemTally tally, String method, String status) {
    return CallRecord.builder(time, "0123456789abcdef")
        .clientRequestId("x".repeat(CallRecord.MAX_CLIENT_REQUEST_ID + 100))
        .caller("c".repeat(256))
        .callerVia("certificate")
        .peer("[2001:db8::1]:65535")
        .method(method)
        .keyName("k".repeat(64))
        .items(tally.items())
        .versions(tally.snapshot())
        .folded(tally.folded())
        .status(status)
        .reason(status.equals("OK") ? null : ErrorKind.ACCESS_DENIED.name())
        .contextHash(key.hashContext("context".getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  static int bytes(CallRecord record) {
    return AuditLine.call(record, Long.MAX_VALUE, "f".repeat(64)).length;
  }

  static List<CallRecord> worst(Instant time, AuditKey key) {
    return List.of(refusedKeys(time, key), versions(time, key));
  }
}
