package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.LegacyKeys.MYSQL_HELLO_HEX;
import static io.cipherd.server.api.LegacyKeys.MYSQL_PASSPHRASE;
import static io.cipherd.server.api.LegacyKeys.hex;
import static io.cipherd.server.api.LegacyKeys.importKey;
import static io.cipherd.server.api.LegacyKeys.importMysql;
import static io.cipherd.server.api.LegacyKeys.raw;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.LegacyIv;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Legacy keys through the gRPC services in-process: importing them, rewrapping their data into a
 * cipherd key in every ReEncrypt form, and every refusal with its status. The ciphertexts of each
 * cipher made by OpenSSL are in {@link LegacyOpensslTest}.
 */
class LegacyReEncryptTest {
  private static final ByteString CONTEXT = ByteString.copyFromUtf8("users.name");
  private static final byte[] MYSQL_HELLO = HexFormat.of().parseHex(MYSQL_HELLO_HEX);

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir);
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("modern").build());
    importMysql(cipherd.admin, "mysql-users", MYSQL_PASSPHRASE);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void mysqlKnownAnswer_importedByPassphrase_rewrapsIntoAGcmKey_andDecryptsToHello() {
    ReEncryptResponse rewrapped = rewrap(hex("mysql-users", MYSQL_HELLO_HEX), "modern", CONTEXT);

    assertThat(rewrapped.getCiphertext()).startsWith("<modern/v1:gcm>");
    assertThat(rewrapped.getKeyVersion()).isEqualTo(1);
    assertThat(rewrapped.getSourceKeyVersion()).isEqualTo(1);
    assertThat(decrypt(rewrapped.getCiphertext(), CONTEXT).toStringUtf8()).isEqualTo("HELLO");
    failsWith(
        Status.Code.INVALID_ARGUMENT, () -> decrypt(rewrapped.getCiphertext(), ByteString.EMPTY));
  }

  @Test
  void legacyData_asRawBytes_lowercaseHex_orBase64PaddedOrNot_allRewrap() {
    String base64 = Base64.getEncoder().encodeToString(MYSQL_HELLO);
    List<LegacyCiphertext> forms =
        List.of(
            raw("mysql-users", MYSQL_HELLO, new byte[0]),
            hex("mysql-users", MYSQL_HELLO_HEX.toLowerCase()),
            LegacyCiphertext.newBuilder().setKeyName("mysql-users").setBase64(base64).build(),
            LegacyCiphertext.newBuilder()
                .setKeyName("mysql-users")
                .setBase64(base64.replace("=", ""))
                .build());

    for (LegacyCiphertext form : forms) {
      assertThat(
              decrypt(rewrap(form, "modern", ByteString.EMPTY).getCiphertext(), ByteString.EMPTY)
                  .toStringUtf8())
          .as("%s", form.getDataCase())
          .isEqualTo("HELLO");
    }
  }

  @Test
  void getKey_showsEachLegacyVersionsCipherAndIv_withNoMode() {
    importKey(
        cipherd.admin,
        "old-cbc",
        LegacyCipher.LEGACY_CIPHER_AES_CBC,
        LegacyIv.LEGACY_IV_FIXED,
        new byte[16],
        new byte[32]);
    importKey(
        cipherd.admin,
        "old-cbc",
        LegacyCipher.LEGACY_CIPHER_DESEDE_CBC,
        LegacyIv.LEGACY_IV_UNSPECIFIED,
        new byte[0],
        HexFormat.of().parseHex("0123456789abcdeffedcba9876543210"));

    List<KeyVersion> versions =
        cipherd
            .admin
            .getKey(GetKeyRequest.newBuilder().setKeyName("old-cbc").build())
            .getKey()
            .getVersionsList();
    KeyVersion mysql =
        cipherd
            .admin
            .getKey(GetKeyRequest.newBuilder().setKeyName("mysql-users").build())
            .getKey()
            .getVersions(0);

    assertThat(versions)
        .hasSize(2)
        .allSatisfy(
            v -> {
              assertThat(v.getMode()).isEqualTo(Mode.MODE_UNSPECIFIED);
              assertThat(v.getImported()).isTrue();
            });
    assertThat(versions.get(0).getLegacyCipher()).isEqualTo(LegacyCipher.LEGACY_CIPHER_AES_CBC);
    assertThat(versions.get(0).getLegacyIv()).isEqualTo(LegacyIv.LEGACY_IV_FIXED);
    assertThat(versions.get(0).getKeySizeBits()).isEqualTo(256);
    assertThat(versions.get(1).getLegacyCipher()).isEqualTo(LegacyCipher.LEGACY_CIPHER_DESEDE_CBC);
    assertThat(versions.get(1).getLegacyIv())
        .as("unspecified means prepended")
        .isEqualTo(LegacyIv.LEGACY_IV_PREPENDED);
    assertThat(versions.get(1).getKeySizeBits())
        .as("two-key 3DES is stored as K1 K2 K1")
        .isEqualTo(192);
    assertThat(mysql.getLegacyCipher()).isEqualTo(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB);
    assertThat(mysql.getLegacyIv()).as("ECB takes no IV").isEqualTo(LegacyIv.LEGACY_IV_UNSPECIFIED);
    assertThat(mysql.getKeySizeBits()).isEqualTo(128);
  }

  @Test
  void legacyKey_neverEncrypts_whateverItsPolicySays() {
    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName("mysql-users")
            .setPolicy(KeyPolicy.newBuilder().setAllowEcbEncryption(true))
            .build());
    ByteString hello = ByteString.copyFromUtf8("HELLO");

    Status encrypt =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.crypto.encrypt(
                    EncryptRequest.newBuilder()
                        .setKeyName("mysql-users")
                        .setPlaintext(hello)
                        .build()));
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("mysql-users")
                    .setKeyVersion(1)
                    .setPlaintext(hello)
                    .build()));
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.generateDataKey(
                GenerateDataKeyRequest.newBuilder().setKeyName("mysql-users").build()));
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.computeIndex(
                ComputeIndexRequest.newBuilder()
                    .setKeyName("mysql-users")
                    .setValue(hello)
                    .build()));
    // Into itself is refused before decrypting, as an invalid request (no padding oracle: finding
    // 1).
    Status intoItself =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> rewrap(hex("mysql-users", MYSQL_HELLO_HEX), "mysql-users", ByteString.EMPTY));
    assertThat(intoItself.getDescription()).contains("not the legacy key itself");
    String modern =
        cipherd
            .crypto
            .encrypt(EncryptRequest.newBuilder().setKeyName("modern").setPlaintext(hello).build())
            .getCiphertext();
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(modern)
                    .setKeyName("mysql-users")
                    .build()));
    int batchError =
        cipherd
            .crypto
            .encryptBatch(
                EncryptBatchRequest.newBuilder()
                    .setKeyName("mysql-users")
                    .addItems(EncryptBatchItem.newBuilder().setPlaintext(hello))
                    .build())
            .getResults(0)
            .getError()
            .getCode();

    assertThat(encrypt.getDescription())
        .contains("'mysql-users' is a legacy key")
        .contains("never encrypts");
    assertThat(batchError).isEqualTo(Status.Code.FAILED_PRECONDITION.value());
  }

  @Test
  void cipherdCiphertext_namingALegacyKey_failsAsDecryptionFailed() {
    Status status =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                decrypt(
                    "<mysql-users/v1:ecb>" + Base64.getEncoder().encodeToString(MYSQL_HELLO),
                    ByteString.EMPTY));

    assertThat(status.getDescription()).isEqualTo("decryption failed");
  }

  @Test
  void aKeysVersions_areAllOfOneKind_soNoLegacyVersionEverEncrypts() {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("idx").setMode(Mode.MODE_HMAC).build());
    ImportKeyRequest gcm =
        ImportKeyRequest.newBuilder()
            .setKeyName("mysql-users")
            .setKeyMaterial(ByteString.copyFrom(new byte[32]))
            .build();
    ImportKeyRequest legacy =
        ImportKeyRequest.newBuilder()
            .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB)
            .setPassphrase(MYSQL_PASSPHRASE)
            .build();

    Status intoLegacy = failsWith(Status.Code.INVALID_ARGUMENT, () -> cipherd.admin.importKey(gcm));
    Status intoModern =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> cipherd.admin.importKey(legacy.toBuilder().setKeyName("modern").build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> cipherd.admin.importKey(legacy.toBuilder().setKeyName("idx").build()));
    Status rotate =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.admin.rotateKey(
                    RotateKeyRequest.newBuilder().setKeyName("mysql-users").build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.rotateKey(
                RotateKeyRequest.newBuilder()
                    .setKeyName("mysql-users")
                    .setMode(Mode.MODE_GCM)
                    .build()));

    assertThat(intoLegacy.getDescription())
        .contains("'mysql-users' is a legacy key")
        .contains("another key name");
    assertThat(intoModern.getDescription())
        .contains("'modern' is an encryption key")
        .contains("a legacy version");
    assertThat(rotate.getDescription()).contains("legacy key").contains("create another key");
    assertThat(versions("mysql-users")).isEqualTo(1);
    assertThat(versions("modern")).isEqualTo(1);
    assertThat(versions("idx")).isEqualTo(1);
  }

  @Test
  void importKey_refusesWhatDoesNotFitTheCipher_namingTheField() {
    ImportKeyRequest cbc =
        ImportKeyRequest.newBuilder()
            .setKeyName("old")
            .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_AES_CBC)
            .setKeyMaterial(ByteString.copyFrom(new byte[16]))
            .build();
    record Refused(String fragment, ImportKeyRequest request) {}

    for (Refused refused :
        List.of(
            new Refused(
                "mode must be MODE_UNSPECIFIED", cbc.toBuilder().setMode(Mode.MODE_CBC).build()),
            new Refused(
                "key_material for des-cbc must be 8 bytes, got 16",
                cbc.toBuilder().setLegacyCipher(LegacyCipher.LEGACY_CIPHER_DES_CBC).build()),
            new Refused(
                "key_material for mysql-aes-ecb must be 16 bytes, got 32",
                cbc.toBuilder()
                    .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB)
                    .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                    .build()),
            new Refused(
                "key_material for rc4 must be 5 to 256 bytes, got 4",
                cbc.toBuilder()
                    .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_RC4)
                    .setKeyMaterial(ByteString.copyFrom(new byte[4]))
                    .build()),
            new Refused(
                "not both",
                cbc.toBuilder()
                    .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB)
                    .setPassphrase(MYSQL_PASSPHRASE)
                    .build()),
            new Refused(
                "passphrase is only for mysql-aes-ecb",
                cbc.toBuilder().clearKeyMaterial().setPassphrase(MYSQL_PASSPHRASE).build()),
            new Refused(
                "key_material is required for aes-cbc", cbc.toBuilder().clearKeyMaterial().build()),
            new Refused(
                "legacy_fixed_iv is only for",
                cbc.toBuilder().setLegacyFixedIv(ByteString.copyFrom(new byte[16])).build()),
            new Refused(
                "legacy_fixed_iv must be 16 bytes for aes-cbc, got 8",
                cbc.toBuilder()
                    .setLegacyIv(LegacyIv.LEGACY_IV_FIXED)
                    .setLegacyFixedIv(ByteString.copyFrom(new byte[8]))
                    .build()),
            new Refused(
                "legacy_iv must be unspecified for rc4",
                cbc.toBuilder()
                    .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_RC4)
                    .setLegacyIv(LegacyIv.LEGACY_IV_PREPENDED)
                    .build()),
            new Refused(
                "not a known cipherd.v1.LegacyCipher",
                cbc.toBuilder().setLegacyCipherValue(99).build()),
            new Refused(
                "set legacy_cipher too",
                cbc.toBuilder().clearLegacyCipher().setPassphrase(MYSQL_PASSPHRASE).build()),
            new Refused(
                "set legacy_cipher too",
                cbc.toBuilder()
                    .clearLegacyCipher()
                    .setLegacyIv(LegacyIv.LEGACY_IV_SEPARATE)
                    .build()))) {
      Status status =
          failsWith(Status.Code.INVALID_ARGUMENT, () -> cipherd.admin.importKey(refused.request()));
      assertThat(status.getDescription()).as("%s", refused.fragment()).contains(refused.fragment());
    }
    failsWith(
        Status.Code.NOT_FOUND,
        () -> cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("old").build()));
  }

  @Test
  void reEncrypt_refusesMalformedLegacyRequests_withoutEchoingTheirData() {
    record Refused(String fragment, UnaryOperator<ReEncryptRequest.Builder> change) {}
    ReEncryptRequest good =
        ReEncryptRequest.newBuilder()
            .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX))
            .setKeyName("modern")
            .build();

    for (Refused refused :
        List.of(
            new Refused("key_name is required with legacy", r -> r.clearKeyName()),
            new Refused(
                "set ciphertext or legacy, not both", r -> r.setCiphertext("<modern/v1:gcm>AAAA")),
            new Refused(
                "legacy needs its ciphertext in raw, hex or base64",
                r -> r.setLegacy(LegacyCiphertext.newBuilder().setKeyName("mysql-users"))),
            new Refused(
                "legacy.hex is not hexadecimal text",
                r -> r.setLegacy(hex("mysql-users", "FF06A56B4E88C8SECRET"))),
            new Refused(
                "legacy.hex is not hexadecimal text",
                r -> r.setLegacy(hex("mysql-users", "FF06A"))),
            new Refused(
                "legacy.base64 is not standard base64",
                r ->
                    r.setLegacy(
                        LegacyCiphertext.newBuilder()
                            .setKeyName("mysql-users")
                            .setBase64("_wal-SECRET"))),
            new Refused(
                "legacy.key_version must not be negative",
                r ->
                    r.setLegacy(hex("mysql-users", MYSQL_HELLO_HEX).toBuilder().setKeyVersion(-1))),
            new Refused(
                "legacy.iv is only for keys whose IV convention is separate",
                r ->
                    r.setLegacy(
                        hex("mysql-users", MYSQL_HELLO_HEX).toBuilder()
                            .setIv(ByteString.copyFrom(new byte[16])))),
            new Refused(
                "is an encryption key, not a legacy key",
                r -> r.setLegacy(hex("modern", MYSQL_HELLO_HEX)).setKeyName("mysql-users")),
            new Refused(
                "not the legacy key itself", r -> r.setLegacy(hex("modern", MYSQL_HELLO_HEX))))) {
      Status status =
          failsWith(
              Status.Code.INVALID_ARGUMENT,
              () -> cipherd.crypto.reEncrypt(refused.change().apply(good.toBuilder()).build()));
      assertThat(status.getDescription())
          .as("%s", refused.fragment())
          .contains(refused.fragment())
          .doesNotContain("SECRET")
          .doesNotContain(MYSQL_HELLO_HEX);
    }
    failsWith(
        Status.Code.NOT_FOUND,
        () -> rewrap(hex("no-such-key", MYSQL_HELLO_HEX), "modern", ByteString.EMPTY));
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            rewrap(
                hex("mysql-users", MYSQL_HELLO_HEX).toBuilder().setKeyVersion(2).build(),
                "modern",
                ByteString.EMPTY));
    failsWith(
        Status.Code.NOT_FOUND,
        () -> rewrap(hex("mysql-users", MYSQL_HELLO_HEX), "no-such-target", ByteString.EMPTY));
  }

  @Test
  void wrongKey_badPadding_orTruncatedData_failAsDecryptionFailed_andNothingMore() {
    importMysql(cipherd.admin, "mysql-wrong", ByteString.copyFromUtf8("123456789"));
    String flippedLastByte = MYSQL_HELLO_HEX.substring(0, 30) + "8A";

    for (LegacyCiphertext failing :
        List.of(
            hex("mysql-wrong", MYSQL_HELLO_HEX),
            hex("mysql-users", flippedLastByte),
            hex("mysql-users", MYSQL_HELLO_HEX.substring(0, 30)),
            hex("mysql-users", ""))) {
      Status status =
          failsWith(
              Status.Code.INVALID_ARGUMENT, () -> rewrap(failing, "modern", ByteString.EMPTY));
      assertThat(status.getDescription()).isEqualTo("decryption failed");
    }
  }

  @Test
  void keyVersionZero_isTheNewestLegacyVersion_andMinDecryptionVersionApplies() {
    importMysql(cipherd.admin, "mysql-users", ByteString.copyFromUtf8("a later key string"));

    ReEncryptResponse v1 =
        rewrap(
            hex("mysql-users", MYSQL_HELLO_HEX).toBuilder().setKeyVersion(1).build(),
            "modern",
            ByteString.EMPTY);
    Status newest =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> rewrap(hex("mysql-users", MYSQL_HELLO_HEX), "modern", ByteString.EMPTY));
    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName("mysql-users")
            .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(2))
            .build());

    assertThat(v1.getSourceKeyVersion()).isEqualTo(1);
    assertThat(decrypt(v1.getCiphertext(), ByteString.EMPTY).toStringUtf8()).isEqualTo("HELLO");
    assertThat(newest.getDescription()).isEqualTo("decryption failed");
    Status refused =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                rewrap(
                    hex("mysql-users", MYSQL_HELLO_HEX).toBuilder().setKeyVersion(1).build(),
                    "modern",
                    ByteString.EMPTY));
    assertThat(refused.getDescription()).contains("min_decryption_version");
  }

  @Test
  void separateIvConvention_takesEachItemsIv_andRefusesAnItemWithout() throws Exception {
    byte[] key = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
    byte[] iv = HexFormat.of().parseHex("0f0e0d0c0b0a09080706050403020100");
    Cipher cbc = Cipher.getInstance("AES/CBC/PKCS5Padding");
    cbc.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    byte[] body = cbc.doFinal("row 7".getBytes(StandardCharsets.UTF_8));
    importKey(
        cipherd.admin,
        "old-cbc",
        LegacyCipher.LEGACY_CIPHER_AES_CBC,
        LegacyIv.LEGACY_IV_SEPARATE,
        new byte[0],
        key);

    ReEncryptResponse rewrapped = rewrap(raw("old-cbc", body, iv), "modern", CONTEXT);
    Status missing =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> rewrap(raw("old-cbc", body, new byte[0]), "modern", CONTEXT));

    assertThat(decrypt(rewrapped.getCiphertext(), CONTEXT).toStringUtf8()).isEqualTo("row 7");
    assertThat(missing.getDescription()).contains("legacy.iv must be the item's 16-byte IV");
  }

  @Test
  void reEncryptBatch_rewrapsLegacyItemsBesideCipherdOnes_eachFailingAlone() {
    String modern =
        cipherd
            .crypto
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("modern")
                    .setPlaintext(ByteString.copyFromUtf8("new row"))
                    .build())
            .getCiphertext();
    ReEncryptBatchRequest.Builder batch =
        ReEncryptBatchRequest.newBuilder()
            .setKeyName("modern")
            .addItems(
                ReEncryptBatchItem.newBuilder()
                    .setReference("a")
                    .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX))
                    .setContext(CONTEXT))
            .addItems(
                ReEncryptBatchItem.newBuilder()
                    .setReference("b")
                    .setLegacy(hex("mysql-users", "not hex")))
            .addItems(ReEncryptBatchItem.newBuilder().setReference("c").setCiphertext(modern))
            .addItems(
                ReEncryptBatchItem.newBuilder()
                    .setReference("d")
                    .setLegacy(
                        hex("mysql-users", MYSQL_HELLO_HEX.substring(2) + "00").toBuilder()
                            .setKeyVersion(1)));

    List<ReEncryptBatchResult> results =
        cipherd.crypto.reEncryptBatch(batch.build()).getResultsList();
    List<ReEncryptBatchResult> withoutTarget =
        cipherd.crypto.reEncryptBatch(batch.clearKeyName().build()).getResultsList();

    assertThat(results)
        .extracting(ReEncryptBatchResult::getReference)
        .containsExactly("a", "b", "c", "d");
    assertThat(decrypt(results.get(0).getCiphertext(), CONTEXT).toStringUtf8()).isEqualTo("HELLO");
    assertThat(results.get(0).getSourceKeyVersion()).isEqualTo(1);
    assertThat(results.get(1).getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(results.get(1).getError().getMessage()).contains("legacy.hex");
    assertThat(decrypt(results.get(2).getCiphertext(), ByteString.EMPTY).toStringUtf8())
        .isEqualTo("new row");
    assertThat(results.get(3).getError().getMessage()).isEqualTo("decryption failed");
    assertThat(results.get(3).getSourceKeyVersion()).isEqualTo(1);
    assertThat(withoutTarget.get(0).getError().getMessage())
        .startsWith("the batch's key_name is required with legacy");
    assertThat(withoutTarget.get(2).hasError())
        .as("a cipherd item rewraps within its own key")
        .isFalse();
  }

  @Test
  void reEncryptStream_rewrapsLegacyItems_eachWithItsOwnTarget_andABrokenItemFailsAlone()
      throws Exception {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("archive").setMode(Mode.MODE_CHACHA).build());
    StreamRecorder<ReEncryptStreamResponse> recorder = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> requests = cipherd.cryptoAsync.reEncryptStream(recorder);
    for (int i = 0; i < 40; i++) {
      ReEncryptStreamRequest.Builder item =
          ReEncryptStreamRequest.newBuilder()
              .setReference("row-" + i)
              .setKeyName(i % 2 == 0 ? "modern" : "archive")
              .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX));
      if (i == 13) {
        item.setLegacy(hex("mysql-users", "FF06"));
      } else if (i == 21) {
        item.clearKeyName();
      }
      requests.onNext(item.build());
    }
    requests.onCompleted();
    List<ReEncryptStreamResponse> responses = recorder.awaitValues(30);

    assertThat(responses).hasSize(40);
    for (int i = 0; i < 40; i++) {
      ReEncryptBatchResult result = responses.get(i).getResult();
      assertThat(result.getReference()).isEqualTo("row-" + i);
      if (i == 13) {
        assertThat(result.getError().getMessage()).isEqualTo("decryption failed");
      } else if (i == 21) {
        assertThat(result.getError().getMessage()).startsWith("key_name is required with legacy");
      } else {
        assertThat(result.getCiphertext())
            .startsWith(i % 2 == 0 ? "<modern/v1:gcm>" : "<archive/v1:chacha>");
        assertThat(decrypt(result.getCiphertext(), ByteString.EMPTY).toStringUtf8())
            .isEqualTo("HELLO");
      }
    }
  }

  @Test
  void legacyDecrypts_areCountedAsDecryptsAndRewraps_withModeLegacy_inMetricsAndTheVersionsUsage() {
    rewrap(hex("mysql-users", MYSQL_HELLO_HEX), "modern", ByteString.EMPTY);
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            rewrap(
                hex("mysql-users", "00" + MYSQL_HELLO_HEX.substring(2)),
                "modern",
                ByteString.EMPTY));

    var registry = cipherd.services.metrics().registry();
    assertThat(
            registry
                .get("cipherd.crypto.operations")
                .tags("operation", "decrypt", "mode", "legacy", "outcome", "ok")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("cipherd.crypto.operations")
                .tags("operation", "decrypt", "mode", "legacy", "outcome", "decryption_failed")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("cipherd.crypto.bytes")
                .tags("operation", "decrypt", "mode", "legacy")
                .counter()
                .count())
        .isEqualTo("HELLO".length());
    assertThat(
            registry
                .get("cipherd.crypto.operations")
                .tags("operation", "encrypt", "mode", "gcm", "outcome", "ok")
                .counter()
                .count())
        .isEqualTo(1);
    var usage =
        cipherd
            .admin
            .getKey(GetKeyRequest.newBuilder().setKeyName("mysql-users").build())
            .getKey()
            .getVersions(0)
            .getUsage();
    assertThat(usage.getDecryptions()).isEqualTo(1);
    assertThat(usage.getRewraps()).isEqualTo(1);
    assertThat(usage.getEncryptions()).isZero();
  }

  private ReEncryptResponse rewrap(LegacyCiphertext legacy, String target, ByteString context) {
    return cipherd.crypto.reEncrypt(
        ReEncryptRequest.newBuilder()
            .setLegacy(legacy)
            .setKeyName(target)
            .setContext(context)
            .build());
  }

  private ByteString decrypt(String ciphertext, ByteString context) {
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).setContext(context).build())
        .getPlaintext();
  }

  private int versions(String key) {
    Key described =
        cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName(key).build()).getKey();
    return described.getVersionsCount();
  }
}
