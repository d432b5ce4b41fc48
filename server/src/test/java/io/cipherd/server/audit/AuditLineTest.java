package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.Timestamp;
import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.VersionCount;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A call's line stays within its budget whatever the call named, and still accounts for every item.
 */
class AuditLineTest {
  private static final AuditKey KEY = new AuditKey(new byte[32]);
  private static final Instant TIME = Instant.parse("2026-11-24T08:00:00Z");

  @Test
  void aBatchNaming4096RefusedKeys_staysWithinTheBudget_andAccountsForEveryItem() {
    CallRecord record = AuditRecordBudget.refusedKeys(TIME, KEY);
    assertThat(AuditRecordBudget.bytes(record))
        .isLessThanOrEqualTo(AuditRecordBudget.MAX_RECORD_BYTES);

    JsonObject line = parse(record);
    assertThat(line.getAsJsonArray("versions")).hasSize(ItemTally.MAX_ROWS);
    JsonObject folded = line.getAsJsonObject("versions_folded");
    assertThat(folded.get("key_versions").getAsLong())
        .isEqualTo(AuditRecordBudget.BATCH - ItemTally.MAX_ROWS);
    assertThat(folded.has("key_versions_more")).isFalse();
    assertThat(accounted(line)).isEqualTo(AuditRecordBudget.BATCH);
    assertThat(line.get("client_request_id").getAsString())
        .hasSize(CallRecord.MAX_CLIENT_REQUEST_ID);
  }

  @Test
  void aBatchNaming4096Versions_staysWithinTheBudget_andNamesTheFoldedPendingUses() {
    CallRecord record = AuditRecordBudget.versions(TIME, KEY);
    assertThat(AuditRecordBudget.bytes(record))
        .isLessThanOrEqualTo(AuditRecordBudget.MAX_RECORD_BYTES);

    JsonObject line = parse(record);
    assertThat(accounted(line)).isEqualTo(AuditRecordBudget.BATCH);
    var pending = line.getAsJsonArray("pending_destruction_uses");
    // The kept rows' pending versions one by one, then the folded ones' items together.
    assertThat(pending).hasSize(ItemTally.MAX_ROWS / 2 + 1);
    JsonObject last = pending.get(pending.size() - 1).getAsJsonObject();
    assertThat(last.get("folded").getAsBoolean()).isTrue();
    long pendingItems = 0;
    for (JsonElement use : pending) {
      pendingItems += use.getAsJsonObject().get("items").getAsLong();
    }
    assertThat(pendingItems).isEqualTo(AuditRecordBudget.BATCH / 2);
  }

  @Test
  void theLargestRetirementRequest_keepsItsFirstInventories_andCountsTheRest() {
    RetireKeyVersionsRequest.Builder request = RetireKeyVersionsRequest.newBuilder();
    for (int i = 0; i < 100; i++) {
      DataInventory.Builder inventory =
          DataInventory.newBuilder()
              .setKeyName("k".repeat(1000))
              .setSource("s".repeat(1000))
              .setScanTime(Timestamp.newBuilder().setSeconds(1))
              .setItemsScanned(Long.MAX_VALUE);
      for (int version = 1; version <= 1000; version++) {
        inventory.addVersions(
            VersionCount.newBuilder().setVersion(version).setCiphertexts(Long.MAX_VALUE / 2000));
      }
      request.addInventories(inventory);
    }
    AuditedInventories inventories = AuditedInventories.of(request.build());
    CallRecord record =
        CallRecord.builder(TIME, "0123456789abcdef")
            .caller("admin")
            .callerVia("certificate")
            .peer("127.0.0.1:1")
            .method("cipherd.v1.KeyAdminService/RetireKeyVersions")
            .keyName("orders")
            .items(0)
            .versions(List.of())
            .status("FAILED_PRECONDITION")
            .reason("KEY_VERSIONS_IN_USE")
            .inventories(inventories)
            .build();

    // 100 inventories of 1,000 versions each would be ~2 MB; kept to 16 of 16 each.
    assertThat(AuditRecordBudget.bytes(record)).isLessThanOrEqualTo(16 * 1024);
    JsonObject line = parse(record);
    assertThat(line.getAsJsonArray("inventories")).hasSize(AuditedInventories.MAX_INVENTORIES);
    assertThat(line.get("inventories_folded").getAsLong())
        .isEqualTo(100 - AuditedInventories.MAX_INVENTORIES);
    JsonObject first = line.getAsJsonArray("inventories").get(0).getAsJsonObject();
    assertThat(first.get("key").getAsString()).hasSize(64);
    assertThat(first.getAsJsonObject("versions").size()).isEqualTo(AuditedInventory.MAX_VERSIONS);
    assertThat(first.getAsJsonObject("versions_folded").get("versions").getAsLong())
        .isEqualTo(1000 - AuditedInventory.MAX_VERSIONS);
  }

  @Test
  void aTracedCall_namesItsTraceId_afterTheRequestIds_andAnUntracedOneNone() {
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    CallRecord traced =
        CallRecord.builder(TIME, "0123456789abcdef")
            .clientRequestId("checkout-7f3a")
            .traceId(traceId)
            .caller("billing")
            .callerVia("certificate")
            .peer("127.0.0.1:1")
            .method("cipherd.v1.CryptoService/Encrypt")
            .keyName("orders")
            .items(1)
            .versions(List.of())
            .status("OK")
            .build();
    CallRecord untraced =
        CallRecord.builder(TIME, "0123456789abcdef")
            .caller("billing")
            .callerVia("certificate")
            .peer("127.0.0.1:1")
            .method("cipherd.v1.CryptoService/Encrypt")
            .keyName("orders")
            .items(1)
            .versions(List.of())
            .status("OK")
            .build();

    String line = new String(AuditLine.call(traced, 1, "0".repeat(64)), StandardCharsets.UTF_8);

    assertThat(parse(traced).get("trace_id").getAsString()).isEqualTo(traceId);
    assertThat(line.indexOf("\"trace_id\"")).isGreaterThan(line.indexOf("\"client_request_id\""));
    assertThat(line.indexOf("\"trace_id\"")).isLessThan(line.indexOf("\"caller\""));
    assertThat(parse(untraced).has("trace_id")).isFalse();
  }

  @Test
  void aCallersRequestId_isEscaped_andCut() {
    ItemTally tally = new ItemTally();
    tally.add("orders", 1, "ok");
    CallRecord record =
        CallRecord.builder(TIME, "0123456789abcdef")
            .clientRequestId("a\"b\\c\u2028" + "z".repeat(200))
            .caller("billing")
            .callerVia("token")
            .peer("127.0.0.1:1")
            .method("cipherd.v1.CryptoService/Decrypt")
            .keyName("orders")
            .items(1)
            .versions(tally.snapshot())
            .status("OK")
            .build();
    String text = new String(AuditLine.call(record, 1, "0".repeat(64)), StandardCharsets.UTF_8);
    assertThat(text).doesNotContain("\n");
    JsonObject line = parse(record);
    assertThat(line.get("request_id").getAsString()).isEqualTo("0123456789abcdef");
    assertThat(line.get("client_request_id").getAsString())
        .startsWith("a\"b\\c\u2028z")
        .hasSize(CallRecord.MAX_CLIENT_REQUEST_ID);
  }

  private static JsonObject parse(CallRecord record) {
    return JsonParser.parseString(
            new String(AuditLine.call(record, 1, "0".repeat(64)), StandardCharsets.UTF_8))
        .getAsJsonObject();
  }

  private static long accounted(JsonObject line) {
    long total = 0;
    for (JsonElement version : line.getAsJsonArray("versions")) {
      total += sum(version.getAsJsonObject().getAsJsonObject("outcomes"));
    }
    if (line.has("versions_folded")) {
      total += sum(line.getAsJsonObject("versions_folded").getAsJsonObject("outcomes"));
    }
    assertThat(total).isEqualTo(line.get("items").getAsLong());
    return total;
  }

  private static long sum(JsonObject outcomes) {
    long total = 0;
    for (Map.Entry<String, JsonElement> outcome : outcomes.entrySet()) {
      total += outcome.getValue().getAsLong();
    }
    return total;
  }

  @Test
  void linesWrittenOneAfterAnother_areEachWhole_andNonAsciiIsUtf8() {
    // The line buffer is reused: a long line, then a short one with non-ASCII names and a control
    // character, then an ASCII one; each must be exactly its own JSON, in UTF-8.
    byte[] longLine =
        AuditLine.call(AuditRecordBudget.refusedKeys(TIME, KEY), 1, AuditChain.GENESIS);
    CallRecord named =
        CallRecord.builder(TIME, "req-2")
            .caller("zoë\u2028ü\u0001")
            .callerVia("token")
            .peer("127.0.0.1:1")
            .method("/cipherd.v1.CryptoService/Encrypt")
            .keyName("k")
            .items(1)
            .versions(List.of(new ItemTally.VersionOutcomes("k", 1, Map.of("ok", 1L))))
            .status("OK")
            .build();
    byte[] nonAscii = AuditLine.call(named, 2, AuditChain.GENESIS);
    byte[] ascii =
        AuditLine.system(
            new SystemRecord(TIME, "Act", "k", List.of(1), "why", "req-3"), 3, AuditChain.GENESIS);

    assertThat(longLine.length).isGreaterThan(nonAscii.length);
    String text = new String(nonAscii, StandardCharsets.UTF_8);
    assertThat(text).startsWith("{\"type\":\"call\",\"seq\":2,").endsWith("}");
    assertThat(text).contains("\"id\":\"zoë\\u2028ü\\u0001\"");
    assertThat(
            JsonParser.parseString(text)
                .getAsJsonObject()
                .getAsJsonObject("caller")
                .get("id")
                .getAsString())
        .isEqualTo("zoë\u2028ü\u0001");
    assertThat(new String(ascii, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"type\":\"system\",\"seq\":3,\"time\":\"2026-11-24T08:00:00Z\",\"action\":\"Act\","
                + "\"key\":\"k\",\"versions\":[1],\"why\":\"why\",\"request_id\":\"req-3\","
                + "\"prev\":\""
                + AuditChain.GENESIS
                + "\"}");
  }
}
