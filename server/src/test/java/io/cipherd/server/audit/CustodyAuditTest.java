package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonObject;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.BackupKeyResponse;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyBackupFile;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.SetKeyExportableRequest;
import io.cipherd.server.crypto.keywrap.JdkKeyWrap;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.cipherd.server.security.BearerTokens;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trail of a key's custody, read back from the real files: a key imported wrapped for an import
 * job, backed up for a recipient on one server and restored on another through a job there. Each of
 * CreateImportJob, ImportKey, BackupKey and RestoreKey records which job, which recipient and which
 * versions, never the material, the wrapped blobs or the recipient's key itself; a refused caller's
 * record keeps only what it asked; both chains verify.
 */
class CustodyAuditTest {
  private static final String POLICY =
      """
      callers:
        custodian:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [admin, import, export, inspect]
        stranger:
          token_sha256: %s
          rules:
            - keys: [elsewhere]
              operations: [admin, import, export]
      """
          .formatted(
              BearerTokens.hashHex("token-custodian-41c"),
              BearerTokens.hashHex("token-stranger-7e"));

  @TempDir Path dir;

  @Test
  void custodyCalls_recordJobRecipientAndVersions_neverMaterial() throws Exception {
    Path sourceLog = dir.resolve("source-audit.log");
    Path targetLog = dir.resolve("target-audit.log");
    AccessPolicy policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(3072);
    KeyPair recipient = generator.generateKeyPair();
    String recipientPem =
        "-----BEGIN PUBLIC KEY-----\n"
            + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(recipient.getPublic().getEncoded())
            + "\n-----END PUBLIC KEY-----\n";
    byte[] material = new byte[32];
    Arrays.fill(material, (byte) 0x5a);
    material[0] = 0x11;

    AuditKey sourceKey;
    AuditKey targetKey;
    ImportJob sourceJob;
    ImportJob targetJob;
    byte[] wrappedMaterial;
    byte[] wrappedBackup;
    BackupKeyResponse backup;
    Key restored;
    try (AuditServer source = new AuditServer(config(sourceLog), policy);
        AuditServer target = new AuditServer(config(targetLog), policy)) {
      sourceKey = source.key;
      targetKey = target.key;
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub custodian =
          as("token-custodian-41c", source.admin);
      sourceJob =
          custodian
              .createImportJob(CreateImportJobRequest.newBuilder().setKeyName("moved").build())
              .getImportJob();
      wrappedMaterial =
          JdkKeyWrap.wrap(JdkKeyWrap.publicKey(sourceJob.getPublicKeyPem()), material);
      custodian.importKey(
          ImportKeyRequest.newBuilder()
              .setKeyName("moved")
              .setImportJobId(sourceJob.getImportJobId())
              .setWrappedKeyMaterial(ByteString.copyFrom(wrappedMaterial))
              .build());
      custodian.setKeyExportable(SetKeyExportableRequest.newBuilder().setKeyName("moved").build());
      custodian.rotateKey(RotateKeyRequest.newBuilder().setKeyName("moved").build());
      BackupKeyRequest backupRequest =
          BackupKeyRequest.newBuilder()
              .setKeyName("moved")
              .setRecipientPublicKeyPem(recipientPem)
              .build();
      backup = custodian.backupKey(backupRequest);
      assertThat(code(() -> as("token-stranger-7e", source.admin).backupKey(backupRequest)))
          .isEqualTo(Status.Code.PERMISSION_DENIED);

      // Offline, the recipient opens the file; the target's job takes it wrapped again.
      byte[] keyBackup =
          JdkKeyWrap.unwrap(
              (RSAPrivateKey) recipient.getPrivate(),
              KeyBackupFile.parseFrom(backup.getBackupFile()).getWrappedKeyBackup().toByteArray());
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub targetCustodian =
          as("token-custodian-41c", target.admin);
      targetJob =
          targetCustodian
              .createImportJob(CreateImportJobRequest.newBuilder().setKeyName("moved").build())
              .getImportJob();
      wrappedBackup = JdkKeyWrap.wrap(JdkKeyWrap.publicKey(targetJob.getPublicKeyPem()), keyBackup);
      RestoreKeyRequest restore =
          RestoreKeyRequest.newBuilder()
              .setKeyName("moved")
              .setImportJobId(targetJob.getImportJobId())
              .setWrappedKeyBackup(ByteString.copyFrom(wrappedBackup))
              .build();
      assertThat(code(() -> as("token-stranger-7e", target.admin).restoreKey(restore)))
          .isEqualTo(Status.Code.PERMISSION_DENIED);
      restored = targetCustodian.restoreKey(restore).getKey();
    }
    assertThat(restored.getVersionsCount()).isEqualTo(2);

    List<JsonObject> sourceCalls = AuditRecords.calls(sourceLog);
    JsonObject createJob = AuditRecords.only(sourceCalls, "CreateImportJob");
    assertThat(createJob.get("key").getAsString()).isEqualTo("moved");
    assertThat(createJob.getAsJsonObject("custody").toString())
        .isEqualTo(
            "{\"import_job_id\":\""
                + sourceJob.getImportJobId()
                + "\",\"wrapping_algorithm\":\"RSA_AES_KEY_WRAP_SHA256_3072\","
                + "\"import_job_expire_time\":\""
                + Instant.ofEpochSecond(
                    sourceJob.getExpireTime().getSeconds(), sourceJob.getExpireTime().getNanos())
                + "\"}");
    JsonObject imported = AuditRecords.only(sourceCalls, "ImportKey");
    assertThat(imported.getAsJsonObject("custody").toString())
        .isEqualTo("{\"import_job_id\":\"" + sourceJob.getImportJobId() + "\",\"versions\":[1]}");

    String fingerprint =
        "sha256:"
            + HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(recipient.getPublic().getEncoded()));
    assertThat(
            KeyBackupFile.parseFrom(backup.getBackupFile()).getRecipientKeySha256().toByteArray())
        .isEqualTo(MessageDigest.getInstance("SHA-256").digest(recipient.getPublic().getEncoded()));
    List<JsonObject> backups = AuditRecords.of(sourceCalls, "BackupKey");
    assertThat(backups).hasSize(2);
    JsonObject backedUp = backups.get(0);
    assertThat(backedUp.get("status").getAsString()).isEqualTo("OK");
    assertThat(backedUp.getAsJsonObject("custody").toString())
        .isEqualTo(
            "{\"wrapping_algorithm\":\"RSA_AES_KEY_WRAP_SHA256_3072\",\"recipient\":\""
                + fingerprint
                + "\",\"versions\":[1,2]}");
    JsonObject refusedBackup = backups.get(1);
    assertThat(refusedBackup.get("reason").getAsString()).isEqualTo("ACCESS_DENIED");
    // What the refused caller asked, nothing of the key.
    assertThat(refusedBackup.getAsJsonObject("custody").toString())
        .isEqualTo(
            "{\"wrapping_algorithm\":\"RSA_AES_KEY_WRAP_SHA256_3072\",\"recipient\":\""
                + fingerprint
                + "\"}");
    assertThat(AuditRecords.only(sourceCalls, "SetKeyExportable").has("custody")).isFalse();
    assertThat(AuditRecords.only(sourceCalls, "RotateKey").has("custody")).isFalse();

    List<JsonObject> targetCalls = AuditRecords.calls(targetLog);
    List<JsonObject> restores = AuditRecords.of(targetCalls, "RestoreKey");
    assertThat(restores).hasSize(2);
    JsonObject refusedRestore = restores.get(0);
    assertThat(refusedRestore.get("key").getAsString()).isEqualTo("moved");
    assertThat(refusedRestore.get("reason").getAsString()).isEqualTo("ACCESS_DENIED");
    assertThat(refusedRestore.getAsJsonObject("custody").toString())
        .isEqualTo("{\"import_job_id\":\"" + targetJob.getImportJobId() + "\"}");
    JsonObject restoredRecord = restores.get(1);
    assertThat(restoredRecord.get("key").getAsString()).isEqualTo("moved");
    assertThat(restoredRecord.get("status").getAsString()).isEqualTo("OK");
    assertThat(restoredRecord.getAsJsonObject("custody").toString())
        .isEqualTo("{\"import_job_id\":\"" + targetJob.getImportJobId() + "\",\"versions\":[1,2]}");

    String trails = Files.readString(sourceLog) + Files.readString(targetLog);
    for (byte[] secret :
        List.of(
            material,
            wrappedMaterial,
            wrappedBackup,
            backup.getBackupFile().toByteArray(),
            recipient.getPublic().getEncoded())) {
      byte[] head = Arrays.copyOf(secret, 24);
      assertThat(trails)
          .doesNotContain(Base64.getEncoder().encodeToString(head))
          .doesNotContain(Base64.getUrlEncoder().encodeToString(head))
          .doesNotContain(HexFormat.of().formatHex(head));
    }
    assertThat(trails).doesNotContain(recipientPem.lines().toList().get(2));
    assertThat(AuditTrailVerifier.verify(sourceKey, sourceLog).problem()).isNull();
    assertThat(AuditTrailVerifier.verify(targetKey, targetLog).problem()).isNull();
  }

  private static AuditConfig config(Path log) {
    return new AuditConfig(log, false, Duration.ofMillis(50), 1 << 20);
  }

  private static Status.Code code(Runnable call) {
    return catchThrowableOfType(StatusRuntimeException.class, call::run).getStatus().getCode();
  }

  private static KeyAdminServiceGrpc.KeyAdminServiceBlockingStub as(
      String token, KeyAdminServiceGrpc.KeyAdminServiceBlockingStub stub) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }
}
