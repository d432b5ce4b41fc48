package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.ErrorReason;
import io.cipherd.api.v1.ItemError;
import io.cipherd.server.audit.AuditUnavailableException;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.engine.UnexpectedKeyException;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.ImportJobUnusableException;
import io.cipherd.server.importjobs.PlaintextImportDisabledException;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMaterialUnusableException;
import io.cipherd.server.keys.KeyNotExportableException;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyUnavailableException;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.lifecycle.DataInventory;
import io.cipherd.server.lifecycle.KeyVersionsInUseException;
import io.cipherd.server.pool.CipherPoolExhaustedException;
import io.cipherd.server.security.TestDenials;
import io.cipherd.server.subjectkeys.SubjectErasedException;
import io.cipherd.server.subjectkeys.SubjectQuotaExceededException;
import io.cipherd.server.subjects.SubjectStoreNotConfiguredException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The server runs proto/testdata/errors.json, the table every client runs: each row a server could
 * send (a reason, not marked {@code client_only}) is a status code, reason and ErrorInfo metadata
 * that cipherd's own error for that reason maps to, for a call and for a batch item alike; and
 * every reason has such a row, so no client goes untested on one.
 */
class ErrorVectorsTest {
  /** One row of errors.json, as far as the server reads it. */
  record Row(
      String name, String code, String reason, Map<String, String> metadata, boolean clientOnly) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Row> rows() throws IOException {
    JsonObject vectors =
        JsonParser.parseString(
                Files.readString(
                    ErrorReasonTest.protoRoot().resolve("testdata").resolve("errors.json")))
            .getAsJsonObject();
    return StreamSupport.stream(vectors.getAsJsonArray("cases").spliterator(), false)
        .map(JsonElement::getAsJsonObject)
        .map(
            row ->
                new Row(
                    row.get("name").getAsString(),
                    row.get("code").getAsString(),
                    row.get("reason").getAsString(),
                    row.has("metadata")
                        ? row.getAsJsonObject("metadata").entrySet().stream()
                            .collect(
                                Collectors.toMap(
                                    Map.Entry::getKey, e -> e.getValue().getAsString()))
                        : null,
                    row.has("client_only") && row.get("client_only").getAsBoolean()))
        .toList();
  }

  static Stream<Row> rowsTheServerSends() throws IOException {
    return rows().stream().filter(row -> !row.reason().isEmpty() && !row.clientOnly());
  }

  static Stream<Row> clientOnlyRows() throws IOException {
    return rows().stream().filter(Row::clientOnly);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rowsTheServerSends")
  void aRowTheServerSends_isTheStatusReasonAndMetadata_ofTheServersError(Row row) {
    assertThat(ErrorReasonTest.sendable().stream().map(ErrorReason::name))
        .as("reasons of error_reason.proto")
        .contains(row.reason());
    ErrorReason reason = ErrorReason.valueOf(row.reason());
    Throwable error = serversError(reason, row.metadata() == null ? Map.of() : row.metadata());
    assertThat(StatusMapper.kindOf(error).reason()).isEqualTo(reason);

    StatusRuntimeException call = StatusMapper.toException(error);
    assertThat(call.getStatus().getCode().name()).isEqualTo(row.code());
    ErrorInfo info = errorInfo(call);
    assertThat(info.getDomain()).isEqualTo(StatusMapper.DOMAIN);
    assertThat(info.getReason()).isEqualTo(row.reason());
    if (row.metadata() != null) {
      assertThat(info.getMetadataMap()).isEqualTo(row.metadata());
    }

    ItemError item = StatusMapper.toItemError(error);
    assertThat(Status.fromCodeValue(item.getCode()).getCode().name()).isEqualTo(row.code());
    assertThat(item.getReason()).isEqualTo(row.reason());
  }

  @Test
  void everyReason_hasARowTheServerSends_soEveryClientRunsIt() throws IOException {
    Set<String> covered = rowsTheServerSends().map(Row::reason).collect(Collectors.toSet());

    assertThat(covered)
        .containsAll(ErrorReasonTest.sendable().stream().map(ErrorReason::name).toList());
  }

  /**
   * A row marked client_only is one no server sends: a reason the schema does not have yet, or a
   * reason under a status its kind never has. A row the server would send must not hide there.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("clientOnlyRows")
  void aClientOnlyRow_isOneNoServerSends(Row row) {
    Set<String> known =
        ErrorReasonTest.sendable().stream().map(ErrorReason::name).collect(Collectors.toSet());
    if (known.contains(row.reason())) {
      Throwable error = serversError(ErrorReason.valueOf(row.reason()), Map.of());
      assertThat(StatusMapper.toStatus(error).getCode().name()).isNotEqualTo(row.code());
    } else {
      assertThat(row.reason()).isNotEmpty();
    }
  }

  /**
   * The error the server raises for {@code reason}, about what {@code metadata} names (or a made-up
   * key and version when the row names none). The switch is exhaustive: a reason added to the
   * schema does not compile here until it has an error.
   */
  private static Throwable serversError(ErrorReason reason, Map<String, String> metadata) {
    String key = metadata.getOrDefault("key", "orders");
    Instant at = Instant.parse("2026-11-24T09:00:00Z");
    return switch (reason) {
      case INVALID_ARGUMENT -> new InvalidArgumentException("key_name is required");
      case INVALID_CIPHERTEXT -> new InvalidCiphertextException("header is missing");
      case UNEXPECTED_KEY -> unexpectedKey(key, metadata.getOrDefault("expected_key", "users"));
      case DECRYPTION_FAILED -> new DecryptionFailedException();
      case KEY_NOT_FOUND ->
          metadata.containsKey("version")
              ? KeyNotFoundException.version(key, Integer.parseInt(metadata.get("version")))
              : KeyNotFoundException.key(key);
      case KEY_ALREADY_EXISTS -> new KeyAlreadyExistsException(key);
      case POLICY_DENIED -> new KeyPolicyViolationException("below min_decryption_version");
      case KEY_DISABLED -> KeyUnavailableException.keyDisabled(key, KeyLifecycle.DISABLED);
      case KEY_VERSION_DESTRUCTION_SCHEDULED ->
          KeyUnavailableException.version(key, version(metadata), VersionLifecycle.scheduled(at));
      case KEY_VERSION_DESTROYED ->
          KeyUnavailableException.version(key, version(metadata), VersionLifecycle.destroyed(at));
      case KEY_VERSIONS_IN_USE -> versionsInUse(key, metadata);
      case CONCURRENT_UPDATE -> new ConcurrentKeyUpdateException(key, 3);
      case STORE_UNAVAILABLE -> new KeyStoreUnavailableException("vault is down", null);
      case AUDIT_UNAVAILABLE -> new AuditUnavailableException("the audit record was not written");
      case STORE_ACCESS_DENIED -> new KeyStoreAccessDeniedException("no read on secret/data/x");
      case POOL_EXHAUSTED -> new CipherPoolExhaustedException(CipherMode.GCM, 200);
      case SERVER_BUSY -> new RejectedExecutionException("queue full");
      case ACCESS_DENIED -> TestDenials.denied();
      case UNAUTHENTICATED -> TestDenials.anonymous();
      case STREAM_IDLE -> new StreamIdleException("stream idle");
      case INTERNAL ->
          new CryptoProviderException("AES/GCM/NoPadding", new IllegalStateException("provider"));
      case SUBJECT_ERASED ->
          new SubjectErasedException(
              key, Instant.parse(metadata.getOrDefault("erase_time", at.toString())), false);
      case SUBJECT_QUOTA_EXCEEDED -> new SubjectQuotaExceededException(key, 1000);
      case SUBJECT_STORE_NOT_CONFIGURED ->
          new SubjectStoreNotConfiguredException("this server has no --subject-store-url");
      case PLAINTEXT_IMPORT_DISABLED -> new PlaintextImportDisabledException(key);
      case IMPORT_JOB_UNUSABLE -> new ImportJobUnusableException(key);
      case KEY_NOT_EXPORTABLE -> new KeyNotExportableException(key);
      case KEY_MATERIAL_UNUSABLE ->
          new KeyMaterialUnusableException(
              key, version(metadata), new IllegalStateException("did not unwrap"));
      case ERROR_REASON_UNSPECIFIED, UNRECOGNIZED ->
          throw new AssertionError("the server never sends " + reason);
    };
  }

  private static int version(Map<String, String> metadata) {
    return Integer.parseInt(metadata.getOrDefault("version", "1"));
  }

  /** Refused by traffic, or, when the row names a source, by that inventory. */
  private static KeyVersionsInUseException versionsInUse(String key, Map<String, String> metadata) {
    List<Integer> versions =
        Stream.of(metadata.getOrDefault("versions", "1").split(","))
            .map(Integer::parseInt)
            .toList();
    if (!metadata.containsKey("source")) {
      return new KeyVersionsInUseException(key, versions, Duration.ofDays(7));
    }
    SortedMap<Integer, Long> counts = new TreeMap<>();
    versions.forEach(v -> counts.put(v, 5L));
    DataInventory inventory = new DataInventory(key, metadata.get("source"), null, 100, counts);
    return new KeyVersionsInUseException(key, inventory, new LinkedHashMap<>(counts));
  }

  private static UnexpectedKeyException unexpectedKey(String key, String expected) {
    try {
      ExpectedKey.parse(expected, "expected_key").check(key);
    } catch (UnexpectedKeyException e) {
      return e;
    }
    throw new AssertionError("'" + key + "' was accepted where '" + expected + "' is expected");
  }

  private static ErrorInfo errorInfo(StatusRuntimeException e) {
    try {
      var details = StatusProto.fromThrowable(e);
      assertThat(details).isNotNull();
      assertThat(details.getDetailsList()).hasSize(1);
      return details.getDetails(0).unpack(ErrorInfo.class);
    } catch (InvalidProtocolBufferException notErrorInfo) {
      throw new AssertionError("the detail is not an ErrorInfo", notErrorInfo);
    }
  }
}
