package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.ErrorReason;
import io.cipherd.api.v1.ItemError;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * proto/testdata/errors.json: each status, reason and message becomes the same error kind, as a
 * call's status (through grpc-java's trailers, ErrorInfo and all) and as a batch item's ItemError.
 */
class ErrorsVectorsTest {
  /** errors.json's kinds as this client's classes. */
  private static final Map<String, Class<? extends CipherdException>> KINDS =
      Map.ofEntries(
          Map.entry("invalid_argument", InvalidArgumentException.class),
          Map.entry("decryption_failed", DecryptionFailedException.class),
          Map.entry("invalid_ciphertext", InvalidCiphertextException.class),
          Map.entry("unexpected_key", UnexpectedKeyException.class),
          Map.entry("not_found", NotFoundException.class),
          Map.entry("already_exists", AlreadyExistsException.class),
          Map.entry("permission_denied", PermissionDeniedException.class),
          Map.entry("unauthenticated", UnauthenticatedException.class),
          Map.entry("failed_precondition", FailedPreconditionException.class),
          Map.entry("key_disabled", KeyDisabledException.class),
          Map.entry(
              "key_version_destruction_scheduled", KeyVersionDestructionScheduledException.class),
          Map.entry("key_version_destroyed", KeyVersionDestroyedException.class),
          Map.entry("key_versions_in_use", KeyVersionsInUseException.class),
          Map.entry("subject_erased", SubjectErasedException.class),
          Map.entry("subject_quota_exceeded", SubjectQuotaExceededException.class),
          Map.entry("subject_store_not_configured", SubjectStoreNotConfiguredException.class),
          Map.entry("plaintext_import_disabled", PlaintextImportDisabledException.class),
          Map.entry("import_job_unusable", ImportJobUnusableException.class),
          Map.entry("key_not_exportable", KeyNotExportableException.class),
          Map.entry("key_material_unusable", KeyMaterialUnusableException.class),
          Map.entry("aborted", AbortedException.class),
          Map.entry("resource_exhausted", ResourceExhaustedException.class),
          Map.entry("unavailable", UnavailableException.class),
          Map.entry("audit_unavailable", AuditUnavailableException.class),
          Map.entry("deadline_exceeded", DeadlineExceededException.class),
          Map.entry("cancelled", CancelledException.class),
          Map.entry("internal", InternalException.class));

  @TestFactory
  Stream<DynamicTest> everyCaseMapsAsACallAndAsAnItem() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonElement element : Testdata.json("errors.json").getAsJsonArray("cases")) {
      JsonObject c = element.getAsJsonObject();
      tests.add(DynamicTest.dynamicTest(c.get("name").getAsString(), () -> check(c)));
    }
    return tests.stream();
  }

  private static void check(JsonObject c) {
    Status.Code code = Status.Code.valueOf(c.get("code").getAsString());
    String reason = c.get("reason").getAsString();
    String message = c.get("message").getAsString();
    Map<String, String> metadata = new HashMap<>();
    if (c.has("metadata")) {
      c.getAsJsonObject("metadata")
          .entrySet()
          .forEach(e -> metadata.put(e.getKey(), e.getValue().getAsString()));
    }
    Class<? extends CipherdException> kind = KINDS.get(c.get("error").getAsString());
    com.google.rpc.Status.Builder status =
        com.google.rpc.Status.newBuilder().setCode(code.value()).setMessage(message);
    if (!reason.isEmpty()) {
      status.addDetails(
          Any.pack(
              ErrorInfo.newBuilder()
                  .setReason(reason)
                  .setDomain(Errors.DOMAIN)
                  .putAllMetadata(metadata)
                  .build()));
    }
    CipherdException call = Errors.fromGrpc(StatusProto.toStatusRuntimeException(status.build()));
    CipherdException item =
        Errors.fromItem(
            ItemError.newBuilder()
                .setCode(code.value())
                .setReason(reason)
                .setMessage(message)
                .build());
    for (CipherdException e : List.of(call, item)) {
      assertSame(kind, e.getClass(), c.get("name").getAsString());
      assertEquals(code, e.code());
      assertEquals(reason, e.reasonName());
      if (c.has("also")) {
        for (JsonElement also : c.getAsJsonArray("also")) {
          assertTrue(KINDS.get(also.getAsString()).isInstance(e), also.getAsString());
        }
      }
    }
    assertEquals(metadata, call.metadata());
    assertTrue(item.metadata().isEmpty());
    assertTrue(call.getMessage().contains(message));
    if (c.has("versions_in_use")) {
      List<Integer> versions = new ArrayList<>();
      c.getAsJsonArray("versions_in_use").forEach(v -> versions.add(v.getAsInt()));
      assertEquals(versions, ((KeyVersionsInUseException) call).versions());
      assertEquals(
          c.has("inventory_source") ? c.get("inventory_source").getAsString() : null,
          ((KeyVersionsInUseException) call).source().orElse(null));
    }
  }

  @Test
  void anErrorInfoOfAnotherDomainIsNotRead() {
    com.google.rpc.Status status =
        com.google.rpc.Status.newBuilder()
            .setCode(Status.Code.INVALID_ARGUMENT.value())
            .setMessage("proxy")
            .addDetails(
                Any.pack(
                    ErrorInfo.newBuilder()
                        .setReason("DECRYPTION_FAILED")
                        .setDomain("proxy.example")
                        .build()))
            .build();
    CipherdException e = Errors.fromGrpc(StatusProto.toStatusRuntimeException(status));
    assertSame(InvalidArgumentException.class, e.getClass());
    assertEquals(ErrorReason.ERROR_REASON_UNSPECIFIED, e.reason());
  }

  @Test
  void everyReasonOfTheEnumIsReadBack() {
    for (ErrorReason reason : EnumSet.complementOf(EnumSet.of(ErrorReason.UNRECOGNIZED))) {
      String name = reason == ErrorReason.ERROR_REASON_UNSPECIFIED ? "" : reason.name();
      assertEquals(reason, Errors.of(Status.Code.INTERNAL, name, "m", Map.of()).reason());
    }
    assertFalse(
        Errors.of(Status.Code.INTERNAL, "SOME_FUTURE_REASON", "m", Map.of())
            .reasonName()
            .isEmpty());
  }
}
