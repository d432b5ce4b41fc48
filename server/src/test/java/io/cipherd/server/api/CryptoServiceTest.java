package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.InspectResponse;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The unary CryptoService RPCs in-process: results and every error status. */
class CryptoServiceTest {
  private static final ByteString HELLO = ByteString.copyFromUtf8("hello, cipherd");

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir);
    createKey("payments", Mode.MODE_GCM, false);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"MODE_GCM", "MODE_CHACHA", "MODE_CBC", "MODE_CTR", "MODE_CFB", "MODE_OFB"})
  void encrypt_thenDecrypt_returnsPlaintext(Mode mode) {
    createKey("k", mode, true);
    EncryptResponse encrypted = encrypt("k", HELLO, ByteString.EMPTY);

    assertThat(encrypted.getCiphertext())
        .startsWith("<k/v1:" + mode.name().substring(5).toLowerCase() + ">");
    assertThat(encrypted.getKeyVersion()).isEqualTo(1);
    assertThat(decrypt(encrypted.getCiphertext(), ByteString.EMPTY)).isEqualTo(HELLO);
  }

  @Test
  void encrypt_emptyPlaintext_roundTrips() {
    String ciphertext = encrypt("payments", ByteString.EMPTY, ByteString.EMPTY).getCiphertext();
    assertThat(decrypt(ciphertext, ByteString.EMPTY)).isEqualTo(ByteString.EMPTY);
  }

  @Test
  void encrypt_samePlaintextTwice_givesDifferentCiphertexts() {
    assertThat(encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext())
        .isNotEqualTo(encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext());
  }

  @Test
  void decrypt_withContext_needsTheSameContext() {
    ByteString context = ByteString.copyFromUtf8("customer=42");
    String ciphertext = encrypt("payments", HELLO, context).getCiphertext();

    assertThat(decrypt(ciphertext, context)).isEqualTo(HELLO);
    Status wrong =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> decrypt(ciphertext, ByteString.copyFromUtf8("customer=43")));
    assertThat(wrong.getDescription()).isEqualTo("decryption failed");
    failsWith(Status.Code.INVALID_ARGUMENT, () -> decrypt(ciphertext, ByteString.EMPTY));
  }

  @Test
  void encrypt_unknownKey_isNotFound() {
    Status status =
        failsWith(Status.Code.NOT_FOUND, () -> encrypt("nope", HELLO, ByteString.EMPTY));
    assertThat(status.getDescription()).contains("nope");
  }

  @Test
  void encrypt_invalidKeyName_isInvalidArgument() {
    failsWith(Status.Code.INVALID_ARGUMENT, () -> encrypt("Not/A:Name", HELLO, ByteString.EMPTY));
    failsWith(Status.Code.INVALID_ARGUMENT, () -> encrypt("", HELLO, ByteString.EMPTY));
  }

  @Test
  void encrypt_contextWithUnauthenticatedMode_isInvalidArgument() {
    createKey("legacy", Mode.MODE_CBC, true);
    Status status =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> encrypt("legacy", HELLO, ByteString.copyFromUtf8("ctx")));
    assertThat(status.getDescription()).contains("AEAD");
  }

  @Test
  void encrypt_ecbKey_isRefusedUnlessPolicyAllows() {
    createKey("old", Mode.MODE_ECB, true);
    failsWith(Status.Code.FAILED_PRECONDITION, () -> encrypt("old", HELLO, ByteString.EMPTY));

    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName("old")
            .setPolicy(KeyPolicy.newBuilder().setAllowEcbEncryption(true))
            .build());
    String ciphertext = encrypt("old", HELLO, ByteString.EMPTY).getCiphertext();
    assertThat(ciphertext).startsWith("<old/v1:ecb>");
    assertThat(decrypt(ciphertext, ByteString.EMPTY)).isEqualTo(HELLO);
  }

  @Test
  void encrypt_pinnedOldVersionAtMaxEncryptionsPerVersion_isFailedPrecondition() {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName("capped")
            .setPolicy(KeyPolicy.newBuilder().setMaxEncryptionsPerVersion(3))
            .build());
    for (int i = 0; i < 3; i++) {
      encrypt("capped", HELLO, ByteString.EMPTY);
    }
    rotate("capped");

    Status pinned =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.crypto.encrypt(
                    EncryptRequest.newBuilder()
                        .setKeyName("capped")
                        .setKeyVersion(1)
                        .setPlaintext(HELLO)
                        .build()));
    assertThat(pinned.getDescription())
        .contains("version 1 of key 'capped' has reached its limit of 3 encryptions");
    assertThat(encrypt("capped", HELLO, ByteString.EMPTY).getCiphertext())
        .startsWith("<capped/v2:gcm>");
  }

  @Test
  void decrypt_malformedCiphertexts_areInvalidArgumentWithoutEchoingThem() {
    String secretLooking = "<payments/v1:gcm>c2VjcmV0LXBheWxvYWQtdGhhdC1pcy10b28tc2hvcnQ";
    for (String bad :
        List.of(
            "",
            "plain text",
            "<payments/v1:gcm>",
            "<payments/v01:gcm>AAAA",
            "<payments/v1:rot13>AAAA",
            "<Payments/v1:gcm>AAAA",
            secretLooking)) {
      Status status = failsWith(Status.Code.INVALID_ARGUMENT, () -> decrypt(bad, ByteString.EMPTY));
      assertThat(status.getDescription()).doesNotContain("c2VjcmV0");
    }
  }

  @Test
  void decrypt_ciphertextOfUnknownKeyOrVersion_isNotFound() {
    String ciphertext = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();
    failsWith(
        Status.Code.NOT_FOUND,
        () -> decrypt(ciphertext.replace("<payments/", "<other/"), ByteString.EMPTY));
    failsWith(
        Status.Code.NOT_FOUND, () -> decrypt(ciphertext.replace("/v1:", "/v7:"), ByteString.EMPTY));
  }

  @Test
  void decrypt_headerMovedToAnotherKey_fails() {
    createKey("other", Mode.MODE_GCM, false);
    String ciphertext = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();
    Status status =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> decrypt(ciphertext.replace("<payments/", "<other/"), ByteString.EMPTY));
    assertThat(status.getDescription()).isEqualTo("decryption failed");
  }

  @Test
  void rotate_oldVersionsStillDecrypt_andNewDataUsesNewVersion() {
    List<String> ciphertexts = new ArrayList<>();
    for (int version = 1; version <= 4; version++) {
      EncryptResponse encrypted = encrypt("payments", HELLO, ByteString.EMPTY);
      assertThat(encrypted.getKeyVersion()).isEqualTo(version);
      ciphertexts.add(encrypted.getCiphertext());
      rotate("payments");
    }
    for (String ciphertext : ciphertexts) {
      assertThat(decrypt(ciphertext, ByteString.EMPTY)).isEqualTo(HELLO);
    }
  }

  @Test
  void minDecryptionVersion_refusesOlderVersions() {
    String v1 = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();
    rotate("payments");
    String v2 = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();
    setPolicy("payments", KeyPolicy.newBuilder().setMinDecryptionVersion(2).build());

    Status status = failsWith(Status.Code.FAILED_PRECONDITION, () -> decrypt(v1, ByteString.EMPTY));
    assertThat(status.getDescription()).contains("min_decryption_version");
    assertThat(decrypt(v2, ByteString.EMPTY)).isEqualTo(HELLO);
  }

  @Test
  void encrypt_explicitVersion_honoursMinEncryptionVersion() {
    rotate("payments");
    EncryptResponse old =
        cipherd.crypto.encrypt(
            EncryptRequest.newBuilder()
                .setKeyName("payments")
                .setPlaintext(HELLO)
                .setKeyVersion(1)
                .build());
    assertThat(old.getKeyVersion()).isEqualTo(1);

    setPolicy("payments", KeyPolicy.newBuilder().setMinEncryptionVersion(2).build());
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("payments")
                    .setPlaintext(HELLO)
                    .setKeyVersion(1)
                    .build()));
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            cipherd.crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("payments")
                    .setPlaintext(HELLO)
                    .setKeyVersion(3)
                    .build()));
  }

  @Test
  void reEncrypt_movesToCurrentVersion_withoutReturningPlaintext() {
    ByteString context = ByteString.copyFromUtf8("row-7");
    String v1 = encrypt("payments", HELLO, context).getCiphertext();
    rotate("payments");

    ReEncryptResponse rewrapped =
        cipherd.crypto.reEncrypt(
            ReEncryptRequest.newBuilder().setCiphertext(v1).setContext(context).build());

    assertThat(rewrapped.getSourceKeyVersion()).isEqualTo(1);
    assertThat(rewrapped.getKeyVersion()).isEqualTo(2);
    assertThat(rewrapped.getCiphertext()).startsWith("<payments/v2:gcm>");
    assertThat(decrypt(rewrapped.getCiphertext(), context)).isEqualTo(HELLO);
  }

  @Test
  void reEncrypt_toAnotherKey_usesThatKeysCurrentVersion() {
    createKey("archive", Mode.MODE_CHACHA, false);
    rotate("archive");
    String ciphertext = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();

    ReEncryptResponse rewrapped =
        cipherd.crypto.reEncrypt(
            ReEncryptRequest.newBuilder().setCiphertext(ciphertext).setKeyName("archive").build());

    assertThat(rewrapped.getCiphertext()).startsWith("<archive/v2:chacha>");
    assertThat(decrypt(rewrapped.getCiphertext(), ByteString.EMPTY)).isEqualTo(HELLO);
  }

  @Test
  void reEncrypt_badSourceOrTarget_failsWithTheirStatus() {
    String ciphertext = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            cipherd.crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(ciphertext)
                    .setKeyName("missing")
                    .build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(ciphertext)
                    .setContext(ByteString.copyFromUtf8("x"))
                    .build()));
  }

  @Test
  void inspect_reportsHeaderAndWhetherBehindCurrent() {
    String v1 = encrypt("payments", HELLO, ByteString.EMPTY).getCiphertext();
    InspectResponse fresh =
        cipherd.crypto.inspect(InspectRequest.newBuilder().setCiphertext(v1).build());
    assertThat(fresh.getKeyName()).isEqualTo("payments");
    assertThat(fresh.getKeyVersion()).isEqualTo(1);
    assertThat(fresh.getMode()).isEqualTo(Mode.MODE_GCM);
    assertThat(fresh.getBehindCurrent()).isFalse();

    rotate("payments");
    InspectResponse stale =
        cipherd.crypto.inspect(InspectRequest.newBuilder().setCiphertext(v1).build());
    assertThat(stale.getCurrentVersion()).isEqualTo(2);
    assertThat(stale.getBehindCurrent()).isTrue();

    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> cipherd.crypto.inspect(InspectRequest.newBuilder().setCiphertext("garbage").build()));
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            cipherd.crypto.inspect(
                InspectRequest.newBuilder().setCiphertext("<ghost/v1:gcm>AAAA").build()));
  }

  @Test
  void concurrentEncrypts_fromManyThreads_allRoundTrip() throws Exception {
    createKey("busy-chacha", Mode.MODE_CHACHA, false);
    ExecutorService threads = Executors.newFixedThreadPool(16);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        int thread = t;
        results.add(
            threads.submit(
                () -> {
                  int ok = 0;
                  for (int i = 0; i < 300; i++) {
                    String key = i % 2 == 0 ? "payments" : "busy-chacha";
                    ByteString plaintext =
                        ByteString.copyFromUtf8("thread " + thread + " item " + i);
                    String ciphertext = encrypt(key, plaintext, ByteString.EMPTY).getCiphertext();
                    if (decrypt(ciphertext, ByteString.EMPTY).equals(plaintext)) {
                      ok++;
                    }
                  }
                  return ok;
                }));
      }
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(300);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private void createKey(String name, Mode mode, boolean allowUnauthenticated) {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName(name)
            .setMode(mode)
            .setAllowUnauthenticated(allowUnauthenticated)
            .build());
  }

  private void rotate(String name) {
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName(name).build());
  }

  private void setPolicy(String name, KeyPolicy policy) {
    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder().setKeyName(name).setPolicy(policy).build());
  }

  private EncryptResponse encrypt(String key, ByteString plaintext, ByteString context) {
    return cipherd.crypto.encrypt(
        EncryptRequest.newBuilder()
            .setKeyName(key)
            .setPlaintext(plaintext)
            .setContext(context)
            .build());
  }

  private ByteString decrypt(String ciphertext, ByteString context) {
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).setContext(context).build())
        .getPlaintext();
  }
}
