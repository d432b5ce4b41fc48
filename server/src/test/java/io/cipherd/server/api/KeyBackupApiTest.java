package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DisableKeyRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportWrappingAlgorithm;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyBackup;
import io.cipherd.api.v1.KeyBackupFile;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.KeyState;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.LegacyIv;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.SetKeyExportableRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.server.crypto.keywrap.JdkKeyWrap;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.VersionLifecycle;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BackupKey and RestoreKey between two servers on their own PKCS#12 stores: a key of each mode
 * family (gcm, siv, ff1, a legacy version with a fixed IV) backed up on one, opened offline by the
 * recipient with the JDK's ciphers ({@link OfflineRestore}), restored on the other through an
 * import job, with its version numbers, states, destruction schedules, policy, state and exportable
 * flag, and its old data decrypting there; and the refusals: a key that is not exportable, a
 * recipient of the wrong size, a restore over an existing key, a tampered blob, a job made for
 * another key.
 */
class KeyBackupApiTest {
  private static final AtomicInteger NEXT_KEY = new AtomicInteger();

  @TempDir static Path sourceDir;
  @TempDir static Path targetDir;
  private static InProcessCipherd source;
  private static InProcessCipherd target;
  private static OfflineRestore recipient;

  @BeforeAll
  static void start() throws Exception {
    source = InProcessCipherd.start(sourceDir);
    target = InProcessCipherd.start(targetDir, builder -> builder.allowPlaintextKeyImport(false));
    recipient = OfflineRestore.withNewKey(3072);
    target.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("modern").build());
  }

  @AfterAll
  static void stop() throws Exception {
    if (source != null) {
      source.close();
    }
    if (target != null) {
      target.close();
    }
  }

  @Test
  void gcmKey_keepsVersionsStatesSchedulesAndPolicy_andItsCiphertextsDecryptAfterRestore()
      throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    List<String> ciphertexts = new ArrayList<>();
    for (int version = 1; version <= 3; version++) {
      if (version > 1) {
        source.rotate(name);
      }
      ciphertexts.add(source.encrypt(name, "row " + version, "tenant=" + version));
    }
    source.admin.scheduleKeyVersionDestruction(
        ScheduleKeyVersionDestructionRequest.newBuilder().setKeyName(name).addVersions(1).build());
    source.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName(name)
            .setPolicy(
                KeyPolicy.newBuilder().setMinEncryptionVersion(2).setMaxEncryptionsPerVersion(500))
            .build());
    Key before = describe(source, name);

    KeyBackupFile file = recipient.backup(source.admin, name);
    Key restored = recipient.restore(target.admin, file).getKey();

    assertThat(file.getFormat()).isEqualTo(1);
    assertThat(file.getKeyName()).isEqualTo(name);
    assertThat(file.getWrappingAlgorithm())
        .isEqualTo(ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072);
    assertThat(file.getRecipientKeySha256().toByteArray())
        .isEqualTo(
            MessageDigest.getInstance("SHA-256")
                .digest(recipient.recipient.getPublic().getEncoded()));
    assertThat(withoutUsage(restored)).isEqualTo(withoutUsage(before));
    assertThat(restored.getExportable()).isTrue();
    assertThat(restored.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED);
    assertThat(restored.getVersions(0).getDestroyTime())
        .isEqualTo(before.getVersions(0).getDestroyTime());
    for (int version = 2; version <= 3; version++) {
      assertThat(target.decrypt(ciphertexts.get(version - 1), "tenant=" + version))
          .as("version %d's ciphertext, on the other server", version)
          .isEqualTo("row " + version);
    }
    assertThat(target.decrypt(target.encrypt(name, "new row"))).isEqualTo("new row");
  }

  @Test
  void destroyedVersion_staysDestroyed_withoutBytes_andTheBackupHoldsNone() throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    source.rotate(name);
    String second = source.encrypt(name, "kept");
    KeyMetadata now = source.store.readKey(name).orElseThrow();
    Instant at = Instant.parse("2026-01-02T03:04:05Z");
    source.store.updateLifecycle(
        now,
        now.withVersionsReplaced(
            List.of(now.version(1).withLifecycle(VersionLifecycle.destroyed(at)))));
    source.services.forgetKeys();

    KeyBackupFile file = recipient.backup(source.admin, name);
    KeyBackup backup = KeyBackup.parseFrom(recipient.open(file));
    Key restored = recipient.restore(target.admin, file).getKey();

    assertThat(backup.getMaterialsList()).extracting("version").containsExactly(2);
    assertThat(restored.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTROYED);
    assertThat(restored.getVersions(0).getDestroyTime().getSeconds())
        .isEqualTo(at.getEpochSecond());
    assertThat(target.decrypt(second)).isEqualTo("kept");
  }

  @Test
  void sivAndFf1Keys_roundTrip_andDecryptTheirData() throws Exception {
    String siv = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName(siv)
            .setMode(Mode.MODE_SIV)
            .setExportable(true)
            .build());
    String sivCiphertext = source.encrypt(siv, "deterministic");
    String ff1 = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName(ff1)
            .setMode(Mode.MODE_FF1)
            .setFpeFormat(FpeFormat.newBuilder().setTemplate(FpeTemplate.FPE_TEMPLATE_DIGITS))
            .build());
    source.admin.setKeyExportable(SetKeyExportableRequest.newBuilder().setKeyName(ff1).build());
    var sourceFpe = FormatPreservingServiceGrpc.newBlockingStub(source.channel);
    var ff1Value =
        sourceFpe.encryptFormatted(
            EncryptFormattedRequest.newBuilder().setKeyName(ff1).setValue("0123456789").build());

    for (String name : List.of(siv, ff1)) {
      Key before = describe(source, name);
      assertThat(
              withoutUsage(
                  recipient.restore(target.admin, recipient.backup(source.admin, name)).getKey()))
          .isEqualTo(withoutUsage(before));
    }

    assertThat(target.decrypt(sivCiphertext)).isEqualTo("deterministic");
    assertThat(target.encrypt(siv, "deterministic")).isEqualTo(sivCiphertext);
    assertThat(
            FormatPreservingServiceGrpc.newBlockingStub(target.channel)
                .decryptFormatted(
                    DecryptFormattedRequest.newBuilder()
                        .setKeyName(ff1)
                        .setValue(ff1Value.getValue())
                        .setKeyVersion(ff1Value.getKeyVersion())
                        .build())
                .getValue())
        .isEqualTo("0123456789");
  }

  @Test
  void legacyVersionWithAFixedIv_roundTrips_andItsCiphertextRewraps() throws Exception {
    String name = nextKey();
    byte[] key = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    byte[] iv = "fixed-iv-16bytes".getBytes(StandardCharsets.US_ASCII);
    source.admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName(name)
            .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_AES_CBC)
            .setLegacyIv(LegacyIv.LEGACY_IV_FIXED)
            .setLegacyFixedIv(ByteString.copyFrom(iv))
            .setKeyMaterial(ByteString.copyFrom(key))
            .build());
    source.admin.setKeyExportable(SetKeyExportableRequest.newBuilder().setKeyName(name).build());
    Cipher cbc = Cipher.getInstance("AES/CBC/PKCS5Padding");
    cbc.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    byte[] legacy = cbc.doFinal("made before cipherd".getBytes(StandardCharsets.UTF_8));
    Key before = describe(source, name);

    KeyBackupFile file = recipient.backup(source.admin, name);
    assertThat(KeyBackup.parseFrom(recipient.open(file)).getMaterials(0).getLegacyFixedIv())
        .isEqualTo(ByteString.copyFrom(iv));
    assertThat(withoutUsage(recipient.restore(target.admin, file).getKey()))
        .isEqualTo(withoutUsage(before));

    String rewrapped =
        target
            .crypto
            .reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setLegacy(
                        LegacyCiphertext.newBuilder()
                            .setKeyName(name)
                            .setRaw(ByteString.copyFrom(legacy)))
                    .setKeyName("modern")
                    .build())
            .getCiphertext();
    assertThat(target.decrypt(rewrapped)).isEqualTo("made before cipherd");
  }

  @Test
  void exportableFlag_survivesEveryOtherWrite_andSetKeyExportableIsIdempotent() {
    String name = nextKey();
    source.admin.createKey(CreateKeyRequest.newBuilder().setKeyName(name).build());
    assertThat(describe(source, name).getExportable()).isFalse();
    for (int i = 0; i < 2; i++) {
      assertThat(
              source
                  .admin
                  .setKeyExportable(SetKeyExportableRequest.newBuilder().setKeyName(name).build())
                  .getKey()
                  .getExportable())
          .isTrue();
    }
    source.rotate(name);
    source.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName(name)
            .setPolicy(KeyPolicy.getDefaultInstance())
            .build());
    source.admin.disableKey(DisableKeyRequest.newBuilder().setKeyName(name).build());

    Key after = describe(source, name);
    assertThat(after.getExportable()).isTrue();
    assertThat(after.getState()).isEqualTo(KeyState.KEY_STATE_DISABLED);
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            source.admin.setKeyExportable(
                SetKeyExportableRequest.newBuilder().setKeyName("no-such-key").build()));
  }

  @Test
  void keyNotExportable_isRefused_andNothingIsWrittenOut() {
    String name = nextKey();
    source.admin.createKey(CreateKeyRequest.newBuilder().setKeyName(name).build());
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        "KEY_NOT_EXPORTABLE",
        () ->
            source.admin.backupKey(
                BackupKeyRequest.newBuilder()
                    .setKeyName(name)
                    .setRecipientPublicKeyPem(recipient.publicKeyPem())
                    .build()));
  }

  @Test
  void recipientOfAnotherSize_orNotAKey_isRefused_sayingWhatItGot() throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    Status small =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                source.admin.backupKey(
                    BackupKeyRequest.newBuilder()
                        .setKeyName(name)
                        .setRecipientPublicKeyPem(OfflineRestore.withNewKey(2048).publicKeyPem())
                        .build()));
    Status garbage =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                source.admin.backupKey(
                    BackupKeyRequest.newBuilder()
                        .setKeyName(name)
                        .setRecipientPublicKeyPem("not a key")
                        .build()));
    assertThat(small.getDescription()).contains("3072 or 4096").contains("got 2048 bits");
    assertThat(garbage.getDescription()).contains("PUBLIC KEY");
  }

  @Test
  void restore_neverOverwritesAnExistingKey() throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    target.admin.createKey(CreateKeyRequest.newBuilder().setKeyName(name).build());
    String existing = target.encrypt(name, "the target's own");
    Key before = describe(target, name);

    KeyBackupFile file = recipient.backup(source.admin, name);
    failsWith(
        Status.Code.ALREADY_EXISTS,
        "KEY_ALREADY_EXISTS",
        () -> recipient.restore(target.admin, file));

    assertThat(withoutUsage(describe(target, name))).isEqualTo(withoutUsage(before));
    assertThat(target.decrypt(existing)).isEqualTo("the target's own");
  }

  @Test
  void tamperedBlob_isRefusedWithOneMessage_andTheJobIsUsedUp() throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    byte[] keyBackup = recipient.open(recipient.backup(source.admin, name));
    List<String> messages = new ArrayList<>();
    for (int position : new int[] {0, 200, 384, 400}) {
      ImportJob job = job(name);
      byte[] blob = JdkKeyWrap.wrap(JdkKeyWrap.publicKey(job.getPublicKeyPem()), keyBackup);
      blob[Math.min(position, blob.length - 1)] ^= 1;
      RestoreKeyRequest request =
          RestoreKeyRequest.newBuilder()
              .setKeyName(name)
              .setImportJobId(job.getImportJobId())
              .setWrappedKeyBackup(ByteString.copyFrom(blob))
              .build();
      messages.add(
          failsWith(Status.Code.INVALID_ARGUMENT, () -> target.admin.restoreKey(request))
              .getDescription());
      failsWith(
          Status.Code.FAILED_PRECONDITION,
          "IMPORT_JOB_UNUSABLE",
          () -> target.admin.restoreKey(request));
    }
    // Well wrapped, but not a KeyBackup: the same answer.
    messages.add(
        failsWith(
                Status.Code.INVALID_ARGUMENT,
                () ->
                    OfflineRestore.restore(
                        target.admin, name, "not a backup".getBytes(StandardCharsets.UTF_8)))
            .getDescription());
    assertThat(messages).containsOnly("the backup does not unwrap");
    failsWith(Status.Code.NOT_FOUND, () -> describe(target, name));
  }

  @Test
  void jobMadeForAnotherKey_isRefused_andNoKeyIsMade() throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    byte[] keyBackup = recipient.open(recipient.backup(source.admin, name));

    // Named as the job's key, the backup is of another: the job is used up.
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        "IMPORT_JOB_UNUSABLE",
        () -> OfflineRestore.restore(target.admin, "another-" + name, keyBackup));
    failsWith(Status.Code.NOT_FOUND, () -> describe(target, name));
    failsWith(Status.Code.NOT_FOUND, () -> describe(target, "another-" + name));

    // Named as the backup's key, the job is for another: refused before the job is used.
    String third = "third-" + name;
    ImportJob other = job(third);
    Status mismatch =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> target.admin.restoreKey(restoreRequest(name, other, keyBackup)));
    assertThat(mismatch.getDescription()).contains("another key than key_name");
    failsWith(Status.Code.NOT_FOUND, () -> describe(target, name));
    // The job still opens the one import it was made for.
    byte[] material = new byte[32];
    material[0] = 7;
    Key imported =
        target
            .admin
            .importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName(third)
                    .setImportJobId(other.getImportJobId())
                    .setWrappedKeyMaterial(
                        ByteString.copyFrom(
                            JdkKeyWrap.wrap(
                                JdkKeyWrap.publicKey(other.getPublicKeyPem()), material)))
                    .build())
            .getKey();
    assertThat(imported.getCurrentVersion()).isEqualTo(1);
  }

  @Test
  void restore_withoutKeyName_isInvalidArgument_andTheJobIsLeftUnused() throws Exception {
    String name = nextKey();
    source.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName(name).setExportable(true).build());
    byte[] keyBackup = recipient.open(recipient.backup(source.admin, name));
    ImportJob job = job(name);

    Status missing =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> target.admin.restoreKey(restoreRequest("", job, keyBackup)));
    assertThat(missing.getDescription()).startsWith("key_name is required");

    assertThat(target.admin.restoreKey(restoreRequest(name, job, keyBackup)).getKey().getKeyName())
        .isEqualTo(name);
  }

  private static RestoreKeyRequest restoreRequest(String name, ImportJob job, byte[] keyBackup)
      throws Exception {
    return RestoreKeyRequest.newBuilder()
        .setKeyName(name)
        .setImportJobId(job.getImportJobId())
        .setWrappedKeyBackup(
            ByteString.copyFrom(
                JdkKeyWrap.wrap(JdkKeyWrap.publicKey(job.getPublicKeyPem()), keyBackup)))
        .build();
  }

  private static ImportJob job(String name) {
    return target
        .admin
        .createImportJob(CreateImportJobRequest.newBuilder().setKeyName(name).build())
        .getImportJob();
  }

  private static Key describe(InProcessCipherd server, String name) {
    return server.admin.getKey(GetKeyRequest.newBuilder().setKeyName(name).build()).getKey();
  }

  /** The key as backed up: usage counts are per deployment and are not carried. */
  private static Key withoutUsage(Key key) {
    Key.Builder builder = key.toBuilder();
    for (KeyVersion.Builder version : builder.getVersionsBuilderList()) {
      version.clearUsage();
    }
    return builder.build();
  }

  private static String nextKey() {
    return "backup-" + NEXT_KEY.incrementAndGet();
  }
}
