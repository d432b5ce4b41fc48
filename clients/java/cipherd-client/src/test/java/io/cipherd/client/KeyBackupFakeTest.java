package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.BackupKeyRequest;
import io.cipherd.api.v1.BackupKeyResponse;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateImportJobResponse;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CreateKeyResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyBackup;
import io.cipherd.api.v1.KeyVersionMaterial;
import io.cipherd.api.v1.RestoreKeyRequest;
import io.cipherd.api.v1.RestoreKeyResponse;
import io.cipherd.api.v1.SetKeyExportableRequest;
import io.cipherd.api.v1.SetKeyExportableResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.spec.MGF1ParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Key backup and restore against an in-process fake KeyAdminService that backs up as the server
 * does (a KeyBackupFile wrapped for the recipient with RSA-OAEP-SHA-256 and RFC 5649) and unwraps
 * what RestoreKey gets with its job's key, so the test sees what the client sent; the real server's
 * round trip is in cipherctl's tests and docs/operating.md.
 */
class KeyBackupFakeTest {
  private static final byte[] MATERIAL = filled(32, 0x5a);
  private static final KeyPair RECIPIENT = rsa(3072);
  private static final KeyPair STRANGER = rsa(3072);
  private static final KeyPair JOB = rsa(2048);

  private volatile boolean exportable;
  private final List<String> jobs = new CopyOnWriteArrayList<>();
  private final List<String> restoredNames = new CopyOnWriteArrayList<>();
  private volatile KeyBackup restored;
  private volatile CreateKeyRequest created;
  private Server server;
  private CipherdClient client;

  @BeforeEach
  void start() throws Exception {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(new FakeAdmin())
            .build()
            .start();
    client = CipherdClient.builder("127.0.0.1:" + server.getPort()).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void aKeyNotExportableIsRefused_onceSetItBacksUpAndRestoresThroughAnImportJob() {
    assertThrows(
        KeyNotExportableException.class, () -> client.keys().backup("orders", pem(RECIPIENT)));
    assertTrue(client.keys().setExportable("orders").exportable());
    KeyBackupFile backup = client.keys().backup("orders", pem(RECIPIENT));
    assertEquals("orders", backup.key().name());
    assertFalse(contains(backup.file(), MATERIAL), "the backup file holds the material");

    Key key = client.keys().restoreBackup(backup.file(), privatePem(RECIPIENT));
    assertEquals(KeyVersionState.DESTROYED, key.version(1).orElseThrow().state());
    assertTrue(key.exportable());
    assertEquals(List.of("orders"), jobs);
    assertEquals(List.of("orders"), restoredNames);
    assertArrayEquals(MATERIAL, restored.getMaterials(0).getKeyMaterial().toByteArray());
    assertArrayEquals(sha256(RECIPIENT), restored.getRecipientKeySha256().toByteArray());
  }

  @Test
  void createSendsExportable() {
    Key key = client.keys().create("k", Mode.GCM, 0, false, KeyPolicy.DEFAULT, true);
    assertTrue(created.getExportable());
    assertTrue(key.exportable());
  }

  @Test
  void openRefusesAnotherRecipientATamperedFileAndAForgedHeader() {
    byte[] file = backupFileFor(RECIPIENT);
    String identity = privatePem(RECIPIENT);
    assertRefused(file, privatePem(STRANGER), "made for another recipient key");
    assertRefused(edit(file, f -> flip(f, -3)), identity, "does not unwrap");
    assertRefused(edit(file, f -> flip(f, 5)), identity, "does not unwrap");
    assertRefused(edit(file, f -> f.setKeyName("payroll")), identity, "does not match");
    assertRefused(
        edit(file, f -> f.setBackupTime(Timestamp.newBuilder().setSeconds(1))),
        identity,
        "does not match");
    assertRefused(new byte[] {1, 2, 3}, identity, "format 1");
  }

  @Test
  void openThenCloseZeroesTheBackup() {
    OpenedKeyBackup opened;
    try (OpenedKeyBackup o =
        OpenedKeyBackup.open(backupFileFor(RECIPIENT), privatePem(RECIPIENT))) {
      opened = o;
      assertEquals("orders", o.key().name());
      assertTrue(contains(o.keyBackup(), MATERIAL));
    }
    assertArrayEquals(new byte[opened.keyBackup().length], opened.keyBackup());
  }

  private static void assertRefused(byte[] file, String identity, String says) {
    var e =
        assertThrows(
            KeyBackupUnopenableException.class, () -> OpenedKeyBackup.open(file, identity));
    assertTrue(e.getMessage().contains(says), e.getMessage());
  }

  private static io.cipherd.api.v1.KeyBackupFile.Builder flip(
      io.cipherd.api.v1.KeyBackupFile.Builder file, int at) {
    byte[] wrapped = file.getWrappedKeyBackup().toByteArray();
    wrapped[at < 0 ? wrapped.length + at : at] ^= 1;
    return file.setWrappedKeyBackup(ByteString.copyFrom(wrapped));
  }

  private static byte[] edit(
      byte[] file, UnaryOperator<io.cipherd.api.v1.KeyBackupFile.Builder> change) {
    try {
      return change
          .apply(io.cipherd.api.v1.KeyBackupFile.parseFrom(file).toBuilder())
          .build()
          .toByteArray();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static io.cipherd.api.v1.Key backedUpKey() {
    return io.cipherd.api.v1.Key.newBuilder()
        .setKeyName("orders")
        .setCurrentVersion(2)
        .setExportable(true)
        .addVersions(
            io.cipherd.api.v1.KeyVersion.newBuilder()
                .setVersion(1)
                .setState(io.cipherd.api.v1.KeyVersionState.KEY_VERSION_STATE_DESTROYED))
        .addVersions(
            io.cipherd.api.v1.KeyVersion.newBuilder()
                .setVersion(2)
                .setState(io.cipherd.api.v1.KeyVersionState.KEY_VERSION_STATE_ENABLED))
        .build();
  }

  /** A backup file of backedUpKey for the recipient, as the server makes one. */
  private static byte[] backupFileFor(KeyPair recipient) {
    ByteString sha = ByteString.copyFrom(sha256(recipient));
    Timestamp at = Timestamp.newBuilder().setSeconds(1_795_600_000L).build();
    byte[] inner =
        KeyBackup.newBuilder()
            .setKey(backedUpKey())
            .addMaterials(
                KeyVersionMaterial.newBuilder()
                    .setVersion(2)
                    .setKeyMaterial(ByteString.copyFrom(MATERIAL)))
            .setRecipientKeySha256(sha)
            .setBackupTime(at)
            .build()
            .toByteArray();
    return io.cipherd.api.v1.KeyBackupFile.newBuilder()
        .setFormat(1)
        .setKeyName("orders")
        .setRecipientKeySha256(sha)
        .setBackupTime(at)
        .setWrappedKeyBackup(ByteString.copyFrom(KeyWrapping.wrap(pem(recipient), inner)))
        .build()
        .toByteArray();
  }

  private final class FakeAdmin extends KeyAdminServiceGrpc.KeyAdminServiceImplBase {
    @Override
    public void createKey(CreateKeyRequest request, StreamObserver<CreateKeyResponse> out) {
      created = request;
      out.onNext(
          CreateKeyResponse.newBuilder()
              .setKey(
                  io.cipherd.api.v1.Key.newBuilder()
                      .setKeyName(request.getKeyName())
                      .setExportable(request.getExportable()))
              .build());
      out.onCompleted();
    }

    @Override
    public void setKeyExportable(
        SetKeyExportableRequest request, StreamObserver<SetKeyExportableResponse> out) {
      exportable = true;
      out.onNext(SetKeyExportableResponse.newBuilder().setKey(backedUpKey()).build());
      out.onCompleted();
    }

    @Override
    public void backupKey(BackupKeyRequest request, StreamObserver<BackupKeyResponse> out) {
      if (!exportable) {
        out.onError(
            StatusProto.toStatusRuntimeException(
                com.google.rpc.Status.newBuilder()
                    .setCode(io.grpc.Status.Code.FAILED_PRECONDITION.value())
                    .setMessage("key 'orders' is not exportable")
                    .addDetails(
                        Any.pack(
                            ErrorInfo.newBuilder()
                                .setDomain(Errors.DOMAIN)
                                .setReason("KEY_NOT_EXPORTABLE")
                                .putMetadata("key", "orders")
                                .build()))
                    .build()));
        return;
      }
      out.onNext(
          BackupKeyResponse.newBuilder()
              .setBackupFile(ByteString.copyFrom(backupFileFor(RECIPIENT)))
              .setKey(backedUpKey())
              .build());
      out.onCompleted();
    }

    @Override
    public void createImportJob(
        CreateImportJobRequest request, StreamObserver<CreateImportJobResponse> out) {
      jobs.add(request.getKeyName());
      out.onNext(
          CreateImportJobResponse.newBuilder()
              .setImportJob(
                  io.cipherd.api.v1.ImportJob.newBuilder()
                      .setImportJobId("job-1")
                      .setKeyName(request.getKeyName())
                      .setPublicKeyPem(pem(JOB))
                      .setExpireTime(Timestamp.newBuilder().setSeconds(4_000_000_000L)))
              .build());
      out.onCompleted();
    }

    @Override
    public void restoreKey(RestoreKeyRequest request, StreamObserver<RestoreKeyResponse> out) {
      restoredNames.add(request.getKeyName());
      try {
        byte[] blob = request.getWrappedKeyBackup().toByteArray();
        Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
        rsa.init(
            Cipher.DECRYPT_MODE,
            JOB.getPrivate(),
            new OAEPParameterSpec(
                "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
        byte[] ephemeral = rsa.doFinal(blob, 0, 256);
        Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
        kwp.init(Cipher.DECRYPT_MODE, new SecretKeySpec(ephemeral, "AES"));
        restored = KeyBackup.parseFrom(kwp.doFinal(blob, 256, blob.length - 256));
      } catch (Exception e) {
        out.onError(io.grpc.Status.INVALID_ARGUMENT.withDescription("no unwrap").asException());
        return;
      }
      out.onNext(RestoreKeyResponse.newBuilder().setKey(restored.getKey()).build());
      out.onCompleted();
    }
  }

  private static KeyPair rsa(int bits) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(bits);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  private static String pem(KeyPair pair) {
    return "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(pair.getPublic().getEncoded())
        + "\n-----END PUBLIC KEY-----\n";
  }

  private static String privatePem(KeyPair pair) {
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  private static byte[] sha256(KeyPair pair) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(pair.getPublic().getEncoded());
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] filled(int length, int value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return true;
      }
    }
    return false;
  }
}
