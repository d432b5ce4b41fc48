package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.LegacyKeys.MYSQL_HELLO_HEX;
import static io.cipherd.server.api.LegacyKeys.MYSQL_PASSPHRASE;
import static io.cipherd.server.api.LegacyKeys.hex;
import static io.cipherd.server.api.LegacyKeys.importMysql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.ItemError;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * expected_key on Decrypt, ReEncrypt and their batch and stream items, in-process and over a real
 * port: a ciphertext under another key is refused with UNEXPECTED_KEY before anything is decrypted,
 * an item's own expectation wins over its batch's, and an invalid expectation names its field.
 */
class ExpectedKeyApiTest {
  /** The column's context, which a writer of the column knows. */
  private static final ByteString COLUMN = ByteString.copyFromUtf8("users.email/42");

  private static final ByteString PLANTED = ByteString.copyFromUtf8("attacker@evil.example");
  private static final ByteString REAL = ByteString.copyFromUtf8("alice@example.com");
  private static final String REFUSED =
      "ciphertext is under key 'attacker-key', not expected_key 'users-email':"
          + " refused without decrypting it";

  @TempDir Path dataDir;
  private AutoCloseable server;
  private CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
  private CryptoServiceGrpc.CryptoServiceStub cryptoAsync;
  private String planted;
  private String real;

  /** Serves in-process, or on a real port with /metrics, with the column's two keys. */
  private void start(boolean overSockets) throws Exception {
    KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin;
    if (overSockets) {
      CipherdServer real = TestServers.start(dataDir, /* metricsKeyNames= */ true);
      ManagedChannel channel = TestServers.channel(real);
      server =
          () -> {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            real.close();
          };
      crypto = CryptoServiceGrpc.newBlockingStub(channel);
      cryptoAsync = CryptoServiceGrpc.newStub(channel);
      admin = KeyAdminServiceGrpc.newBlockingStub(channel);
      metricsOf = () -> TestServers.get(real, "/metrics").body();
    } else {
      InProcessCipherd inProcess = InProcessCipherd.start(dataDir);
      server = inProcess;
      crypto = inProcess.crypto;
      cryptoAsync = inProcess.cryptoAsync;
      admin = inProcess.admin;
    }
    for (String key : List.of("users-email", "users-phone", "attacker-key")) {
      admin.createKey(CreateKeyRequest.newBuilder().setKeyName(key).build());
    }
    importMysql(admin, "mysql-users", MYSQL_PASSPHRASE);
    planted = encrypt("attacker-key", PLANTED);
    real = encrypt("users-email", REAL);
  }

  private interface Scrape {
    String get() throws Exception;
  }

  private Scrape metricsOf;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest(name = "overSockets={0}")
  @ValueSource(booleans = {false, true})
  void aPlantedValue_isRefusedByTheExpectedKey_butDecryptsWithoutIt(boolean overSockets)
      throws Exception {
    start(overSockets);

    StatusRuntimeException refused =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> crypto.decrypt(decrypt(planted).setExpectedKey("users-email").build()));

    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(refused.getStatus().getDescription()).isEqualTo(REFUSED).doesNotContain(planted);
    assertThat(errorInfo(refused).getReason()).isEqualTo("UNEXPECTED_KEY");
    assertThat(errorInfo(refused).getMetadataMap())
        .isEqualTo(Map.of("key", "attacker-key", "expected_key", "users-email"));
    // Why the option matters: without it, the planted value decrypts and would be trusted.
    assertThat(crypto.decrypt(decrypt(planted).build()).getPlaintext()).isEqualTo(PLANTED);
    assertThat(crypto.decrypt(decrypt(real).setExpectedKey("users-email").build()).getPlaintext())
        .isEqualTo(REAL);
    assertThat(crypto.decrypt(decrypt(real).setExpectedKey("users-*").build()).getPlaintext())
        .isEqualTo(REAL);
    if (overSockets) {
      assertThat(metricsOf.get())
          .as("counted as a decrypt that reached no key: the planted key is no label")
          .containsPattern(
              "cipherd_crypto_operations_total\\{[^}]*key=\"none\"[^}]*"
                  + "outcome=\"unexpected_key\"[^}]*\\} 1\\.0")
          .doesNotContainPattern("key=\"attacker-key\"[^}]*outcome=\"unexpected_key\"");
    }
  }

  @ParameterizedTest(name = "overSockets={0}")
  @ValueSource(booleans = {false, true})
  void reEncrypt_refusesAnotherKey_ownOrLegacy_beforeDecrypting(boolean overSockets)
      throws Exception {
    start(overSockets);

    Status other =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                crypto.reEncrypt(
                    ReEncryptRequest.newBuilder()
                        .setCiphertext(planted)
                        .setContext(COLUMN)
                        .setExpectedKey("users-email")
                        .build()));
    assertThat(other.getDescription()).isEqualTo(REFUSED);
    assertThat(
            crypto
                .reEncrypt(
                    ReEncryptRequest.newBuilder()
                        .setCiphertext(real)
                        .setContext(COLUMN)
                        .setExpectedKey("users-*")
                        .build())
                .getCiphertext())
        .startsWith("<users-email/v1:gcm>");

    ReEncryptRequest.Builder legacy =
        ReEncryptRequest.newBuilder()
            .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX))
            .setKeyName("users-email");
    StatusRuntimeException refused =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> crypto.reEncrypt(legacy.setExpectedKey("users-email").build()));
    assertThat(errorInfo(refused).getReason()).isEqualTo("UNEXPECTED_KEY");
    assertThat(refused.getStatus().getDescription()).contains("'mysql-users'");
    assertThat(crypto.reEncrypt(legacy.setExpectedKey("mysql-users").build()).getCiphertext())
        .startsWith("<users-email/v1:gcm>");
  }

  @ParameterizedTest(name = "overSockets={0}")
  @ValueSource(booleans = {false, true})
  void decryptBatch_itemsExpectationWinsOverTheBatchs_eachRefusalItsOwn(boolean overSockets)
      throws Exception {
    start(overSockets);
    String phone = encrypt("users-phone", REAL);

    List<DecryptBatchResult> results =
        crypto
            .decryptBatch(
                DecryptBatchRequest.newBuilder()
                    .setExpectedKey("users-email")
                    .addItems(item("real", real, ""))
                    .addItems(item("planted", planted, ""))
                    .addItems(item("phone-as-email", phone, ""))
                    .addItems(item("phone-own", phone, "users-phone"))
                    .addItems(item("planted-prefix", planted, "users-*"))
                    .addItems(item("bad-own", real, "Users"))
                    .addItems(item("broken", "not a ciphertext", ""))
                    .build())
            .getResultsList();

    assertThat(results).extracting(DecryptBatchResult::getReference).hasSize(7);
    assertThat(results.get(0).getPlaintext()).isEqualTo(REAL);
    assertUnexpected(results.get(1).getError(), "attacker-key", "users-email");
    assertUnexpected(results.get(2).getError(), "users-phone", "users-email");
    assertThat(results.get(3).getPlaintext()).isEqualTo(REAL);
    assertUnexpected(results.get(4).getError(), "attacker-key", "users-*");
    assertThat(results.get(5).getError().getReason()).isEqualTo("INVALID_ARGUMENT");
    assertThat(results.get(5).getError().getMessage()).startsWith("expected_key must be");
    assertThat(results.get(6).getError().getReason()).isEqualTo("INVALID_CIPHERTEXT");

    Status wholeCall =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                crypto.decryptBatch(
                    DecryptBatchRequest.newBuilder()
                        .setExpectedKey("*")
                        .addItems(item("real", real, ""))
                        .build()));
    assertThat(wholeCall.getDescription()).startsWith("expected_key must be a key name");
  }

  @ParameterizedTest(name = "overSockets={0}")
  @ValueSource(booleans = {false, true})
  void reEncryptBatch_appliesTheExpectationToCiphertextsAndLegacyItems(boolean overSockets)
      throws Exception {
    start(overSockets);

    List<ReEncryptBatchResult> results =
        crypto
            .reEncryptBatch(
                ReEncryptBatchRequest.newBuilder()
                    .setKeyName("users-email")
                    .setExpectedKey("users-*")
                    .addItems(rewrapItem("real", real))
                    .addItems(rewrapItem("planted", planted))
                    .addItems(
                        ReEncryptBatchItem.newBuilder()
                            .setReference("legacy")
                            .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX)))
                    .addItems(
                        ReEncryptBatchItem.newBuilder()
                            .setReference("legacy-own")
                            .setExpectedKey("mysql-*")
                            .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX)))
                    .build())
            .getResultsList();

    assertThat(results).hasSize(4);
    assertThat(results.get(0).getCiphertext()).startsWith("<users-email/v1:gcm>");
    assertUnexpected(results.get(1).getError(), "attacker-key", "users-*");
    assertThat(results.get(1).getSourceKeyVersion()).isEqualTo(1);
    assertUnexpected(results.get(2).getError(), "mysql-users", "users-*");
    assertThat(results.get(3).getCiphertext()).startsWith("<users-email/v1:gcm>");
  }

  @Test
  void reEncryptBatch_aFailedTransitItem_reportsTheVersionItsPrefixNames() throws Exception {
    start(/* overSockets= */ false);
    String transit = "vault:v3:" + Base64.getEncoder().encodeToString(new byte[40]);

    List<ReEncryptBatchResult> results =
        crypto
            .reEncryptBatch(
                ReEncryptBatchRequest.newBuilder()
                    .setExpectedKey("users-email")
                    .addItems(rewrapItem("transit", transit))
                    .addItems(rewrapItem("malformed", "vault:vx:AAAA"))
                    .build())
            .getResultsList();

    assertThat(results.get(0).getError().getReason()).isEqualTo("DECRYPTION_FAILED");
    assertThat(results.get(0).getSourceKeyVersion()).isEqualTo(3);
    assertThat(results.get(1).getError().getReason()).isEqualTo("INVALID_CIPHERTEXT");
    assertThat(results.get(1).getSourceKeyVersion()).isZero();
  }

  @ParameterizedTest(name = "overSockets={0}")
  @ValueSource(booleans = {false, true})
  void streams_refuseEachItemUnderAnotherKey_andGoOn(boolean overSockets) throws Exception {
    start(overSockets);

    StreamRecorder<DecryptStreamResponse> decrypted = new StreamRecorder<>();
    StreamObserver<DecryptStreamRequest> toDecrypt = cryptoAsync.decryptStream(decrypted);
    for (int i = 0; i < 10; i++) {
      toDecrypt.onNext(
          DecryptStreamRequest.newBuilder()
              .setReference("d" + i)
              .setCiphertext(i % 3 == 1 ? planted : real)
              .setContext(COLUMN)
              .setExpectedKey(i == 9 ? "users" : "users-email")
              .build());
    }
    toDecrypt.onCompleted();
    List<DecryptStreamResponse> plaintexts = decrypted.awaitValues(30);

    assertThat(plaintexts).hasSize(10);
    for (int i = 0; i < 10; i++) {
      DecryptBatchResult result = plaintexts.get(i).getResult();
      assertThat(result.getReference()).isEqualTo("d" + i);
      if (i == 9) {
        assertUnexpected(result.getError(), "users-email", "users");
      } else if (i % 3 == 1) {
        assertUnexpected(result.getError(), "attacker-key", "users-email");
      } else {
        assertThat(result.getPlaintext()).isEqualTo(REAL);
      }
    }

    StreamRecorder<ReEncryptStreamResponse> rewrapped = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> toRewrap = cryptoAsync.reEncryptStream(rewrapped);
    for (String ciphertext : List.of(real, planted)) {
      toRewrap.onNext(
          ReEncryptStreamRequest.newBuilder()
              .setReference(ciphertext == real ? "real" : "planted")
              .setCiphertext(ciphertext)
              .setContext(COLUMN)
              .setExpectedKey("users-email")
              .build());
    }
    toRewrap.onNext(
        ReEncryptStreamRequest.newBuilder()
            .setReference("legacy")
            .setLegacy(hex("mysql-users", MYSQL_HELLO_HEX))
            .setKeyName("users-email")
            .setExpectedKey("users-email")
            .build());
    toRewrap.onNext(
        ReEncryptStreamRequest.newBuilder()
            .setReference("invalid")
            .setCiphertext(real)
            .setContext(COLUMN)
            .setExpectedKey("users email")
            .build());
    toRewrap.onCompleted();
    List<ReEncryptStreamResponse> results = rewrapped.awaitValues(30);

    assertThat(results).hasSize(4);
    assertThat(results.get(0).getResult().getCiphertext()).startsWith("<users-email/v1:gcm>");
    assertUnexpected(results.get(1).getResult().getError(), "attacker-key", "users-email");
    assertUnexpected(results.get(2).getResult().getError(), "mysql-users", "users-email");
    assertThat(results.get(3).getResult().getError().getReason()).isEqualTo("INVALID_ARGUMENT");
    assertThat(results.get(3).getResult().getError().getMessage())
        .startsWith("expected_key must be a key name");
  }

  @Test
  void anInvalidExpectedKey_isInvalidArgument_namingTheField_inEveryUnaryShape() throws Exception {
    start(false);

    for (String invalid : List.of("*", "Users-email", "users/email", "x".repeat(65) + "*")) {
      Status decrypt =
          failsWith(
              Status.Code.INVALID_ARGUMENT,
              () -> crypto.decrypt(decrypt(real).setExpectedKey(invalid).build()));
      Status reEncrypt =
          failsWith(
              Status.Code.INVALID_ARGUMENT,
              () ->
                  crypto.reEncrypt(
                      ReEncryptRequest.newBuilder()
                          .setCiphertext(real)
                          .setContext(COLUMN)
                          .setExpectedKey(invalid)
                          .build()));
      for (Status status : List.of(decrypt, reEncrypt)) {
        assertThat(status.getDescription())
            .startsWith("expected_key must be a key name")
            .contains("got " + invalid.length() + " characters");
      }
    }
  }

  @Test
  void theRefusal_readsTheSame_whetherTheOtherKeyExistsOrNot() throws Exception {
    start(false);
    String ghost = planted.replace("<attacker-key/", "<ghost-key/");

    StatusRuntimeException existing =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> crypto.decrypt(decrypt(planted).setExpectedKey("users-email").build()));
    StatusRuntimeException missing =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () -> crypto.decrypt(decrypt(ghost).setExpectedKey("users-email").build()));

    assertThat(missing.getStatus().getCode()).isEqualTo(existing.getStatus().getCode());
    assertThat(errorInfo(missing).getReason()).isEqualTo(errorInfo(existing).getReason());
    assertThat(missing.getStatus().getDescription())
        .isEqualTo(existing.getStatus().getDescription().replace("attacker-key", "ghost-key"));
    // Without the expectation, the missing key shows: NOT_FOUND.
    failsWith(Status.Code.NOT_FOUND, () -> crypto.decrypt(decrypt(ghost).build()));
  }

  private String encrypt(String key, ByteString plaintext) {
    return crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setPlaintext(plaintext)
                .setContext(COLUMN)
                .build())
        .getCiphertext();
  }

  private static DecryptRequest.Builder decrypt(String ciphertext) {
    return DecryptRequest.newBuilder().setCiphertext(ciphertext).setContext(COLUMN);
  }

  private static DecryptBatchItem item(String reference, String ciphertext, String expected) {
    return DecryptBatchItem.newBuilder()
        .setReference(reference)
        .setCiphertext(ciphertext)
        .setContext(COLUMN)
        .setExpectedKey(expected)
        .build();
  }

  private static ReEncryptBatchItem rewrapItem(String reference, String ciphertext) {
    return ReEncryptBatchItem.newBuilder()
        .setReference(reference)
        .setCiphertext(ciphertext)
        .setContext(COLUMN)
        .build();
  }

  private static void assertUnexpected(ItemError error, String key, String expected) {
    assertThat(error.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(error.getReason()).isEqualTo("UNEXPECTED_KEY");
    assertThat(error.getMessage())
        .isEqualTo(
            "ciphertext is under key '"
                + key
                + "', not expected_key '"
                + expected
                + "': refused without decrypting it");
  }

  private static ErrorInfo errorInfo(StatusRuntimeException e) {
    try {
      return StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class);
    } catch (InvalidProtocolBufferException notErrorInfo) {
      throw new AssertionError("the detail is not an ErrorInfo", notErrorInfo);
    }
  }
}
