package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.LegacyKeys.MYSQL_HELLO_HEX;
import static io.cipherd.server.api.LegacyKeys.MYSQL_PASSPHRASE;
import static io.cipherd.server.api.LegacyKeys.hex;
import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.grpc.Status;
import java.io.StringReader;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may rewrap legacy data: {@code decrypt} on the legacy key and {@code encrypt} on the target,
 * as any rewrap across keys; {@code reencrypt} alone never moves data out of a legacy key.
 */
class LegacyAccessPolicyTest {
  private static final String POLICY =
      """
      callers:
        migrator:
          token_sha256: %s
          rules:
            - keys: [mysql-*]
              operations: [decrypt]
            - keys: [modern]
              operations: [encrypt, decrypt]
        rotator:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [reencrypt]
        reader:
          token_sha256: %s
          rules:
            - keys: [mysql-*]
              operations: [decrypt]
        keyadmin:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [admin, import]
      """
          .formatted(
              tokenHash("migrator"),
              tokenHash("rotator"),
              tokenHash("reader"),
              tokenHash("keyadmin"));

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    AccessPolicy policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    cipherd = InProcessCipherd.start(dataDir, policy);
    as("keyadmin", cipherd.admin)
        .createKey(CreateKeyRequest.newBuilder().setKeyName("modern").build());
    LegacyKeys.importMysql(as("keyadmin", cipherd.admin), "mysql-users", MYSQL_PASSPHRASE);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void decryptOnTheLegacyKey_andEncryptOnTheTarget_rewrap() {
    String rewrapped = crypto("migrator").reEncrypt(request()).getCiphertext();

    assertThat(
            crypto("migrator")
                .decrypt(DecryptRequest.newBuilder().setCiphertext(rewrapped).build())
                .getPlaintext()
                .toStringUtf8())
        .isEqualTo("HELLO");
  }

  @Test
  void reencryptAlone_orDecryptWithoutEncryptOnTheTarget_isPermissionDenied() {
    Status rotator =
        failsWith(Status.Code.PERMISSION_DENIED, () -> crypto("rotator").reEncrypt(request()));
    Status reader =
        failsWith(Status.Code.PERMISSION_DENIED, () -> crypto("reader").reEncrypt(request()));
    failsWith(Status.Code.UNAUTHENTICATED, () -> cipherd.crypto.reEncrypt(request()));

    assertThat(rotator.getDescription())
        .isEqualTo("caller 'rotator' may not decrypt with key 'mysql-users'");
    assertThat(reader.getDescription())
        .isEqualTo("caller 'reader' may not encrypt with key 'modern'");
  }

  /**
   * Naming the legacy key as the target once took the within-one-key branch, which accepts {@code
   * reencrypt}, and decrypted before finding the target could not encrypt: good padding then
   * answered FAILED_PRECONDITION and bad padding INVALID_ARGUMENT, an oracle that recovered whole
   * plaintexts (adversarial review, finding 1). Now it is refused before anything is decrypted.
   */
  @Test
  void legacyKeyAsItsOwnTarget_isRefusedAlike_forGoodAndBadPadding() {
    String bad = MYSQL_HELLO_HEX.substring(0, 30) + "00";
    for (String caller : new String[] {"rotator", "migrator"}) {
      Status good =
          failsWith(
              Status.Code.INVALID_ARGUMENT,
              () ->
                  crypto(caller)
                      .reEncrypt(
                          ReEncryptRequest.newBuilder()
                              .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX))
                              .setKeyName("mysql-users")
                              .build()));
      Status tampered =
          failsWith(
              Status.Code.INVALID_ARGUMENT,
              () ->
                  crypto(caller)
                      .reEncrypt(
                          ReEncryptRequest.newBuilder()
                              .setLegacy(hex("mysql-users", bad))
                              .setKeyName("mysql-users")
                              .build()));
      assertThat(tampered.getDescription()).isEqualTo(good.getDescription());
    }
  }

  @Test
  void batchItems_areCheckedOneByOne() {
    ReEncryptBatchRequest batch =
        ReEncryptBatchRequest.newBuilder()
            .setKeyName("modern")
            .addItems(
                ReEncryptBatchItem.newBuilder()
                    .setReference("ok")
                    .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX)))
            .addItems(
                ReEncryptBatchItem.newBuilder()
                    .setReference("denied")
                    .setLegacy(hex("other", MYSQL_HELLO_HEX)))
            .build();

    var results = crypto("migrator").reEncryptBatch(batch).getResultsList();

    assertThat(results.get(0).hasError()).isFalse();
    assertThat(results.get(1).getError().getCode())
        .isEqualTo(Status.Code.PERMISSION_DENIED.value());
  }

  private static ReEncryptRequest request() {
    return ReEncryptRequest.newBuilder()
        .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX))
        .setKeyName("modern")
        .build();
  }

  private CryptoServiceGrpc.CryptoServiceBlockingStub crypto(String caller) {
    return as(caller, cipherd.crypto);
  }
}
