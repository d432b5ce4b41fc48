package io.cipherd.server.api;

import static io.cipherd.server.api.SubjectBoundApiTest.failure;
import static io.cipherd.server.api.SubjectBoundApiTest.info;
import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.EraseSubjectResponse;
import io.cipherd.api.v1.EraseSubjectsItem;
import io.cipherd.api.v1.EraseSubjectsRequest;
import io.cipherd.api.v1.EraseSubjectsResponse;
import io.cipherd.api.v1.GetSubjectRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.SubjectErasureOutcome;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.cipherd.api.v1.SubjectState;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.cipherd.server.subjectkeys.SubjectKeysConfig;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EraseSubject(s) and GetSubject in-process, under an access policy: erased data answers
 * SUBJECT_ERASED, encryption for an erased subject is refused unless renewed, only {@code erase}
 * (not {@code admin}) may erase, and a caller without it learns nothing about a subject.
 */
class SubjectErasureApiTest {
  private static final ByteString EMAIL = ByteString.copyFromUtf8("ada@example.com");

  private static final String POLICY =
      """
      callers:
        app:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [encrypt, decrypt, reencrypt, datakey, inspect]
        dpo:
          token_sha256: %s
          rules:
            - keys: ["users"]
              operations: [erase]
        keyadmin:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [admin, destroy, import, inspect]
      """
          .formatted(tokenHash("app"), tokenHash("dpo"), tokenHash("keyadmin"));

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;
  private CryptoServiceGrpc.CryptoServiceBlockingStub app;

  @BeforeEach
  void start() throws Exception {
    AccessPolicy policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    cipherd =
        InProcessCipherd.start(
            dataDir,
            builder ->
                builder
                    .accessPolicy(policy)
                    .subjectKeys(new SubjectKeysConfig(1000, Duration.ofMinutes(5), 5)));
    as("keyadmin", KeyAdminServiceGrpc.newBlockingStub(cipherd.channel))
        .createKey(
            CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
    app = as("app", CryptoServiceGrpc.newBlockingStub(cipherd.channel));
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void erase_thenDecrypt_isSubjectErased_neverDecryptionFailed_andOthersStillDecrypt() {
    String a = encrypt("user-a", false);
    String b = encrypt("user-b", false);

    EraseSubjectResponse erased = subjects("dpo").eraseSubject(erase("user-a"));

    assertThat(erased.getErasure().getOutcome())
        .isEqualTo(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ERASED);
    assertThat(erased.getErasure().hasEraseTime()).isTrue();
    // No audit trail on this server: no receipt.
    assertThat(erased.getErasure().hasReceipt()).isFalse();
    StatusRuntimeException e = failure(Status.Code.FAILED_PRECONDITION, () -> decrypt(a));
    assertThat(StatusMapperTest.reason(e)).isEqualTo("SUBJECT_ERASED");
    assertThat(info(e).getMetadataMap()).containsEntry("key", "users").containsKey("erase_time");
    assertThat(e.getStatus().getDescription()).doesNotContain("user-a");
    assertThat(decrypt(b)).isEqualTo(EMAIL);
    var registry = cipherd.services.metrics().registry();
    assertThat(registry.get("cipherd_subjects_erased").functionCounter().count()).isEqualTo(1);
    assertThat(registry.get("cipherd_subject_key_creations").functionCounter().count())
        .isEqualTo(2);

    // In a batch: the erased item's own error, the other item decrypted.
    var batch =
        app.decryptBatch(
            DecryptBatchRequest.newBuilder()
                .addItems(DecryptBatchItem.newBuilder().setReference("a").setCiphertext(a))
                .addItems(DecryptBatchItem.newBuilder().setReference("b").setCiphertext(b))
                .build());
    assertThat(batch.getResults(0).getError().getReason()).isEqualTo("SUBJECT_ERASED");
    assertThat(batch.getResults(1).getPlaintext()).isEqualTo(EMAIL);
  }

  @Test
  void encrypt_forAnErasedSubject_isRefused_unlessRenewed_andTheOldDataStaysErased() {
    String old = encrypt("user-a", false);
    subjects("dpo").eraseSubject(erase("user-a"));

    StatusRuntimeException e =
        failure(Status.Code.FAILED_PRECONDITION, () -> encrypt("user-a", false));
    assertThat(StatusMapperTest.reason(e)).isEqualTo("SUBJECT_ERASED");
    assertThat(e.getStatus().getDescription()).contains("renew_erased_subject");

    String renewed = encrypt("user-a", true);
    assertThat(decrypt(renewed)).isEqualTo(EMAIL);
    assertThat(
            StatusMapperTest.reason(failure(Status.Code.FAILED_PRECONDITION, () -> decrypt(old))))
        .isEqualTo("SUBJECT_ERASED");
    assertThat(
            subjects("dpo")
                .getSubject(
                    GetSubjectRequest.newBuilder().setKeyName("users").setSubject("user-a").build())
                .getState())
        .isEqualTo(SubjectState.SUBJECT_STATE_ACTIVE);
  }

  @Test
  void eraseSubjects_givesOneResultPerItem_inOrder() {
    encrypt("user-a", false);
    subjects("dpo").eraseSubject(erase("user-a"));
    encrypt("user-b", false);

    EraseSubjectsResponse results =
        subjects("dpo")
            .eraseSubjects(
                EraseSubjectsRequest.newBuilder()
                    .setKeyName("users")
                    .addItems(EraseSubjectsItem.newBuilder().setReference("1").setSubject("user-a"))
                    .addItems(EraseSubjectsItem.newBuilder().setReference("2").setSubject("user-b"))
                    .addItems(EraseSubjectsItem.newBuilder().setReference("3").setSubject("nobody"))
                    .addItems(EraseSubjectsItem.newBuilder().setReference("4").setSubject(""))
                    .build());

    assertThat(results.getResultsList())
        .extracting(r -> r.getReference())
        .containsExactly("1", "2", "3", "4");
    assertThat(results.getResults(0).getErasure().getOutcome())
        .isEqualTo(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED);
    assertThat(results.getResults(1).getErasure().getOutcome())
        .isEqualTo(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ERASED);
    assertThat(results.getResults(2).getErasure().getOutcome())
        .isEqualTo(SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_NO_KEY);
    assertThat(results.getResults(3).getError().getReason()).isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void withoutErase_everyCallIsTheSamePermissionDenied_whetherTheSubjectExistsWasErasedOrNot() {
    encrypt("user-live", false);
    encrypt("user-gone", false);
    subjects("dpo").eraseSubject(erase("user-gone"));

    for (String caller : List.of("app", "keyadmin")) {
      List<String> answers = new ArrayList<>();
      for (String subject : List.of("user-live", "user-gone", "user-never")) {
        answers.add(
            failure(
                    Status.Code.PERMISSION_DENIED,
                    () -> subjects(caller).eraseSubject(erase(subject)))
                .getStatus()
                .getDescription());
        answers.add(
            failure(
                    Status.Code.PERMISSION_DENIED,
                    () ->
                        subjects(caller)
                            .getSubject(
                                GetSubjectRequest.newBuilder()
                                    .setKeyName("users")
                                    .setSubject(subject)
                                    .build()))
                .getStatus()
                .getDescription());
      }
      assertThat(answers)
          .as(caller)
          .containsOnly("caller '" + caller + "' may not erase with key 'users'");
    }
    // Nothing was erased by them.
    assertThat(decrypt(encrypt("user-live", false))).isEqualTo(EMAIL);
  }

  @Test
  void creatingNewSubjectsFasterThanTheRate_isResourceExhausted_butExistingOnesWork() {
    // Rate 5 per second: a burst of 50 within the 10-second window.
    String existing = encrypt("user-0", false);
    int created = 1;
    StatusRuntimeException refused = null;
    for (int i = 1; i <= 200 && refused == null; i++) {
      try {
        encrypt("user-" + i, false);
        created++;
      } catch (StatusRuntimeException e) {
        refused = e;
      }
    }

    assertThat(refused).isNotNull();
    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(StatusMapperTest.reason(refused)).isEqualTo("SUBJECT_QUOTA_EXCEEDED");
    assertThat(created).isEqualTo(50);
    assertThat(
            cipherd
                .services
                .metrics()
                .registry()
                .get("cipherd_subject_creations_refused")
                .functionCounter()
                .count())
        .isEqualTo(1);
    assertThat(decrypt(encrypt("user-0", false))).isEqualTo(EMAIL);
    assertThat(decrypt(existing)).isEqualTo(EMAIL);
  }

  private SubjectServiceGrpc.SubjectServiceBlockingStub subjects(String caller) {
    return as(caller, SubjectServiceGrpc.newBlockingStub(cipherd.channel));
  }

  private static EraseSubjectRequest erase(String subject) {
    return EraseSubjectRequest.newBuilder().setKeyName("users").setSubject(subject).build();
  }

  private String encrypt(String subject, boolean renew) {
    return app.encrypt(
            EncryptRequest.newBuilder()
                .setKeyName("users")
                .setSubject(subject)
                .setRenewErasedSubject(renew)
                .setPlaintext(EMAIL)
                .build())
        .getCiphertext();
  }

  private ByteString decrypt(String ciphertext) {
    return app.decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
        .getPlaintext();
  }
}
