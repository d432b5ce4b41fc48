package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyCensusResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.ListKeysResponse;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.TransitKdf;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KeyAdminService in-process: metadata only, never key bytes, and every error status. */
class KeyAdminServiceTest {
  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void createKey_defaultsToGcm256_andDescribesVersionOne() {
    Key key =
        cipherd
            .admin
            .createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build())
            .getKey();

    assertThat(key.getKeyName()).isEqualTo("orders");
    assertThat(key.getCurrentVersion()).isEqualTo(1);
    assertThat(key.getVersionsList())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getMode()).isEqualTo(Mode.MODE_GCM);
              assertThat(v.getKeySizeBits()).isEqualTo(256);
              assertThat(v.getCreateTime().getSeconds()).isPositive();
              assertThat(v.getImported()).isFalse();
            });
    assertThat(
            cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("orders").build()).getKey())
        .isEqualTo(key);
  }

  @Test
  void createKey_badRequests_haveTheirStatus() {
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("taken").build());
    failsWith(
        Status.Code.ALREADY_EXISTS,
        () -> cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("taken").build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("UPPER").build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("").build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.createKey(
                CreateKeyRequest.newBuilder().setKeyName("x".repeat(65)).build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.createKey(
                CreateKeyRequest.newBuilder()
                    .setKeyName("small-chacha")
                    .setMode(Mode.MODE_CHACHA)
                    .setKeySizeBits(128)
                    .build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.createKey(
                CreateKeyRequest.newBuilder().setKeyName("odd").setKeySizeBits(100).build()));
    Status unauthenticated =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.admin.createKey(
                    CreateKeyRequest.newBuilder()
                        .setKeyName("legacy")
                        .setMode(Mode.MODE_CBC)
                        .build()));
    assertThat(unauthenticated.getDescription()).contains("allow_unauthenticated");
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.createKey(
                CreateKeyRequest.newBuilder().setKeyName("weird").setModeValue(99).build()));
  }

  @Test
  void getKeyCensus_quietPeriodAboveTenYearsOrMalformed_isInvalidArgumentNamingTheMaximum() {
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
    for (long seconds :
        new long[] {Long.MAX_VALUE / 2, 1_000_000_000_000_000L, 3650L * 86_400 + 1}) {
      Status status =
          failsWith(
              Status.Code.INVALID_ARGUMENT,
              () -> census("orders", Duration.newBuilder().setSeconds(seconds).build()));
      assertThat(status.getDescription())
          .as("%d seconds", seconds)
          .contains("at most 3650 days")
          .doesNotContain(Long.toString(seconds));
    }
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            census(
                "orders",
                Duration.newBuilder()
                    .setSeconds(Long.MAX_VALUE)
                    .setNanos(Integer.MAX_VALUE)
                    .build()));

    assertThat(
            census("orders", Duration.newBuilder().setSeconds(3650L * 86_400).build())
                .getVersionsCount())
        .isEqualTo(1);
  }

  private GetKeyCensusResponse census(String name, Duration quietPeriod) {
    return cipherd.admin.getKeyCensus(
        GetKeyCensusRequest.newBuilder().setKeyName(name).setQuietPeriod(quietPeriod).build());
  }

  @Test
  void getKey_unknown_isNotFound() {
    failsWith(
        Status.Code.NOT_FOUND,
        () -> cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("ghost").build()));
  }

  @Test
  void listKeys_pagesInNameOrder() {
    List<String> names = List.of("delta", "alpha", "echo", "charlie", "bravo");
    names.forEach(
        n -> cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName(n).build()));

    List<String> seen = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      ListKeysResponse page =
          cipherd.admin.listKeys(
              ListKeysRequest.newBuilder().setPageSize(2).setPageToken(token).build());
      page.getKeysList().forEach(k -> seen.add(k.getKeyName()));
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());

    assertThat(seen).containsExactly("alpha", "bravo", "charlie", "delta", "echo");
    assertThat(pages).isEqualTo(3);
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> cipherd.admin.listKeys(ListKeysRequest.newBuilder().setPageSize(-1).build()));
  }

  @Test
  void rotateKey_keepsModeByDefault_andCanChangeIt() {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName("moving")
            .setMode(Mode.MODE_CBC)
            .setAllowUnauthenticated(true)
            .setKeySizeBits(128)
            .build());
    Key same =
        cipherd
            .admin
            .rotateKey(RotateKeyRequest.newBuilder().setKeyName("moving").build())
            .getKey();
    assertThat(same.getVersions(1).getMode()).isEqualTo(Mode.MODE_CBC);
    assertThat(same.getVersions(1).getKeySizeBits()).isEqualTo(128);

    Key moved =
        cipherd
            .admin
            .rotateKey(
                RotateKeyRequest.newBuilder().setKeyName("moving").setMode(Mode.MODE_GCM).build())
            .getKey();
    assertThat(moved.getCurrentVersion()).isEqualTo(3);
    assertThat(moved.getVersionsList())
        .extracting(v -> v.getMode())
        .containsExactly(Mode.MODE_CBC, Mode.MODE_CBC, Mode.MODE_GCM);

    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.rotateKey(
                RotateKeyRequest.newBuilder().setKeyName("moving").setMode(Mode.MODE_ECB).build()));
    failsWith(
        Status.Code.NOT_FOUND,
        () -> cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("ghost").build()));
  }

  @Test
  void rotateAndUpdatePolicy_answerWithEveryVersionsUsage_asGetKeyDoes() {
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("used").build());
    for (int i = 0; i < 3; i++) {
      cipherd.crypto.encrypt(
          EncryptRequest.newBuilder()
              .setKeyName("used")
              .setPlaintext(ByteString.copyFromUtf8("x"))
              .build());
    }

    Key before =
        cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("used").build()).getKey();
    Key rotated =
        cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("used").build()).getKey();
    Key updated =
        cipherd
            .admin
            .updateKeyPolicy(
                UpdateKeyPolicyRequest.newBuilder()
                    .setKeyName("used")
                    .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(1))
                    .build())
            .getKey();

    assertThat(before.getVersions(0).getUsage().getEncryptions()).isEqualTo(3);
    assertThat(rotated.getVersions(0).getUsage().getEncryptions()).isEqualTo(3);
    assertThat(updated.getVersions(0).getUsage().getEncryptions()).isEqualTo(3);
    assertThat(rotated.getVersions(1).getUsage().getEncryptions()).isZero();
  }

  @Test
  void updateKeyPolicy_validatesAgainstCurrentVersion() {
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("p").build());
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () -> setPolicy("p", KeyPolicy.newBuilder().setMinDecryptionVersion(2).build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> setPolicy("p", KeyPolicy.newBuilder().setMinEncryptionVersion(-1).build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.updateKeyPolicy(
                UpdateKeyPolicyRequest.newBuilder().setKeyName("p").build()));
    failsWith(Status.Code.NOT_FOUND, () -> setPolicy("ghost", KeyPolicy.getDefaultInstance()));

    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("p").build());
    Key key =
        setPolicy(
            "p",
            KeyPolicy.newBuilder().setMinDecryptionVersion(2).setMinEncryptionVersion(2).build());
    assertThat(key.getPolicy().getMinDecryptionVersion()).isEqualTo(2);
    assertThat(key.getVersionsCount()).as("versions below the minimum are kept").isEqualTo(2);
  }

  @Test
  void importKey_withATransitKdf_isADerivedTransitVersion_thatNeverEncrypts() {
    Key key =
        cipherd
            .admin
            .importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("from-transit")
                    .setMode(Mode.MODE_CHACHA)
                    .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                    .setTransitKdf(TransitKdf.TRANSIT_KDF_HMAC_SHA256_COUNTER)
                    .build())
            .getKey();

    assertThat(key.getVersions(0).getTransitKdf())
        .isEqualTo(TransitKdf.TRANSIT_KDF_HMAC_SHA256_COUNTER);
    Status refused =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.crypto.encrypt(
                    EncryptRequest.newBuilder()
                        .setKeyName("from-transit")
                        .setPlaintext(ByteString.copyFromUtf8("x"))
                        .build()));
    assertThat(refused.getDescription()).contains("derived Vault Transit key");
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("from-transit-cbc")
                    .setMode(Mode.MODE_CBC)
                    .setAllowUnauthenticated(true)
                    .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                    .setTransitKdf(TransitKdf.TRANSIT_KDF_HKDF_SHA256)
                    .build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("from-transit-legacy")
                    .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_AES_CBC)
                    .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                    .setTransitKdf(TransitKdf.TRANSIT_KDF_HKDF_SHA256)
                    .build()));
  }

  @Test
  void importKey_decryptsDataEncryptedElsewhere() throws Exception {
    byte[] raw = new byte[32];
    new SecureRandom().nextBytes(raw);
    Key key =
        cipherd
            .admin
            .importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("legacy-gcm")
                    .setKeyMaterial(ByteString.copyFrom(raw))
                    .build())
            .getKey();
    assertThat(key.getVersions(0).getImported()).isTrue();

    // Another system encrypted with the same key bytes, following the documented format.
    String header = "<legacy-gcm/v1:gcm>";
    byte[] iv = new byte[12];
    new SecureRandom().nextBytes(iv);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(raw, "AES"), new GCMParameterSpec(128, iv));
    cipher.updateAAD(header.getBytes(StandardCharsets.US_ASCII));
    byte[] body = cipher.doFinal("from elsewhere".getBytes(StandardCharsets.UTF_8));
    byte[] payload = new byte[iv.length + body.length];
    System.arraycopy(iv, 0, payload, 0, iv.length);
    System.arraycopy(body, 0, payload, iv.length, body.length);
    String ciphertext = header + Base64.getEncoder().encodeToString(payload);

    assertThat(
            cipherd
                .crypto
                .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                .getPlaintext()
                .toStringUtf8())
        .isEqualTo("from elsewhere");

    Key second =
        cipherd
            .admin
            .importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("legacy-gcm")
                    .setKeyMaterial(ByteString.copyFrom(raw))
                    .build())
            .getKey();
    assertThat(second.getCurrentVersion()).isEqualTo(2);
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("short")
                    .setKeyMaterial(ByteString.copyFrom(new byte[20]))
                    .build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("cbc-import")
                    .setMode(Mode.MODE_CBC)
                    .setKeyMaterial(ByteString.copyFrom(raw))
                    .build()));
  }

  @Test
  void responses_neverCarryKeyBytes() throws Exception {
    byte[] raw = new byte[32];
    new SecureRandom().nextBytes(raw);
    cipherd.admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("secret")
            .setKeyMaterial(ByteString.copyFrom(raw))
            .build());
    Key key =
        cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("secret").build()).getKey();
    ListKeysResponse list = cipherd.admin.listKeys(ListKeysRequest.getDefaultInstance());

    assertThat(containsBytes(key.toByteArray(), raw)).isFalse();
    assertThat(containsBytes(list.toByteArray(), raw)).isFalse();
  }

  private Key setPolicy(String name, KeyPolicy policy) {
    return cipherd
        .admin
        .updateKeyPolicy(
            UpdateKeyPolicyRequest.newBuilder().setKeyName(name).setPolicy(policy).build())
        .getKey();
  }

  private static boolean containsBytes(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
