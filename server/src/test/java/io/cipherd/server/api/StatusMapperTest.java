package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.StatusOrBuilder;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.cipherd.api.v1.ItemError;
import io.cipherd.server.audit.AuditUnavailableException;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.crypto.keywrap.UnwrapFailedException;
import io.cipherd.server.engine.BackupUnwrapFailedException;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.engine.UnexpectedKeyException;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.ImportJobLimitException;
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
import io.cipherd.server.lifecycle.KeyVersionsInUseException;
import io.cipherd.server.pool.CipherPoolExhaustedException;
import io.cipherd.server.security.TestDenials;
import io.cipherd.server.subjectkeys.SubjectErasedException;
import io.cipherd.server.subjectkeys.SubjectQuotaExceededException;
import io.cipherd.server.subjects.SubjectStoreNotConfiguredException;
import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every domain error maps to one precise status, by its kind, whole call and batch item alike. */
class StatusMapperTest {
  /** One instance of every subclass, with the status a caller must see for it. */
  private static final Map<CipherdException, Status.Code> EXPECTED =
      Map.ofEntries(
          Map.entry(
              new InvalidArgumentException("key_name is required"), Status.Code.INVALID_ARGUMENT),
          Map.entry(
              new InvalidCiphertextException("payload is empty"), Status.Code.INVALID_ARGUMENT),
          Map.entry(unexpectedKey(), Status.Code.INVALID_ARGUMENT),
          Map.entry(new DecryptionFailedException(), Status.Code.INVALID_ARGUMENT),
          Map.entry(new AuditOffException(), Status.Code.FAILED_PRECONDITION),
          Map.entry(KeyNotFoundException.key("orders"), Status.Code.NOT_FOUND),
          Map.entry(new KeyAlreadyExistsException("orders"), Status.Code.ALREADY_EXISTS),
          Map.entry(
              new KeyPolicyViolationException("below min_decryption_version"),
              Status.Code.FAILED_PRECONDITION),
          Map.entry(new ConcurrentKeyUpdateException("orders", 3), Status.Code.ABORTED),
          Map.entry(
              KeyUnavailableException.keyDisabled("orders", KeyLifecycle.DISABLED),
              Status.Code.FAILED_PRECONDITION),
          Map.entry(
              new KeyVersionsInUseException("orders", List.of(1, 2), Duration.ofDays(7)),
              Status.Code.FAILED_PRECONDITION),
          Map.entry(
              new AuditUnavailableException("the audit record could not be written"),
              Status.Code.UNAVAILABLE),
          Map.entry(
              new KeyStoreUnavailableException("vault at http://127.0.0.1:1 is down", null),
              Status.Code.UNAVAILABLE),
          Map.entry(
              new SubjectStoreUnavailableException("subject store: find failed (SQL state 08006)"),
              Status.Code.UNAVAILABLE),
          Map.entry(
              new SubjectStoreNotConfiguredException("set --subject-store-url"),
              Status.Code.FAILED_PRECONDITION),
          Map.entry(
              new KeyStoreAccessDeniedException("no read on secret/data/x"),
              Status.Code.PERMISSION_DENIED),
          Map.entry(
              new CipherPoolExhaustedException(CipherMode.GCM, 200),
              Status.Code.RESOURCE_EXHAUSTED),
          Map.entry(TestDenials.denied(), Status.Code.PERMISSION_DENIED),
          Map.entry(TestDenials.anonymous(), Status.Code.UNAUTHENTICATED),
          Map.entry(new StreamIdleException("stream idle"), Status.Code.CANCELLED),
          Map.entry(
              new SubjectErasedException("users", Instant.parse("2026-11-24T09:00:00Z"), false),
              Status.Code.FAILED_PRECONDITION),
          Map.entry(
              new SubjectQuotaExceededException("users", 1000), Status.Code.RESOURCE_EXHAUSTED),
          Map.entry(new UnwrapFailedException(), Status.Code.INVALID_ARGUMENT),
          Map.entry(
              new PlaintextImportDisabledException("orders"), Status.Code.FAILED_PRECONDITION),
          Map.entry(new ImportJobUnusableException("orders"), Status.Code.FAILED_PRECONDITION),
          Map.entry(new KeyNotExportableException("orders"), Status.Code.FAILED_PRECONDITION),
          Map.entry(
              new KeyMaterialUnusableException(
                  "orders", 2, new IllegalStateException("wrapped by transit:transit/old")),
              Status.Code.FAILED_PRECONDITION),
          Map.entry(new BackupUnwrapFailedException(), Status.Code.INVALID_ARGUMENT),
          Map.entry(
              new ImportJobLimitException("this caller holds its most live import jobs (8)"),
              Status.Code.RESOURCE_EXHAUSTED),
          Map.entry(
              new CryptoProviderException(
                  "AES/GCM/NoPadding", new IllegalStateException("provider")),
              Status.Code.INTERNAL));

  /** The refusal of a ciphertext under 'attacker-key' where 'users-email' is expected. */
  private static UnexpectedKeyException unexpectedKey() {
    try {
      ExpectedKey.parse("users-email", "expected_key").check("attacker-key");
    } catch (UnexpectedKeyException e) {
      return e;
    }
    throw new AssertionError("'attacker-key' was accepted where 'users-email' is expected");
  }

  static Stream<CipherdException> errors() {
    return EXPECTED.keySet().stream();
  }

  @Test
  void everySubclassOfCipherdException_isCoveredHere() {
    Set<String> subclasses =
        new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.cipherd.server")
                .stream()
                .filter(
                    c ->
                        c.isAssignableTo(CipherdException.class)
                            && !c.getModifiers().contains(JavaModifier.ABSTRACT))
                .map(JavaClass::getName)
                .collect(Collectors.toSet());
    Set<String> covered =
        EXPECTED.keySet().stream().map(e -> e.getClass().getName()).collect(Collectors.toSet());

    assertThat(subclasses).isNotEmpty().isEqualTo(covered);
  }

  @ParameterizedTest
  @MethodSource("errors")
  void eachError_mapsToItsStatus_withItsOwnMessage(CipherdException error) {
    Status status = StatusMapper.toStatus(error);

    assertThat(status.getCode()).isEqualTo(EXPECTED.get(error));
    assertThat(status.getDescription()).isEqualTo(error.getMessage());
  }

  @ParameterizedTest
  @MethodSource("errors")
  void anItemError_carriesTheSameStatus(CipherdException error) {
    ItemError item = StatusMapper.toItemError(error);

    assertThat(item.getCode()).isEqualTo(EXPECTED.get(error).value());
    assertThat(item.getMessage()).isEqualTo(error.getMessage());
  }

  @ParameterizedTest
  @MethodSource("errors")
  void aFailedCall_carriesAnErrorInfo_whoseReasonIsTheKind_andAnItemTheSameReason(
      CipherdException error) {
    assertThat(reason(StatusMapper.toException(error))).isEqualTo(error.kind().name());
    assertThat(StatusMapper.toItemError(error).getReason()).isEqualTo(error.kind().name());
  }

  @Test
  void aFullQueue_isServerBusy_andAnUnexpectedException_isInternal_byReasonToo() {
    assertThat(reason(StatusMapper.toException(new RejectedExecutionException("queue full"))))
        .isEqualTo("SERVER_BUSY");
    assertThat(reason(StatusMapper.toException(new OutOfMemoryError()))).isEqualTo("SERVER_BUSY");
    assertThat(reason(StatusMapper.toException(new IllegalStateException("bug"))))
        .isEqualTo("INTERNAL");
  }

  /**
   * The reason of the one ErrorInfo in {@code e}'s status details, as a client reads it from the
   * trailers.
   */
  static String reason(StatusRuntimeException e) {
    StatusOrBuilder details = StatusProto.fromThrowable(e);
    assertThat(details).isNotNull();
    assertThat(details.getCode()).isEqualTo(e.getStatus().getCode().value());
    assertThat(details.getDetailsList()).hasSize(1);
    try {
      ErrorInfo info = details.getDetails(0).unpack(ErrorInfo.class);
      assertThat(info.getDomain()).isEqualTo("cipherd.io");
      return info.getReason();
    } catch (InvalidProtocolBufferException notErrorInfo) {
      throw new AssertionError("the detail is not an ErrorInfo", notErrorInfo);
    }
  }

  @ParameterizedTest
  @EnumSource(ErrorKind.class)
  void everyKind_hasAStatusAndAnOutcome_andOnlyInternalIsInternal(ErrorKind kind) {
    assertThat(StatusMapper.codeOf(kind) == Status.Code.INTERNAL)
        .isEqualTo(kind == ErrorKind.INTERNAL);
    assertThat(kind.outcome()).matches("[a-z_]+");
  }

  @Test
  void outcomes_areDistinctPerKind() {
    assertThat(Stream.of(ErrorKind.values()).map(ErrorKind::outcome).distinct().count())
        .isEqualTo(ErrorKind.values().length);
  }

  @Test
  void anItemErrorsMessage_isCutTo256Bytes_soABatchsErrorResultsHaveABound() {
    ItemError shortOne = StatusMapper.toItemError(new InvalidArgumentException("short"));
    assertThat(shortOne.getMessage()).isEqualTo("short");
    ItemError ascii = StatusMapper.toItemError(new InvalidArgumentException("a".repeat(1000)));
    assertThat(ascii.getMessage()).isEqualTo("a".repeat(253) + "\u2026");
    // Four bytes per code point: cut between pairs, never inside one.
    ItemError wide =
        StatusMapper.toItemError(new InvalidArgumentException("\uD83D\uDD11".repeat(100)));
    assertThat(wide.getMessage().getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(StatusMapper.MAX_ITEM_MESSAGE_BYTES);
    assertThat(wide.getMessage()).isEqualTo("\uD83D\uDD11".repeat(63) + "\u2026");
    assertThat(
            ItemError.newBuilder(wide)
                .setCode(16)
                .setReason("KEY_VERSION_DESTRUCTION_SCHEDULED")
                .build()
                .getSerializedSize())
        .isLessThan(PlaintextLimit.ERROR_RESULT - 20);
  }

  @Test
  void aFailedDecryption_saysOnlyThatItFailed() {
    assertThat(StatusMapper.toStatus(new DecryptionFailedException()).getDescription())
        .isEqualTo("decryption failed");
  }

  @Test
  void aFullQueue_isResourceExhausted() {
    assertThat(StatusMapper.toStatus(new RejectedExecutionException("queue full")).getCode())
        .isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
  }

  @Test
  void anUnexpectedException_isInternal_withoutItsMessage() {
    Status status = StatusMapper.toStatus(new IllegalStateException("secret detail 1234"));

    assertThat(status.getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(status.getDescription()).isEqualTo("internal error");
  }

  @Test
  void aStatusException_keepsItsStatus() {
    Status status =
        StatusMapper.toStatus(
            Status.DEADLINE_EXCEEDED.withDescription("late").asRuntimeException());

    assertThat(status.getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
  }

  @Test
  void errorInfoMetadata_namesTheKeyAndVersion_ofErrorsAboutAKey() {
    assertThat(metadata(StatusMapper.toException(KeyNotFoundException.version("orders", 7))))
        .isEqualTo(Map.of("key", "orders", "version", "7"));
    assertThat(metadata(StatusMapper.toException(KeyNotFoundException.key("orders"))))
        .isEqualTo(Map.of("key", "orders"));
    assertThat(metadata(StatusMapper.toException(new KeyAlreadyExistsException("orders"))))
        .isEqualTo(Map.of("key", "orders"));
    assertThat(metadata(StatusMapper.toException(new ConcurrentKeyUpdateException("orders", 3))))
        .isEqualTo(Map.of("key", "orders"));
    assertThat(metadata(StatusMapper.toException(TestDenials.denied())))
        .isEqualTo(Map.of("key", "invoices", "operation", "decrypt"));
  }

  @Test
  void aDestroyedVersion_isFailedPrecondition_withItsOwnReason_neverADecryptionFailure() {
    Instant at = Instant.parse("2026-11-24T09:00:00Z");
    StatusRuntimeException destroyed =
        StatusMapper.toException(
            KeyUnavailableException.version("orders", 2, VersionLifecycle.destroyed(at)));
    StatusRuntimeException scheduled =
        StatusMapper.toException(
            KeyUnavailableException.version("orders", 2, VersionLifecycle.scheduled(at)));

    assertThat(destroyed.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(destroyed.getStatus().getDescription()).startsWith("key version destroyed");
    assertThat(reason(destroyed)).isEqualTo("KEY_VERSION_DESTROYED");
    assertThat(reason(scheduled)).isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");
    assertThat(metadata(destroyed)).isEqualTo(Map.of("key", "orders", "version", "2"));
  }

  @Test
  void versionsInUse_isFailedPrecondition_listingTheVersions_inTheMessageAndTheMetadata() {
    StatusRuntimeException inUse =
        StatusMapper.toException(
            new KeyVersionsInUseException("orders", List.of(1, 3), Duration.ofDays(7)));

    assertThat(inUse.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(reason(inUse)).isEqualTo("KEY_VERSIONS_IN_USE");
    assertThat(metadata(inUse)).isEqualTo(Map.of("key", "orders", "versions", "1,3"));
    assertThat(inUse.getStatus().getDescription())
        .isEqualTo(
            "key 'orders' cannot retire versions 1, 3: used within the quiet period (7 days) on"
                + " some replica; rewrap their data with ReEncrypt and retry once GetKeyCensus"
                + " shows them idle");
    assertThat(
            StatusMapper.toItemError(
                    new KeyVersionsInUseException("orders", List.of(2), Duration.ofHours(36)))
                .getMessage())
        .contains("cannot retire version 2:", "(36 hours)");
  }

  @Test
  void errorInfoMetadata_isEmpty_forAFailedDecryption_andForBadInput() {
    assertThat(metadata(StatusMapper.toException(new DecryptionFailedException()))).isEmpty();
    assertThat(metadata(StatusMapper.toException(new InvalidArgumentException("key_name is bad"))))
        .isEmpty();
    assertThat(metadata(StatusMapper.toException(new InvalidCiphertextException("bad header"))))
        .isEmpty();
  }

  private static Map<String, String> metadata(StatusRuntimeException e) {
    try {
      return StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class).getMetadataMap();
    } catch (InvalidProtocolBufferException notErrorInfo) {
      throw new AssertionError("the detail is not an ErrorInfo", notErrorInfo);
    }
  }
}
