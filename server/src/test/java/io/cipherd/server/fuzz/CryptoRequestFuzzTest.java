package io.cipherd.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.cipherd.server.Cipherd;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.subjectkeys.SubjectKeysConfig;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Fuzzes request handling end to end (gRPC service, validation, envelope, key ring, subject keys,
 * ciphers): any request gets a precise status, never INTERNAL or UNKNOWN, and a batch answers every
 * item. The ciphertexts mutated include subject-bound ones ({@code <gcm-key/s:gcm>}), of a live and
 * of an erased subject, and encryptions may name a subject.
 */
class CryptoRequestFuzzTest {
  private static final List<String> KEYS =
      List.of("gcm-key", "chacha-key", "cbc-key", "ctr-key", "ecb-key");
  private static final List<String> SUBJECTS = List.of("user-1", "user-2", "fuzz-erased");
  private static final Set<Status.Code> EXPECTED =
      Set.of(Status.Code.INVALID_ARGUMENT, Status.Code.NOT_FOUND, Status.Code.FAILED_PRECONDITION);

  private static CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
  private static List<String> validCiphertexts;

  @FuzzTest(maxDuration = "30s")
  void cryptoRequests_getPreciseStatuses(FuzzedDataProvider data) throws IOException {
    CryptoServiceGrpc.CryptoServiceBlockingStub stub = stub();
    String keyName = data.consumeBoolean() ? data.pickValue(KEYS) : data.consumeString(80);
    ByteString context = ByteString.copyFrom(data.consumeBytes(data.consumeInt(0, 40)));
    String ciphertext = mutate(data.pickValue(validCiphertexts), data);
    String expectedKey = expectedKey(data);
    int operation = data.consumeInt(0, 7);
    ByteString plaintext = ByteString.copyFrom(data.consumeRemainingAsBytes());
    try {
      switch (operation) {
        case 0 ->
            stub.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(keyName)
                    .setPlaintext(plaintext)
                    .setContext(context)
                    .setKeyVersion(data.consumeInt(-1, 3))
                    .setSubject(subject(data))
                    .setRenewErasedSubject(data.consumeBoolean())
                    .build());
        case 1 ->
            stub.decrypt(
                DecryptRequest.newBuilder()
                    .setCiphertext(ciphertext)
                    .setContext(context)
                    .setExpectedKey(expectedKey)
                    .build());
        case 2 ->
            stub.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(ciphertext)
                    .setContext(context)
                    .setKeyName(keyName)
                    .setExpectedKey(expectedKey)
                    .build());
        case 3 -> stub.inspect(InspectRequest.newBuilder().setCiphertext(ciphertext).build());
        case 4 ->
            assertThat(
                    stub.encryptBatch(
                            EncryptBatchRequest.newBuilder()
                                .setKeyName(keyName)
                                .addItems(
                                    EncryptBatchItem.newBuilder()
                                        .setPlaintext(plaintext)
                                        .setContext(context))
                                .addItems(EncryptBatchItem.newBuilder().setPlaintext(plaintext))
                                .build())
                        .getResultsCount())
                .isEqualTo(2);
        case 5 ->
            assertThat(
                    stub.decryptBatch(
                            DecryptBatchRequest.newBuilder()
                                .addItems(
                                    DecryptBatchItem.newBuilder()
                                        .setCiphertext(ciphertext)
                                        .setContext(context)
                                        .setExpectedKey(expectedKey))
                                .addItems(
                                    DecryptBatchItem.newBuilder()
                                        .setCiphertext(validCiphertexts.get(0)))
                                .build())
                        .getResultsList())
                .allSatisfy(
                    r ->
                        assertThat(r.getError().getCode())
                            .isNotIn(Status.Code.INTERNAL.value(), Status.Code.UNKNOWN.value()));
        default ->
            assertThat(
                    stub.reEncryptBatch(
                            ReEncryptBatchRequest.newBuilder()
                                .setKeyName(keyName)
                                .addItems(
                                    ReEncryptBatchItem.newBuilder()
                                        .setCiphertext(ciphertext)
                                        .setContext(context)
                                        .setExpectedKey(expectedKey))
                                .build())
                        .getResultsList())
                .singleElement()
                .satisfies(
                    r ->
                        assertThat(r.getError().getCode())
                            .isNotIn(Status.Code.INTERNAL.value(), Status.Code.UNKNOWN.value()));
      }
    } catch (StatusRuntimeException e) {
      assertThat(e.getStatus().getCode()).as("status %s", e.getStatus()).isIn(EXPECTED);
      assertThat(e.getStatus().getDescription()).isNotBlank();
    }
  }

  /**
   * An expected_key: none, a key's name or a prefix of it with '*' (which the ciphertext may or may
   * not be under), or any text.
   */
  private static String expectedKey(FuzzedDataProvider data) {
    return switch (data.consumeInt(0, 3)) {
      case 0 -> "";
      case 1 -> data.pickValue(KEYS);
      case 2 -> data.pickValue(KEYS).substring(0, data.consumeInt(0, 4)) + "*";
      default -> data.consumeString(80);
    };
  }

  /**
   * A subject: none, one of a few (one of them erased), or any text (too long, not UTF-8 as sent,
   * empty); the creation rate is unlimited here, so only the request decides the status.
   */
  private static String subject(FuzzedDataProvider data) {
    return switch (data.consumeInt(0, 3)) {
      case 0 -> "";
      case 1, 2 -> data.pickValue(SUBJECTS);
      default -> data.consumeString(300);
    };
  }

  /** A valid ciphertext with a few fuzzer-chosen characters changed, dropped or appended. */
  private static String mutate(String ciphertext, FuzzedDataProvider data) {
    StringBuilder text = new StringBuilder(ciphertext);
    int edits = data.consumeInt(0, 4);
    for (int i = 0; i < edits && text.length() > 0; i++) {
      int at = data.consumeInt(0, text.length() - 1);
      switch (data.consumeInt(0, 2)) {
        case 0 -> text.setCharAt(at, data.consumeChar());
        case 1 -> text.deleteCharAt(at);
        default -> text.insert(at, data.consumeChar());
      }
    }
    return text.toString();
  }

  private static synchronized CryptoServiceGrpc.CryptoServiceBlockingStub stub()
      throws IOException {
    if (crypto == null) {
      Cipherd services =
          Cipherd.builder(new InMemoryKeyStore())
              .subjectStore(new MemorySubjectStore())
              .limits(new RequestLimits(16))
              .blockingThreads(2)
              .blockingQueue(100)
              .subjectKeys(
                  new SubjectKeysConfig(
                      SubjectKeysConfig.DEFAULT_CACHE_SIZE,
                      SubjectKeysConfig.DEFAULT_CACHE_TTL,
                      /* creationRate= */ 0))
              .build();
      String name = InProcessServerBuilder.generateName();
      services.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
      ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
      var admin = KeyAdminServiceGrpc.newBlockingStub(channel);
      admin.createKey(CreateKeyRequest.newBuilder().setKeyName("gcm-key").build());
      admin.createKey(
          CreateKeyRequest.newBuilder().setKeyName("chacha-key").setMode(Mode.MODE_CHACHA).build());
      admin.createKey(
          CreateKeyRequest.newBuilder()
              .setKeyName("cbc-key")
              .setMode(Mode.MODE_CBC)
              .setAllowUnauthenticated(true)
              .build());
      admin.createKey(
          CreateKeyRequest.newBuilder()
              .setKeyName("ctr-key")
              .setMode(Mode.MODE_CTR)
              .setAllowUnauthenticated(true)
              .build());
      admin.createKey(
          CreateKeyRequest.newBuilder()
              .setKeyName("ecb-key")
              .setMode(Mode.MODE_ECB)
              .setAllowUnauthenticated(true)
              .build());
      crypto = CryptoServiceGrpc.newBlockingStub(channel);
      List<EncryptRequest> seeds =
          new ArrayList<>(
              KEYS.stream().filter(k -> !k.equals("ecb-key")).map(k -> seed(k, "")).toList());
      seeds.add(seed("gcm-key", "user-1"));
      seeds.add(seed("chacha-key", "user-2"));
      seeds.add(seed("gcm-key", "fuzz-erased"));
      validCiphertexts = seeds.stream().map(r -> crypto.encrypt(r).getCiphertext()).toList();
      SubjectServiceGrpc.newBlockingStub(channel)
          .eraseSubject(
              EraseSubjectRequest.newBuilder()
                  .setKeyName("gcm-key")
                  .setSubject("fuzz-erased")
                  .build());
    }
    return crypto;
  }

  /** A seed ciphertext's request: under keyName, sealed under subject's key unless it is "". */
  private static EncryptRequest seed(String keyName, String subject) {
    return EncryptRequest.newBuilder()
        .setKeyName(keyName)
        .setPlaintext(ByteString.copyFromUtf8("seed plaintext for " + keyName))
        .setSubject(subject)
        .build();
  }
}
