package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.BackupKeyResponse;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateImportJobResponse;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportWrappingAlgorithm;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyBackupFile;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RestoreKeyResponse;
import io.cipherd.server.importjobs.BackupRecipient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a custody call's record keeps of its request and its answer: bounded, validated parts only,
 * and nothing at all for any other call, whose line stays as it was.
 */
class AuditedCustodyTest {
  private static final String JOB = "0123456789abcdef0123456789abcdef";
  private static final Instant TIME = Instant.parse("2026-11-24T08:00:00Z");

  /** A recipient written by the openssl CLI, and its SHA-256 as openssl computes it. */
  private static final String OPENSSL_PEM = resource("openssl-rsa3072.pub.pem");

  private static final String OPENSSL_SHA256 = resource("openssl-rsa3072.pub.sha256").strip();

  @Test
  void otherCalls_haveNoCustody_andTheirAnswersAreNotRead() {
    EncryptRequest encrypt = EncryptRequest.newBuilder().setKeyName("orders").build();
    assertThat(AuditedCustody.isCustody(encrypt)).isFalse();
    assertThat(AuditedCustody.asked(encrypt)).isSameAs(AuditedCustody.NONE);
    assertThat(AuditedCustody.NONE.answered(EncryptResponse.getDefaultInstance()))
        .isSameAs(AuditedCustody.NONE);
    assertThat(parse(record(AuditedCustody.NONE)).has("custody")).isFalse();
  }

  @Test
  void createImportJob_keepsTheAlgorithmAsked_thenTheJobMade() {
    AuditedCustody asked =
        AuditedCustody.asked(CreateImportJobRequest.newBuilder().setKeyName("orders").build());
    // Unspecified means 3072, as the API says.
    assertThat(asked.wrappingAlgorithm()).isEqualTo("RSA_AES_KEY_WRAP_SHA256_3072");
    assertThat(asked.importJobId()).isNull();

    AuditedCustody made =
        asked.answered(
            CreateImportJobResponse.newBuilder()
                .setImportJob(
                    ImportJob.newBuilder()
                        .setImportJobId(JOB)
                        .setKeyName("orders")
                        .setPublicKeyPem("-----BEGIN PUBLIC KEY-----\nMIIB\n")
                        .setWrappingAlgorithm(
                            ImportWrappingAlgorithm
                                .IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096)
                        .setExpireTime(Timestamp.newBuilder().setSeconds(1_795_000_000)))
                .build());
    assertThat(parse(record(made)).getAsJsonObject("custody").toString())
        .isEqualTo(
            "{\"import_job_id\":\""
                + JOB
                + "\",\"wrapping_algorithm\":\"RSA_AES_KEY_WRAP_SHA256_4096\","
                + "\"import_job_expire_time\":\"2026-11-18T11:06:40Z\"}");
  }

  @Test
  void aJobIdThatIsNotOne_isRecordedAsInvalid_andNoneAsAbsent() {
    assertThat(
            AuditedCustody.asked(
                    RestoreKeyRequest.newBuilder().setImportJobId("x\"y".repeat(10_000)).build())
                .importJobId())
        .isEqualTo(AuditedCustody.INVALID_JOB);
    assertThat(
            AuditedCustody.asked(ImportKeyRequest.newBuilder().setImportJobId(JOB).build())
                .importJobId())
        .isEqualTo(JOB);
    AuditedCustody plaintext = AuditedCustody.asked(ImportKeyRequest.getDefaultInstance());
    assertThat(plaintext.isEmpty()).isTrue();
    assertThat(AuditedCustody.isCustody(ImportKeyRequest.getDefaultInstance())).isTrue();
  }

  @Test
  void aRecipientThatIsNotAKey_orTooLongToBeOne_isNotRead() {
    String begin = "-----BEGIN PUBLIC KEY-----";
    String end = "-----END PUBLIC KEY-----";
    for (String pem :
        List.of(
            "not a key",
            // A body of whitespace without an END line, at the length this record once read
            // (2,048): the pattern it went through took seconds on it, for any caller.
            begin + " ".repeat(2048 - begin.length()),
            begin + "\n".repeat(BackupRecipient.MAX_PEM_CHARS - begin.length()),
            begin + "A".repeat(BackupRecipient.MAX_PEM_CHARS - begin.length()),
            begin + " ".repeat(BackupRecipient.MAX_PEM_CHARS) + "x" + end,
            OPENSSL_PEM + " ".repeat(BackupRecipient.MAX_PEM_CHARS - OPENSSL_PEM.length() + 1),
            begin + "QUJD".repeat(1024 * 1024) + end)) {
      assertThat(asked(pem).isEmpty()).as("%d characters", pem.length()).isTrue();
    }
  }

  @Test
  void aRecipientBackupKeyWouldTake_isNamedAsAsked_upToItsLimit() {
    String atLimit = OPENSSL_PEM + " ".repeat(BackupRecipient.MAX_PEM_CHARS - OPENSSL_PEM.length());
    for (String pem : List.of(OPENSSL_PEM, OPENSSL_PEM.replace("\n", "\r\n"), atLimit)) {
      AuditedCustody asked = asked(pem);
      assertThat(asked.recipient()).isEqualTo("sha256:" + OPENSSL_SHA256);
      assertThat(asked.wrappingAlgorithm()).isEqualTo("RSA_AES_KEY_WRAP_SHA256_3072");
    }
  }

  private static AuditedCustody asked(String pem) {
    return AuditedCustody.asked(
        BackupKeyRequest.newBuilder().setKeyName("orders").setRecipientPublicKeyPem(pem).build());
  }

  @Test
  void aBackup_namesTheRecipientItsFileWasWrappedFor_andTheVersionsWithMaterial() {
    byte[] sha256 = new byte[32];
    sha256[0] = (byte) 0xab;
    KeyBackupFile file =
        KeyBackupFile.newBuilder()
            .setFormat(1)
            .setKeyName("orders")
            .setRecipientKeySha256(ByteString.copyFrom(sha256))
            .setWrappingAlgorithm(
                ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096)
            .setWrappedKeyBackup(ByteString.copyFrom(new byte[600]))
            .build();
    Key key =
        Key.newBuilder()
            .setKeyName("orders")
            .setCurrentVersion(2)
            .addVersions(
                KeyVersion.newBuilder()
                    .setVersion(1)
                    .setState(KeyVersionState.KEY_VERSION_STATE_DESTROYED))
            .addVersions(
                KeyVersion.newBuilder()
                    .setVersion(2)
                    .setState(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED))
            .build();
    AuditedCustody backedUp =
        AuditedCustody.asked(BackupKeyRequest.newBuilder().setKeyName("orders").build())
            .answered(
                BackupKeyResponse.newBuilder()
                    .setBackupFile(file.toByteString())
                    .setKey(key)
                    .build());
    assertThat(parse(record(backedUp)).getAsJsonObject("custody").toString())
        .isEqualTo(
            "{\"wrapping_algorithm\":\"RSA_AES_KEY_WRAP_SHA256_4096\",\"recipient\":\"sha256:ab"
                + "0".repeat(62)
                + "\",\"versions\":[2]}");
  }

  @Test
  void aRestoreOfManyVersions_keepsTheFirstWithMaterial_andCountsTheRest() {
    Key.Builder key = Key.newBuilder().setKeyName("orders").setCurrentVersion(100);
    for (int version = 1; version <= 100; version++) {
      key.addVersions(
          KeyVersion.newBuilder()
              .setVersion(version)
              .setState(
                  version == 3
                      ? KeyVersionState.KEY_VERSION_STATE_DESTROYED
                      : KeyVersionState.KEY_VERSION_STATE_ENABLED));
    }
    AuditedCustody restored =
        AuditedCustody.asked(RestoreKeyRequest.newBuilder().setImportJobId(JOB).build())
            .answered(RestoreKeyResponse.newBuilder().setKey(key).build());

    List<Integer> expected = new ArrayList<>();
    for (int version = 1; expected.size() < AuditedCustody.MAX_VERSIONS; version++) {
      if (version != 3) {
        expected.add(version);
      }
    }
    assertThat(restored.versions()).isEqualTo(expected);
    assertThat(restored.versionsFolded()).isEqualTo(99 - AuditedCustody.MAX_VERSIONS);
    JsonObject custody = parse(record(restored)).getAsJsonObject("custody");
    assertThat(custody.get("import_job_id").getAsString()).isEqualTo(JOB);
    assertThat(custody.getAsJsonArray("versions")).hasSize(AuditedCustody.MAX_VERSIONS);
    assertThat(custody.get("versions_folded").getAsLong()).isEqualTo(35);
    assertThat(AuditLine.call(record(restored), 1, "0".repeat(64)).length).isLessThan(1024);
  }

  private static CallRecord record(AuditedCustody custody) {
    return CallRecord.builder(TIME, "0123456789abcdef")
        .caller("admin")
        .callerVia("certificate")
        .peer("127.0.0.1:1")
        .method("cipherd.v1.KeyAdminService/RestoreKey")
        .keyName("orders")
        .items(0)
        .versions(List.of())
        .status("OK")
        .custody(custody)
        .build();
  }

  private static JsonObject parse(CallRecord record) {
    return JsonParser.parseString(
            new String(AuditLine.call(record, 1, "0".repeat(64)), StandardCharsets.UTF_8))
        .getAsJsonObject();
  }

  private static String resource(String name) {
    try (InputStream in =
        AuditedCustodyTest.class.getResourceAsStream("/io/cipherd/server/importjobs/" + name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the test resources");
      }
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
