package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResponse;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GenerateDataKeyResponse;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.InspectResponse;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.cipherd.server.subjectkeys.SubjectKeysConfig;
import io.cipherd.server.subjects.CountingSubjectStore;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Subject-bound Encrypt, Decrypt, ReEncrypt, batches, GenerateDataKey and Inspect in-process. */
class SubjectBoundApiTest {
  private static final ByteString EMAIL = ByteString.copyFromUtf8("ada@example.com");
  private static final ByteString CONTEXT = ByteString.copyFromUtf8("users.email");

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;
  private CountingSubjectStore store;

  @BeforeEach
  void start() throws Exception {
    store = new CountingSubjectStore(new MemorySubjectStore());
    cipherd =
        InProcessCipherd.start(
            dataDir,
            builder ->
                builder
                    .limits(new RequestLimits(256))
                    .subjectStore(store)
                    .subjectKeys(new SubjectKeysConfig(1000, Duration.ofMinutes(5), 100)));
    createKey("users", Mode.MODE_GCM);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"MODE_GCM", "MODE_CHACHA", "MODE_XGCM"})
  void encrypt_forSubject_roundTrips(Mode mode) {
    createKey("k", mode);
    String ciphertext = encrypt("k", "user-8812", EMAIL);

    String modeName = mode.name().substring(5).toLowerCase();
    assertThat(ciphertext).startsWith("<k/s:" + modeName + ">");
    assertThat(decrypt(ciphertext)).isEqualTo(EMAIL);
  }

  @Test
  void encrypt_sameSubjectTwice_sharesTheRef_notTheNonce() {
    String first = encrypt("users", "user-1", EMAIL);
    String second = encrypt("users", "user-1", EMAIL);
    String other = encrypt("users", "user-2", EMAIL);

    assertThat(first).isNotEqualTo(second);
    // The 16-byte ref is the first 21⅓ base64 characters after the header: the first 20 agree.
    assertThat(first.substring(12, 32)).isEqualTo(second.substring(12, 32));
    assertThat(first.substring(12, 32)).isNotEqualTo(other.substring(12, 32));
  }

  @Test
  void decrypt_needsTheSameContext() {
    String ciphertext = encrypt("users", "user-1", EMAIL);
    StatusRuntimeException e =
        failure(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.crypto.decrypt(
                    DecryptRequest.newBuilder().setCiphertext(ciphertext).build()));
    assertThat(StatusMapperTest.reason(e)).isEqualTo("DECRYPTION_FAILED");
  }

  @Test
  void decrypt_afterRotation_stillWorks_andNewSubjectsWrapUnderTheNewVersion() {
    String before = encrypt("users", "user-1", EMAIL);
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("users").build());
    String after = encrypt("users", "user-2", EMAIL);

    assertThat(decrypt(before)).isEqualTo(EMAIL);
    assertThat(decrypt(after)).isEqualTo(EMAIL);
    // The new subject is wrapped under v2 at once; the old one moves there by the sweep that
    // RotateKey starts in the background.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!store.delegate().countByWrapVersion("users").equals(Map.of(2, 2L))
        && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(store.delegate().countByWrapVersion("users")).isEqualTo(Map.of(2, 2L));
    cipherd.services.subjectKeys().forgetKey("users");
    assertThat(decrypt(before)).isEqualTo(EMAIL);
  }

  @Test
  void subject_withKeyVersion_isInvalidArgument() {
    Status status =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.crypto.encrypt(
                    EncryptRequest.newBuilder()
                        .setKeyName("users")
                        .setSubject("user-1")
                        .setKeyVersion(1)
                        .setPlaintext(EMAIL)
                        .build()));
    assertThat(status.getDescription()).contains("key_version").doesNotContain("user-1");
  }

  @Test
  void subject_tooLong_isInvalidArgument_withoutEchoingIt() {
    String longId = "x".repeat(257);
    Status status = failsWith(Status.Code.INVALID_ARGUMENT, () -> encrypt("users", longId, EMAIL));
    assertThat(status.getDescription()).contains("256").doesNotContain("xxxx");
  }

  @Test
  void subject_onAKeyThatCannotBindIt_isPolicyDenied() {
    createKey("det", Mode.MODE_SIV);
    StatusRuntimeException e =
        failure(Status.Code.FAILED_PRECONDITION, () -> encrypt("det", "user-1", EMAIL));
    assertThat(StatusMapperTest.reason(e)).isEqualTo("POLICY_DENIED");
    assertThat(e.getStatus().getDescription()).contains("gcm, chacha and xgcm");
  }

  @Test
  void refSwappedBetweenTwoCiphertexts_failsToDecrypt() {
    String a = encrypt("users", "user-a", EMAIL);
    String b = encrypt("users", "user-b", EMAIL);
    // The first 20 base64 characters of the payload hold 15 bytes of the ref, the 21st its
    // 16th byte's high bits; 24 characters hold the ref and 2 bytes of the nonce.
    int header = "<users/s:gcm>".length();
    String swapped =
        a.substring(0, header) + b.substring(header, header + 20) + a.substring(header + 20);

    StatusRuntimeException e = failure(Status.Code.INVALID_ARGUMENT, () -> decrypt(swapped));
    assertThat(StatusMapperTest.reason(e)).isEqualTo("DECRYPTION_FAILED");
  }

  @Test
  void reEncrypt_sameKey_keepsTheSubject_withAFreshNonce() {
    String ciphertext = encrypt("users", "user-1", EMAIL);
    ReEncryptResponse rewrapped =
        cipherd.crypto.reEncrypt(
            ReEncryptRequest.newBuilder().setCiphertext(ciphertext).setContext(CONTEXT).build());

    assertThat(rewrapped.getCiphertext()).startsWith("<users/s:gcm>").isNotEqualTo(ciphertext);
    assertThat(rewrapped.getCiphertext().substring(13, 33)).isEqualTo(ciphertext.substring(13, 33));
    assertThat(decrypt(rewrapped.getCiphertext())).isEqualTo(EMAIL);
  }

  @Test
  void reEncrypt_toAnotherKey_findsTheSameSubjectThere() {
    createKey("archive", Mode.MODE_CHACHA);
    String ciphertext = encrypt("users", "user-1", EMAIL);
    ReEncryptResponse rewrapped =
        cipherd.crypto.reEncrypt(
            ReEncryptRequest.newBuilder()
                .setCiphertext(ciphertext)
                .setContext(CONTEXT)
                .setKeyName("archive")
                .build());
    String direct = encrypt("archive", "user-1", EMAIL);

    assertThat(rewrapped.getCiphertext()).startsWith("<archive/s:chacha>");
    assertThat(decrypt(rewrapped.getCiphertext())).isEqualTo(EMAIL);
    // The subject under "archive" is the one a direct encryption for user-1 finds.
    assertThat(rewrapped.getCiphertext().substring(18, 38)).isEqualTo(direct.substring(18, 38));
  }

  @Test
  void inspect_saysSubjectBound_versionZero_notBehind() {
    String ciphertext = encrypt("users", "user-1", EMAIL);
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("users").build());
    InspectResponse inspected =
        cipherd.crypto.inspect(InspectRequest.newBuilder().setCiphertext(ciphertext).build());

    assertThat(inspected.getSubjectBound()).isTrue();
    assertThat(inspected.getKeyVersion()).isZero();
    assertThat(inspected.getCurrentVersion()).isEqualTo(2);
    assertThat(inspected.getBehindCurrent()).isFalse();
  }

  @Test
  void generateDataKey_forSubject_wrapsIt_subjectBound() {
    GenerateDataKeyResponse dataKey =
        cipherd.crypto.generateDataKey(
            GenerateDataKeyRequest.newBuilder().setKeyName("users").setSubject("user-1").build());

    assertThat(dataKey.getWrappedKey()).startsWith("<users/s:gcm>");
    assertThat(
            cipherd
                .crypto
                .decrypt(DecryptRequest.newBuilder().setCiphertext(dataKey.getWrappedKey()).build())
                .getPlaintext())
        .isEqualTo(dataKey.getPlaintextKey());
  }

  @Test
  void encryptBatch_of256ColdSubjects_isOneFindAndOneCreate() {
    EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName("users");
    for (int i = 0; i < 256; i++) {
      batch.addItems(
          EncryptBatchItem.newBuilder()
              .setReference("r" + i)
              .setSubject("user-" + i)
              .setPlaintext(EMAIL)
              .setContext(CONTEXT));
    }
    store.reset();
    EncryptBatchResponse encrypted = cipherd.crypto.encryptBatch(batch.build());

    assertThat(encrypted.getResultsList()).allSatisfy(r -> assertThat(r.hasError()).isFalse());
    assertThat(store.finds()).isEqualTo(1);
    assertThat(store.creates()).isEqualTo(1);
    assertThat(store.rowsCreated()).isEqualTo(256);

    // Decrypted by a server that has none of them cached: one findByRef for the batch.
    cipherd.services.subjectKeys().forgetKey("users");
    DecryptBatchRequest.Builder decrypt = DecryptBatchRequest.newBuilder();
    encrypted
        .getResultsList()
        .forEach(
            r ->
                decrypt.addItems(
                    DecryptBatchItem.newBuilder()
                        .setReference(r.getReference())
                        .setCiphertext(r.getCiphertext())
                        .setContext(CONTEXT)));
    store.reset();
    DecryptBatchResponse decrypted = cipherd.crypto.decryptBatch(decrypt.build());

    assertThat(decrypted.getResultsList())
        .allSatisfy(r -> assertThat(r.getPlaintext()).isEqualTo(EMAIL));
    assertThat(store.findsByRef()).isEqualTo(1);

    // Warm now: the batch reads nothing.
    store.reset();
    assertThat(cipherd.crypto.decryptBatch(decrypt.build()).getResultsList())
        .allSatisfy(r -> assertThat(r.getPlaintext()).isEqualTo(EMAIL));
    assertThat(store.findsByRef()).isZero();

    // Half of them cold again (their key's versions changed), the other half warm: still one read.
    cipherd.services.subjectKeys().forgetKey("users");
    DecryptBatchRequest.Builder half = DecryptBatchRequest.newBuilder();
    for (int i = 0; i < 128; i++) {
      half.addItems(decrypt.getItems(i));
    }
    cipherd.crypto.decryptBatch(half.build());
    store.reset();
    assertThat(cipherd.crypto.decryptBatch(decrypt.build()).getResultsList())
        .allSatisfy(r -> assertThat(r.getPlaintext()).isEqualTo(EMAIL));
    assertThat(store.findsByRef()).isEqualTo(1);
  }

  /** 256 subject-bound ciphertexts of distinct subjects, as a DecryptBatch, none of them cached. */
  private DecryptBatchRequest coldBatchOf256() {
    EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName("users");
    for (int i = 0; i < 256; i++) {
      batch.addItems(
          EncryptBatchItem.newBuilder()
              .setSubject("user-" + i)
              .setPlaintext(EMAIL)
              .setContext(CONTEXT));
    }
    DecryptBatchRequest.Builder decrypt = DecryptBatchRequest.newBuilder();
    for (var r : cipherd.crypto.encryptBatch(batch.build()).getResultsList()) {
      decrypt.addItems(
          DecryptBatchItem.newBuilder().setCiphertext(r.getCiphertext()).setContext(CONTEXT));
    }
    cipherd.services.subjectKeys().forgetKey("users");
    store.reset();
    return decrypt.build();
  }

  @Test
  void decryptBatch_whoseStoreRoundTripFails_asksTheStoreOnce_coldItemsFailUnavailable() {
    DecryptBatchRequest batch = coldBatchOf256();
    // The first half warm: their keys are cached before the store stops answering.
    cipherd.crypto.decryptBatch(
        batch.toBuilder().clearItems().addAllItems(batch.getItemsList().subList(0, 128)).build());
    store.reset();
    store.failing(true);

    List<DecryptBatchResult> results = cipherd.crypto.decryptBatch(batch).getResultsList();

    // Before, each cold item asked the stalled store again in turn: a 4,096-item batch held its
    // thread for 4,096 statement timeouts.
    assertThat(store.findsByRef()).isEqualTo(1);
    assertThat(results.subList(0, 128))
        .allSatisfy(r -> assertThat(r.getPlaintext()).isEqualTo(EMAIL));
    assertThat(results.subList(128, 256))
        .allSatisfy(
            r -> {
              assertThat(r.getError().getReason()).isEqualTo("STORE_UNAVAILABLE");
              assertThat(r.getError().getCode()).isEqualTo(Status.Code.UNAVAILABLE.value());
            });

    store.failing(false);
    store.reset();
    assertThat(cipherd.crypto.decryptBatch(batch).getResultsList())
        .allSatisfy(r -> assertThat(r.getPlaintext()).isEqualTo(EMAIL));
    assertThat(store.findsByRef()).isEqualTo(1);
  }

  @Test
  void reEncryptBatch_ofColdSubjectsIntoAnotherKey_isOneLookupThere_andOneCreation() {
    createKey("people", Mode.MODE_GCM);
    DecryptBatchRequest cold = coldBatchOf256();
    ReEncryptBatchRequest.Builder rewrap = ReEncryptBatchRequest.newBuilder().setKeyName("people");
    for (DecryptBatchItem item : cold.getItemsList()) {
      rewrap.addItems(
          ReEncryptBatchItem.newBuilder()
              .setCiphertext(item.getCiphertext())
              .setContext(item.getContext()));
    }

    List<ReEncryptBatchResult> results =
        cipherd.crypto.reEncryptBatch(rewrap.build()).getResultsList();

    // Before, each item looked its subject up under "people" and made it there: 256 and 256.
    assertThat(store.findsByRef()).isEqualTo(1);
    assertThat(store.finds()).isEqualTo(1);
    assertThat(store.creates()).isEqualTo(1);
    assertThat(store.rowsCreated()).isEqualTo(256);
    assertThat(results).allSatisfy(r -> assertThat(r.getCiphertext()).startsWith("<people/s:gcm>"));
    for (int i = 0; i < 256; i += 51) {
      assertThat(decrypt(results.get(i).getCiphertext())).isEqualTo(EMAIL);
      // The same subject's data under both keys: one subject, two keys.
      assertThat(encrypt("people", "user-" + i, EMAIL).substring(0, 34))
          .isEqualTo(results.get(i).getCiphertext().substring(0, 34));
    }
  }

  /**
   * An EncryptBatch whose subjects' keys are all cached needs no store, so it runs where a plain
   * one whose key is cached does, on the transport thread: it is answered while every blocking
   * thread waits for a stalled subject store, where it used to queue behind them. A batch with one
   * cold subject still takes the blocking pool.
   */
  @Test
  void encryptBatchAndDecrypt_ofWarmSubjects_areAnsweredWhileTheBlockingPoolWaitsForTheStore()
      throws Exception {
    EncryptBatchRequest.Builder warm = EncryptBatchRequest.newBuilder().setKeyName("users");
    for (int i = 0; i < 64; i++) {
      warm.addItems(EncryptBatchItem.newBuilder().setSubject("warm-" + i).setPlaintext(EMAIL));
    }
    cipherd.crypto.encryptBatch(warm.build());
    store.latency(Duration.ofMillis(1500));
    List<StreamRecorder<EncryptResponse>> cold = stallBlockingPool(cipherd.cryptoAsync, "a");

    long start = System.nanoTime();
    EncryptBatchResponse answered = cipherd.crypto.encryptBatch(warm.build());
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    start = System.nanoTime();
    String opened =
        cipherd
            .crypto
            .decrypt(
                DecryptRequest.newBuilder()
                    .setCiphertext(answered.getResults(7).getCiphertext())
                    .build())
            .getPlaintext()
            .toStringUtf8();
    long decryptMillis = (System.nanoTime() - start) / 1_000_000;
    int findsBefore = store.finds();
    StreamRecorder<EncryptBatchResponse> oneCold = new StreamRecorder<>();
    cipherd.cryptoAsync.encryptBatch(
        warm.clone()
            .addItems(EncryptBatchItem.newBuilder().setSubject("cold-x").setPlaintext(EMAIL))
            .build(),
        oneCold);

    assertThat(answered.getResultsList())
        .hasSize(64)
        .allSatisfy(r -> assertThat(r.getCiphertext()).startsWith("<users/s:gcm>"));
    assertThat(tookMillis)
        .as("the warm batch took %d ms; the blocking threads are held for 3,000 ms", tookMillis)
        .isLessThan(1_000);
    assertThat(opened).isEqualTo(EMAIL.toStringUtf8());
    assertThat(decryptMillis)
        .as("a warm subject's Decrypt took %d ms", decryptMillis)
        .isLessThan(1_000);
    for (StreamRecorder<EncryptResponse> answer : cold) {
      assertThat(answer.awaitValues(30)).hasSize(1);
    }
    assertThat(oneCold.awaitValues(30).get(0).getResultsList())
        .hasSize(65)
        .allSatisfy(r -> assertThat(r.getCiphertext()).startsWith("<users/s:gcm>"));
    assertThat(store.finds() - findsBefore)
        .as("the batch with one cold subject read the store")
        .isEqualTo(1);
  }

  /**
   * Where a call runs shows in how long it takes, so a caller who may not encrypt (or decrypt) with
   * the key is never sent to the transport thread for warm subjects: its refusal takes the blocking
   * pool whether the subjects were used lately or not, and tells it nothing about them.
   */
  @Test
  void warmSubjects_forACallerWithoutTheGrant_areRefusedAsColdOnesAre() throws Exception {
    AccessPolicy policy =
        AccessPolicyFile.parse(
            "test",
            new StringReader(
                """
                callers:
                  writer:
                    token_sha256: %s
                    rules:
                      - keys: [users]
                        operations: [encrypt, admin]
                  reader:
                    token_sha256: %s
                    rules:
                      - keys: [users]
                        operations: [decrypt]
                """
                    .formatted(tokenHash("writer"), tokenHash("reader"))));
    CountingSubjectStore slow = new CountingSubjectStore(new MemorySubjectStore());
    try (InProcessCipherd guarded =
        InProcessCipherd.start(
            dataDir.resolve("guarded"),
            builder -> builder.accessPolicy(policy).subjectStore(slow))) {
      as("writer", guarded.admin)
          .createKey(
              CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
      EncryptRequest warm =
          EncryptRequest.newBuilder()
              .setKeyName("users")
              .setSubject("warm")
              .setPlaintext(EMAIL)
              .build();
      String sealed = as("writer", guarded.crypto).encrypt(warm).getCiphertext();
      DecryptRequest open = DecryptRequest.newBuilder().setCiphertext(sealed).build();
      slow.latency(Duration.ofMillis(1500));

      // Each probe with every blocking thread waiting for the store.
      List<StreamRecorder<EncryptResponse>> stalled =
          stallBlockingPool(as("writer", guarded.cryptoAsync), "a");
      long writerMillis = millis(() -> as("writer", guarded.crypto).encrypt(warm));
      long readerOpenMillis = millis(() -> as("reader", guarded.crypto).decrypt(open));
      StatusRuntimeException[] refused = new StatusRuntimeException[2];
      long readerMillis =
          millis(
              () ->
                  refused[0] =
                      catchThrowableOfType(
                          StatusRuntimeException.class,
                          () -> as("reader", guarded.crypto).encrypt(warm)));
      stalled.addAll(stallBlockingPool(as("writer", guarded.cryptoAsync), "b"));
      long writerOpenMillis =
          millis(
              () ->
                  refused[1] =
                      catchThrowableOfType(
                          StatusRuntimeException.class,
                          () -> as("writer", guarded.crypto).decrypt(open)));

      assertThat(writerMillis)
          .as("the writer's warm Encrypt: %d ms", writerMillis)
          .isLessThan(1_000);
      assertThat(readerOpenMillis)
          .as("the reader's warm Decrypt: %d ms", readerOpenMillis)
          .isLessThan(1_000);
      assertThat(refused)
          .allSatisfy(
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED));
      assertThat(readerMillis)
          .as(
              "the reader's refused Encrypt waited for the pool as for a cold subject: %d ms",
              readerMillis)
          .isGreaterThan(1_000);
      assertThat(writerOpenMillis)
          .as("the writer's refused Decrypt waited for the pool: %d ms", writerOpenMillis)
          .isGreaterThan(1_000);
      for (StreamRecorder<EncryptResponse> answer : stalled) {
        assertThat(answer.awaitValues(30)).hasSize(1);
      }
    }
  }

  /**
   * Four Encrypts for new subjects through {@code crypto}, as many as the pool has threads, each
   * waiting for the slowed store (a find, then a creation); returns once they have had time to
   * start.
   */
  private static List<StreamRecorder<EncryptResponse>> stallBlockingPool(
      CryptoServiceGrpc.CryptoServiceStub crypto, String round) throws InterruptedException {
    List<StreamRecorder<EncryptResponse>> stalled = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      StreamRecorder<EncryptResponse> answer = new StreamRecorder<>();
      crypto.encrypt(
          EncryptRequest.newBuilder()
              .setKeyName("users")
              .setSubject("cold-" + round + i)
              .setPlaintext(EMAIL)
              .build(),
          answer);
      stalled.add(answer);
    }
    Thread.sleep(200);
    return stalled;
  }

  private static long millis(Runnable call) {
    long start = System.nanoTime();
    call.run();
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void decryptBatch_ofForgedSubjectReferences_isOneStoreRoundTrip_eachFailingAsForged() {
    String genuine = coldBatchOf256().getItems(0).getCiphertext();
    int payload = genuine.indexOf('>') + 1;
    String alphabet = "ABCDEFGHIJKLMNOP";
    DecryptBatchRequest.Builder forged = DecryptBatchRequest.newBuilder();
    // The reference is the payload's first 16 bytes: two base64 characters of it, 256 ways.
    for (int i = 0; i < 256; i++) {
      String ciphertext =
          genuine.substring(0, payload)
              + alphabet.charAt(i / 16)
              + alphabet.charAt(i % 16)
              + genuine.substring(payload + 2);
      if (!ciphertext.equals(genuine)) {
        forged.addItems(
            DecryptBatchItem.newBuilder().setCiphertext(ciphertext).setContext(CONTEXT));
      }
    }

    List<DecryptBatchResult> results = cipherd.crypto.decryptBatch(forged.build()).getResultsList();

    // Before, every item whose row the batch's round-trip had not found asked again: 256 more.
    assertThat(store.findsByRef()).isEqualTo(1);
    assertThat(results)
        .hasSize(forged.getItemsCount())
        .allSatisfy(r -> assertThat(r.getError().getReason()).isEqualTo("DECRYPTION_FAILED"));
  }

  @Test
  void encryptBatch_batchSubject_appliesToItemsWithoutOne() {
    EncryptBatchResponse encrypted =
        cipherd.crypto.encryptBatch(
            EncryptBatchRequest.newBuilder()
                .setKeyName("users")
                .setSubject("user-1")
                .addItems(EncryptBatchItem.newBuilder().setReference("a").setPlaintext(EMAIL))
                .addItems(
                    EncryptBatchItem.newBuilder()
                        .setReference("b")
                        .setSubject("user-2")
                        .setPlaintext(EMAIL))
                .build());
    String a = encrypted.getResults(0).getCiphertext();
    String b = encrypted.getResults(1).getCiphertext();
    String direct =
        cipherd
            .crypto
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("users")
                    .setSubject("user-1")
                    .setPlaintext(EMAIL)
                    .build())
            .getCiphertext();

    assertThat(a.substring(13, 33)).isEqualTo(direct.substring(13, 33));
    assertThat(b.substring(13, 33)).isNotEqualTo(direct.substring(13, 33));
  }

  @Test
  void encryptStream_andDecryptStream_withSubjects_answerEveryItem() throws Exception {
    StreamRecorder<EncryptStreamResponse> encrypted = new StreamRecorder<>();
    StreamObserver<EncryptStreamRequest> toEncrypt = cipherd.cryptoAsync.encryptStream(encrypted);
    for (int i = 0; i < 20; i++) {
      toEncrypt.onNext(
          EncryptStreamRequest.newBuilder()
              .setReference("e" + i)
              .setKeyName("users")
              // Item 7 names a subject longer than 256 bytes: its own error only.
              .setSubject(i == 7 ? "x".repeat(300) : "user-" + (i % 5))
              .setPlaintext(ByteString.copyFromUtf8("row " + i))
              .setContext(CONTEXT)
              .build());
    }
    toEncrypt.onCompleted();
    List<EncryptStreamResponse> ciphertexts = encrypted.awaitValues(30);

    assertThat(ciphertexts).hasSize(20);
    assertThat(ciphertexts.get(7).getResult().getError().getReason()).isEqualTo("INVALID_ARGUMENT");
    StreamRecorder<DecryptStreamResponse> decrypted = new StreamRecorder<>();
    StreamObserver<DecryptStreamRequest> toDecrypt = cipherd.cryptoAsync.decryptStream(decrypted);
    for (int i = 0; i < 20; i++) {
      if (i != 7) {
        String ciphertext = ciphertexts.get(i).getResult().getCiphertext();
        assertThat(ciphertext).startsWith("<users/s:gcm>");
        toDecrypt.onNext(
            DecryptStreamRequest.newBuilder()
                .setReference("d" + i)
                .setCiphertext(ciphertext)
                .setContext(CONTEXT)
                .build());
      }
    }
    toDecrypt.onCompleted();
    List<DecryptStreamResponse> plaintexts = decrypted.awaitValues(30);

    assertThat(plaintexts).hasSize(19);
    for (DecryptStreamResponse plaintext : plaintexts) {
      String n = plaintext.getResult().getReference().substring(1);
      assertThat(plaintext.getResult().getPlaintext().toStringUtf8()).isEqualTo("row " + n);
    }
  }

  @Test
  void encryptStream_andDecryptStream_overColdSubjects_readyQueuedItemsInOneRoundTripEach()
      throws Exception {
    int items = 64;
    // A store 5 ms away, as a database is over a network: items queue while one waits for it.
    CountingSubjectStore slow =
        new CountingSubjectStore(new MemorySubjectStore(), Duration.ofMillis(5));
    try (InProcessCipherd remote = usersServerOn(slow)) {
      coldSubjectStreams(remote, slow, items);
    }
  }

  /**
   * A stream whose run of queued items found the subject store failing fails that run's items that
   * need the store at once, with its error, as a batch does: before, each asked the store again in
   * turn, and against a stalled database each waited out the statement timeout. The next run asks
   * again, so the stream serves once the store does.
   */
  @Test
  void streams_whoseRunFindsTheStoreFailing_failItsItemsAtOnce_andAskAgainNextRun()
      throws Exception {
    int items = 64;
    CountingSubjectStore slow =
        new CountingSubjectStore(new MemorySubjectStore(), Duration.ofMillis(5));
    try (InProcessCipherd remote = usersServerOn(slow)) {
      List<String> ciphertexts = new ArrayList<>();
      for (EncryptStreamResponse r : encryptStream(remote, "cold-", items)) {
        ciphertexts.add(r.getResult().getCiphertext());
      }
      remote.services.subjectKeys().forgetKey("users");
      slow.reset();
      slow.failing(true);

      List<DecryptStreamResponse> refused = decryptStream(remote, ciphertexts);
      List<EncryptStreamResponse> notMade = encryptStream(remote, "new-", items);

      System.out.printf(
          "streams of %d cold items against a failing store: %d finds by reference, %d finds%n",
          items, slow.findsByRef(), slow.finds());
      assertThat(refused)
          .hasSize(items)
          .allSatisfy(
              r -> assertThat(r.getResult().getError().getReason()).isEqualTo("STORE_UNAVAILABLE"));
      assertThat(notMade)
          .hasSize(items)
          .allSatisfy(
              r -> assertThat(r.getResult().getError().getReason()).isEqualTo("STORE_UNAVAILABLE"));
      // One round trip per run of queued items (up to the window of 16); before, one per item too.
      assertThat(slow.findsByRef()).isLessThanOrEqualTo(items / 4);
      assertThat(slow.finds()).isLessThanOrEqualTo(items / 4);
      assertThat(slow.creates()).isZero();

      // A ReEncryptStream's run readies its source subjects the same way (it read each alone).
      slow.reset();
      List<ReEncryptStreamResponse> stillRefused = reEncryptStream(remote, ciphertexts);
      assertThat(stillRefused)
          .hasSize(items)
          .allSatisfy(
              r -> assertThat(r.getResult().getError().getReason()).isEqualTo("STORE_UNAVAILABLE"));
      assertThat(slow.findsByRef()).isLessThanOrEqualTo(items / 4);

      slow.failing(false);
      slow.reset();
      assertThat(reEncryptStream(remote, ciphertexts))
          .hasSize(items)
          .allSatisfy(r -> assertThat(r.getResult().getCiphertext()).startsWith("<users/s:gcm>"));
      assertThat(slow.findsByRef()).isBetween(1, items / 4);
      assertThat(decryptStream(remote, ciphertexts))
          .hasSize(items)
          .allSatisfy(
              r -> assertThat(r.getResult().getPlaintext().toStringUtf8()).startsWith("row "));
    }
  }

  /** A server of its own on {@code store}, with the gcm key "users". */
  private InProcessCipherd usersServerOn(CountingSubjectStore store) throws Exception {
    InProcessCipherd server =
        InProcessCipherd.start(dataDir.resolve("remote"), builder -> builder.subjectStore(store));
    server.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
    return server;
  }

  private static List<EncryptStreamResponse> encryptStream(
      InProcessCipherd cipherd, String subjectPrefix, int items) throws Exception {
    StreamRecorder<EncryptStreamResponse> encrypted = new StreamRecorder<>();
    StreamObserver<EncryptStreamRequest> toEncrypt = cipherd.cryptoAsync.encryptStream(encrypted);
    for (int i = 0; i < items; i++) {
      toEncrypt.onNext(
          EncryptStreamRequest.newBuilder()
              .setReference("e" + i)
              .setKeyName("users")
              .setSubject(subjectPrefix + i)
              .setPlaintext(ByteString.copyFromUtf8("row " + i))
              .build());
    }
    toEncrypt.onCompleted();
    return encrypted.awaitValues(60);
  }

  private static List<DecryptStreamResponse> decryptStream(
      InProcessCipherd cipherd, List<String> ciphertexts) throws Exception {
    StreamRecorder<DecryptStreamResponse> decrypted = new StreamRecorder<>();
    StreamObserver<DecryptStreamRequest> toDecrypt = cipherd.cryptoAsync.decryptStream(decrypted);
    for (int i = 0; i < ciphertexts.size(); i++) {
      toDecrypt.onNext(
          DecryptStreamRequest.newBuilder()
              .setReference("d" + i)
              .setCiphertext(ciphertexts.get(i))
              .build());
    }
    toDecrypt.onCompleted();
    return decrypted.awaitValues(60);
  }

  private static List<ReEncryptStreamResponse> reEncryptStream(
      InProcessCipherd cipherd, List<String> ciphertexts) throws Exception {
    StreamRecorder<ReEncryptStreamResponse> rewrapped = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> toRewrap =
        cipherd.cryptoAsync.reEncryptStream(rewrapped);
    for (int i = 0; i < ciphertexts.size(); i++) {
      toRewrap.onNext(
          ReEncryptStreamRequest.newBuilder()
              .setReference("r" + i)
              .setKeyName("users")
              .setCiphertext(ciphertexts.get(i))
              .build());
    }
    toRewrap.onCompleted();
    return rewrapped.awaitValues(60);
  }

  private static void coldSubjectStreams(
      InProcessCipherd cipherd, CountingSubjectStore store, int items) throws Exception {
    List<EncryptStreamResponse> encrypted = encryptStream(cipherd, "cold-", items);
    int finds = store.finds();
    int creates = store.creates();

    assertThat(encrypted).hasSize(items);
    List<String> ciphertexts = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      assertThat(encrypted.get(i).getResult().getReference()).isEqualTo("e" + i);
      assertThat(encrypted.get(i).getResult().getCiphertext()).startsWith("<users/s:gcm>");
      ciphertexts.add(encrypted.get(i).getResult().getCiphertext());
    }
    assertThat(store.rowsCreated()).isEqualTo(items);

    // A store fresh to this server: the decrypting side's subject keys are cold too.
    cipherd.services.subjectKeys().forgetKey("users");
    List<DecryptStreamResponse> plaintexts = decryptStream(cipherd, ciphertexts);
    System.out.printf(
        "EncryptStream of %d items over %d new subjects: %d finds, %d creates; DecryptStream of"
            + " them, cold: %d finds by reference%n",
        items, items, finds, creates, store.findsByRef());

    for (int i = 0; i < items; i++) {
      assertThat(plaintexts.get(i).getResult().getPlaintext().toStringUtf8()).isEqualTo("row " + i);
    }
    // One item at a time took a round trip each (64); queued items share one. The window is 16
    // requests, so a run of queued items is up to 16 long; a quarter of the items bounds it
    // loosely.
    assertThat(finds).isLessThanOrEqualTo(items / 4);
    assertThat(creates).isLessThanOrEqualTo(items / 4);
    assertThat(store.findsByRef()).isLessThanOrEqualTo(items / 4);
  }

  private void createKey(String name, Mode mode) {
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName(name).setMode(mode).build());
  }

  private String encrypt(String key, String subject, ByteString plaintext) {
    return cipherd
        .crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setSubject(subject)
                .setPlaintext(plaintext)
                .setContext(CONTEXT)
                .build())
        .getCiphertext();
  }

  private ByteString decrypt(String ciphertext) {
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).setContext(CONTEXT).build())
        .getPlaintext();
  }

  /** The call's failure, once it failed with {@code code}. */
  static StatusRuntimeException failure(Status.Code code, ThrowingCallable call) {
    failsWith(code, call);
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call);
    return e;
  }

  /** The ErrorInfo of {@code e}. */
  static ErrorInfo info(StatusRuntimeException e) {
    try {
      return StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class);
    } catch (Exception notErrorInfo) {
      throw new AssertionError(notErrorInfo);
    }
  }
}
