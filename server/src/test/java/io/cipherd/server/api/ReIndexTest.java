package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.ComputeIndexResponse;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyCensusResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyVersionUsage;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.Normalization;
import io.cipherd.api.v1.ReIndexBatchItem;
import io.cipherd.api.v1.ReIndexBatchRequest;
import io.cipherd.api.v1.ReIndexBatchResponse;
import io.cipherd.api.v1.ReIndexBatchResult;
import io.cipherd.api.v1.ReIndexRequest;
import io.cipherd.api.v1.ReIndexResponse;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.security.AccessPolicyFile;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ReIndex and ReIndexBatch in-process under an access policy, and all-versions lookups counted
 * apart: an index key rotated, its rows re-indexed by a caller without {@code decrypt}, and its old
 * version retired while lookups still ask for it.
 */
class ReIndexTest {
  private static final ByteString COLUMN = ByteString.copyFromUtf8("accounts.email");
  private static final Normalization EMAIL =
      Normalization.newBuilder().setTrim(true).setNfkc(true).setCasefold(true).build();
  private static final List<String> EMAILS =
      List.of("Alice@Example.com", "bob@example.com", "ＣＡＲＯＬ@example.com");

  private static final String POLICY =
      """
      callers:
        keyadmin:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [admin, inspect, destroy]
        app:
          token_sha256: %s
          rules:
            - keys: [accounts-email, legacy-cbc]
              operations: [encrypt, decrypt]
            - keys: [accounts-email-idx]
              operations: [index]
        reindexer:
          token_sha256: %s
          rules:
            - keys: [accounts-email, legacy-cbc]
              operations: [reindex]
            - keys: [accounts-email-idx]
              operations: [index]
        search:
          token_sha256: %s
          rules:
            - keys: [accounts-email-idx]
              operations: [index]
        reindex-only:
          token_sha256: %s
          rules:
            - keys: [accounts-email]
              operations: [reindex]
        reader:
          token_sha256: %s
          rules:
            - keys: [accounts-email, legacy-cbc]
              operations: [decrypt]
            - keys: [accounts-email-idx]
              operations: [index]
        confused:
          token_sha256: %s
          rules:
            - keys: [accounts-email]
              operations: [reindex, index]
        cbc-reindexer:
          token_sha256: %s
          rules:
            - keys: [legacy-cbc]
              operations: [reindex, decrypt]
            - keys: [accounts-email-idx]
              operations: [index]
      """
          .formatted(
              tokenHash("keyadmin"),
              tokenHash("app"),
              tokenHash("reindexer"),
              tokenHash("search"),
              tokenHash("reindex-only"),
              tokenHash("reader"),
              tokenHash("confused"),
              tokenHash("cbc-reindexer"));

  @TempDir Path dataDir;
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T09:00:00Z"));
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    var policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    cipherd = InProcessCipherd.start(dataDir, builder -> builder.clock(clock).accessPolicy(policy));
    createKey("accounts-email", Mode.MODE_GCM);
    createKey("accounts-email-idx", Mode.MODE_HMAC);
    createKey("legacy-cbc", Mode.MODE_CBC);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void indexKey_retiresAfterReIndex_whileAllVersionsLookupsGoOn() {
    List<String> rows = new ArrayList<>();
    List<ByteString> v1Indexes = new ArrayList<>();
    for (String email : EMAILS) {
      rows.add(encrypt("accounts-email", email));
      ComputeIndexResponse written = index(email, 0);
      assertThat(written.getKeyVersion()).isEqualTo(1);
      v1Indexes.add(written.getIndex());
    }
    admin("keyadmin")
        .rotateKey(RotateKeyRequest.newBuilder().setKeyName("accounts-email-idx").build());
    clock.advance(Duration.ofDays(8)); // the rows were indexed under v1 long ago

    ReIndexBatchRequest.Builder batch =
        ReIndexBatchRequest.newBuilder()
            .setIndexKeyName("accounts-email-idx")
            .setNormalization(EMAIL)
            .setLengthBytes(16)
            .setExpectedKey("accounts-email");
    for (int i = 0; i < rows.size(); i++) {
      batch.addItems(
          ReIndexBatchItem.newBuilder()
              .setReference("row-" + i)
              .setCiphertext(rows.get(i))
              .setContext(COLUMN));
    }
    ReIndexBatchResponse reIndexed = crypto("reindexer").reIndexBatch(batch.build());

    assertThat(reIndexed.getResultsCount()).isEqualTo(EMAILS.size());
    for (int i = 0; i < EMAILS.size(); i++) {
      ReIndexBatchResult result = reIndexed.getResults(i);
      assertThat(result.getReference()).isEqualTo("row-" + i);
      assertThat(result.hasError()).as("row %d: %s", i, result.getError()).isFalse();
      assertThat(result.getKeyVersion()).isEqualTo(2);
      assertThat(result.getSourceKeyVersion()).isEqualTo(1);
      assertThat(result.getIndex()).isEqualTo(index(EMAILS.get(i), 2).getIndex());
      assertThat(result.getIndex()).isNotEqualTo(v1Indexes.get(i));
    }
    ReIndexResponse one =
        crypto("reindexer")
            .reIndex(
                ReIndexRequest.newBuilder()
                    .setCiphertext(rows.get(0))
                    .setContext(COLUMN)
                    .setIndexKeyName("accounts-email-idx")
                    .setNormalization(EMAIL)
                    .setLengthBytes(16)
                    .build());
    assertThat(one.getIndex()).isEqualTo(reIndexed.getResults(0).getIndex());
    assertThat(one.getKeyVersion()).isEqualTo(2);
    assertThat(one.getSourceKeyVersion()).isEqualTo(1);

    // Searches go on meanwhile, asking every version, as docs/searching.md shows.
    for (int i = 0; i < 5; i++) {
      ComputeIndexResponse lookup =
          crypto("search")
              .computeIndex(
                  ComputeIndexRequest.newBuilder()
                      .setKeyName("accounts-email-idx")
                      .setValue(ByteString.copyFromUtf8("  ALICE@example.COM "))
                      .setNormalization(EMAIL)
                      .setLengthBytes(16)
                      .setAllVersions(true)
                      .build());
      assertThat(lookup.getVersionsCount()).isEqualTo(2);
    }

    GetKeyCensusResponse census =
        admin("keyadmin")
            .getKeyCensus(
                GetKeyCensusRequest.newBuilder().setKeyName("accounts-email-idx").build());
    KeyVersionUsage v1 = census.getVersions(0).getUsage();
    assertThat(census.getVersions(0).getVersion()).isEqualTo(1);
    assertThat(census.getVersions(0).getInUse()).isFalse();
    assertThat(v1.getIndexes()).isEqualTo(EMAILS.size());
    assertThat(v1.getIndexLookups()).isEqualTo(5);
    assertThat(v1.getLastLookupTime().getSeconds()).isEqualTo(clock.instant().getEpochSecond());
    assertThat(v1.getLastUsedTime().getSeconds())
        .isEqualTo(clock.instant().minus(Duration.ofDays(8)).getEpochSecond());
    KeyVersionUsage v2 = census.getVersions(1).getUsage();
    assertThat(census.getVersions(1).getInUse()).isTrue();
    assertThat(v2.getIndexLookups()).isZero();
    // The re-index (3 + 1), the comparisons (3), and the lookups' current version (5).
    assertThat(v2.getIndexes()).isEqualTo(4 + 3 + 5);
    assertThat(census.getSafeMinDecryptionVersion()).isEqualTo(2);
    // GetKey shows the same counters.
    assertThat(
            admin("keyadmin")
                .getKey(GetKeyRequest.newBuilder().setKeyName("accounts-email-idx").build())
                .getKey()
                .getVersions(0)
                .getUsage()
                .getIndexLookups())
        .isEqualTo(5);
    // The data key: each re-index decrypted its row under v1.
    assertThat(
            admin("keyadmin")
                .getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("accounts-email").build())
                .getVersions(0)
                .getUsage()
                .getDecryptions())
        .isEqualTo(4);

    RetireKeyVersionsResponse retired =
        admin("keyadmin")
            .retireKeyVersions(
                RetireKeyVersionsRequest.newBuilder()
                    .setKeyName("accounts-email-idx")
                    .setBelowVersion(2)
                    .build());
    assertThat(retired.getRetiredVersionsList()).containsExactly(1);
    // Lookups now find the re-indexed rows under v2 alone.
    assertThat(
            crypto("search")
                .computeIndex(
                    ComputeIndexRequest.newBuilder()
                        .setKeyName("accounts-email-idx")
                        .setValue(ByteString.copyFromUtf8("bob@example.com"))
                        .setNormalization(EMAIL)
                        .setLengthBytes(16)
                        .setAllVersions(true)
                        .build())
                .getVersionsList())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getKeyVersion()).isEqualTo(2);
              assertThat(v.getIndex()).isEqualTo(reIndexed.getResults(1).getIndex());
            });
  }

  @Test
  void recentIndexesUnderTheOldVersion_stillKeepItInUse() {
    index("dave@example.com", 0);
    admin("keyadmin")
        .rotateKey(RotateKeyRequest.newBuilder().setKeyName("accounts-email-idx").build());
    index("dave@example.com", 1); // asked for by version: a use, not a lookup

    Status refused =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                admin("keyadmin")
                    .retireKeyVersions(
                        RetireKeyVersionsRequest.newBuilder()
                            .setKeyName("accounts-email-idx")
                            .setBelowVersion(2)
                            .setQuietPeriod(Durations.fromDays(1))
                            .build()));
    assertThat(refused.getDescription()).contains("version 1");
  }

  @Test
  void grants_reindexOnTheSourceAndIndexOnTheIndexKey_areBothNeeded() {
    String row = encrypt("accounts-email", "alice@example.com");
    ReIndexRequest request = request(row, COLUMN, "accounts-email-idx");

    assertThat(crypto("reindexer").reIndex(request).getIndex().size()).isEqualTo(16);
    assertThat(deniedReason("search", request)).isEqualTo("ACCESS_DENIED");
    assertThat(deniedReason("reindex-only", request)).isEqualTo("ACCESS_DENIED");
    // decrypt is not reindex: a reader re-indexes with Decrypt and ComputeIndex, not with this.
    assertThat(deniedReason("reader", request)).isEqualTo("ACCESS_DENIED");
    assertThat(
            failsWith(Status.Code.PERMISSION_DENIED, () -> crypto("search").reIndex(request))
                .getDescription())
        .isEqualTo("caller 'search' may not reindex with key 'accounts-email'");
    assertThat(
            failsWith(Status.Code.PERMISSION_DENIED, () -> crypto("reindex-only").reIndex(request))
                .getDescription())
        .isEqualTo("caller 'reindex-only' may not index with key 'accounts-email-idx'");
  }

  @Test
  void unauthenticatedMode_needsDecryptToo_decidedBeforeDecrypting() {
    String good =
        crypto("app")
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("legacy-cbc")
                    .setPlaintext(ByteString.copyFromUtf8("alice@example.com"))
                    .build())
            .getCiphertext();
    String tampered = flipLastByte(good);

    Status refused =
        failsWith(
            Status.Code.PERMISSION_DENIED,
            () ->
                crypto("reindexer").reIndex(request(good, ByteString.EMPTY, "accounts-email-idx")));
    assertThat(refused.getDescription())
        .contains("not authenticated, so re-indexing them needs decrypt as well as reindex");
    // A tampered ciphertext is refused the same way: no padding oracle.
    assertThat(
            failsWith(
                    Status.Code.PERMISSION_DENIED,
                    () ->
                        crypto("reindexer")
                            .reIndex(request(tampered, ByteString.EMPTY, "accounts-email-idx")))
                .getDescription())
        .isEqualTo(refused.getDescription());

    assertThat(
            crypto("cbc-reindexer")
                .reIndex(request(good, ByteString.EMPTY, "accounts-email-idx"))
                .getIndex()
                .size())
        .isEqualTo(16);
  }

  @Test
  void ciphertextSide_failsAsDecryptDoes_indexSideAsComputeIndexDoes() {
    String row = encrypt("accounts-email", "alice@example.com");
    CryptoServiceGrpc.CryptoServiceBlockingStub reindexer = crypto("reindexer");

    for (String bad : List.of(flipLastByte(row), row)) {
      ByteString context = bad.equals(row) ? ByteString.copyFromUtf8("other") : COLUMN;
      StatusRuntimeException failed =
          failure(() -> reindexer.reIndex(request(bad, context, "accounts-email-idx")));
      assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(failed.getStatus().getDescription()).isEqualTo("decryption failed");
      assertThat(StatusMapperTest.reason(failed)).isEqualTo("DECRYPTION_FAILED");
    }
    StatusRuntimeException notACiphertext =
        failure(() -> reindexer.reIndex(request("not a ciphertext", COLUMN, "accounts-email-idx")));
    assertThat(StatusMapperTest.reason(notACiphertext)).isEqualTo("INVALID_CIPHERTEXT");

    // An index key that is not one: refused as ComputeIndex refuses it, before decrypting.
    StatusRuntimeException notAnIndexKey =
        failure(() -> crypto("confused").reIndex(request(row, COLUMN, "accounts-email")));
    StatusRuntimeException computeIndex =
        failure(
            () ->
                crypto("confused")
                    .computeIndex(
                        ComputeIndexRequest.newBuilder()
                            .setKeyName("accounts-email")
                            .setValue(ByteString.copyFromUtf8("alice@example.com"))
                            .build()));
    assertThat(notAnIndexKey.getStatus().getCode()).isEqualTo(computeIndex.getStatus().getCode());
    assertThat(StatusMapperTest.reason(notAnIndexKey))
        .isEqualTo(StatusMapperTest.reason(computeIndex))
        .isEqualTo("POLICY_DENIED");
    assertThat(notAnIndexKey.getStatus().getDescription()).doesNotContain("alice");

    // expected_key: a name or a prefix; another key is refused before decrypting.
    assertThat(
            reindexer
                .reIndex(
                    request(row, COLUMN, "accounts-email-idx").toBuilder()
                        .setExpectedKey("accounts-*")
                        .build())
                .getKeyVersion())
        .isEqualTo(1);
    StatusRuntimeException unexpected =
        failure(
            () ->
                reindexer.reIndex(
                    request(row, ByteString.copyFromUtf8("wrong too"), "accounts-email-idx")
                        .toBuilder()
                        .setExpectedKey("payments-*")
                        .build()));
    assertThat(unexpected.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(StatusMapperTest.reason(unexpected)).isEqualTo("UNEXPECTED_KEY");
    assertThat(
            StatusMapperTest.reason(
                failure(
                    () ->
                        reindexer.reIndex(
                            request(row, COLUMN, "accounts-email-idx").toBuilder()
                                .setExpectedKey("Bad Name")
                                .build()))))
        .isEqualTo("INVALID_ARGUMENT");

    // length_bytes as ComputeIndex checks it.
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        reindexer.reIndex(
                            request(row, COLUMN, "accounts-email-idx").toBuilder()
                                .setLengthBytes(4)
                                .build()))
                .getDescription())
        .contains("length_bytes must be 8 to 32");
  }

  @Test
  void plaintextThatIsNotText_failsNormalization_butIndexesAsRawBytes() {
    String row =
        crypto("app")
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("accounts-email")
                    .setPlaintext(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe, 'a'}))
                    .setContext(COLUMN)
                    .build())
            .getCiphertext();

    Status notText =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () -> crypto("reindexer").reIndex(request(row, COLUMN, "accounts-email-idx")));
    assertThat(notText.getDescription()).contains("not well-formed UTF-8");

    ByteString raw =
        crypto("reindexer")
            .reIndex(
                request(row, COLUMN, "accounts-email-idx").toBuilder().clearNormalization().build())
            .getIndex();
    assertThat(raw)
        .isEqualTo(
            crypto("app")
                .computeIndex(
                    ComputeIndexRequest.newBuilder()
                        .setKeyName("accounts-email-idx")
                        .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe, 'a'}))
                        .setLengthBytes(16)
                        .build())
                .getIndex());
  }

  @Test
  void batch_refusedIndexKey_failsAsAWhole_andEachItemFailsOnItsOwn() {
    String row = encrypt("accounts-email", "alice@example.com");
    ReIndexBatchRequest.Builder batch =
        ReIndexBatchRequest.newBuilder()
            .setIndexKeyName("accounts-email-idx")
            .setLengthBytes(16)
            .addItems(
                ReIndexBatchItem.newBuilder()
                    .setReference("ok")
                    .setCiphertext(row)
                    .setContext(COLUMN))
            .addItems(ReIndexBatchItem.newBuilder().setReference("ctx").setCiphertext(row))
            .addItems(
                ReIndexBatchItem.newBuilder()
                    .setReference("other-key")
                    .setCiphertext(row)
                    .setContext(COLUMN)
                    .setExpectedKey("payments"))
            .addItems(ReIndexBatchItem.newBuilder().setReference("garbage").setCiphertext("<x"));

    ReIndexBatchResponse response = crypto("reindexer").reIndexBatch(batch.build());
    assertThat(response.getResultsList())
        .extracting(ReIndexBatchResult::getReference)
        .containsExactly("ok", "ctx", "other-key", "garbage");
    assertThat(response.getResults(0).getIndex().size()).isEqualTo(16);
    assertThat(response.getResults(1).getError().getReason()).isEqualTo("DECRYPTION_FAILED");
    assertThat(response.getResults(1).getSourceKeyVersion()).isEqualTo(1);
    assertThat(response.getResults(2).getError().getReason()).isEqualTo("UNEXPECTED_KEY");
    assertThat(response.getResults(3).getError().getReason()).isEqualTo("INVALID_CIPHERTEXT");
    assertThat(response.getResults(3).getSourceKeyVersion()).isZero();

    Status refused =
        failsWith(
            Status.Code.PERMISSION_DENIED,
            () -> crypto("reindex-only").reIndexBatch(batch.build()));
    assertThat(refused.getDescription()).contains("may not index with key 'accounts-email-idx'");
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () -> crypto("reindexer").reIndexBatch(batch.setLengthBytes(40).build()));
  }

  @Test
  void overARealSocket_reIndexesAsComputeIndex_andCountsLookupsApart(@TempDir Path otherDir)
      throws Exception {
    CipherdServer server = TestServers.start(otherDir, /* metricsKeyNames= */ true);
    ManagedChannel channel = TestServers.channel(server);
    try {
      var crypto = CryptoServiceGrpc.newBlockingStub(channel);
      var admin = KeyAdminServiceGrpc.newBlockingStub(channel);
      admin.createKey(CreateKeyRequest.newBuilder().setKeyName("notes").build());
      admin.createKey(
          CreateKeyRequest.newBuilder().setKeyName("notes-idx").setMode(Mode.MODE_HMAC).build());
      String row =
          crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("notes")
                      .setPlaintext(ByteString.copyFromUtf8("Ünïcode Note"))
                      .setContext(COLUMN)
                      .build())
              .getCiphertext();
      admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("notes-idx").build());
      ComputeIndexRequest lookup =
          ComputeIndexRequest.newBuilder()
              .setKeyName("notes-idx")
              .setValue(ByteString.copyFromUtf8(" ünïcode note"))
              .setNormalization(EMAIL)
              .setAllVersions(true)
              .build();

      ReIndexResponse reIndexed =
          crypto.reIndex(
              ReIndexRequest.newBuilder()
                  .setCiphertext(row)
                  .setContext(COLUMN)
                  .setIndexKeyName("notes-idx")
                  .setNormalization(EMAIL)
                  .build());
      ComputeIndexResponse looked = crypto.computeIndex(lookup);

      assertThat(reIndexed.getKeyVersion()).isEqualTo(2);
      assertThat(reIndexed.getIndex()).isEqualTo(looked.getIndex()).hasSize(32);
      KeyVersionUsage v1 =
          admin
              .getKey(GetKeyRequest.newBuilder().setKeyName("notes-idx").build())
              .getKey()
              .getVersions(0)
              .getUsage();
      assertThat(v1.getIndexLookups()).isEqualTo(1);
      assertThat(v1.getIndexes()).isZero();
      assertThat(v1.hasLastUsedTime()).isFalse();
      assertThat(v1.hasLastLookupTime()).isTrue();
      assertThat(TestServers.get(server, "/metrics").body())
          .contains("operation=\"index_lookup\"")
          .containsPattern(
              "cipherd_crypto_operations_total\\{key=\"notes-idx\",mode=\"hmac\",operation=\"index\",outcome=\"ok\"} 2");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.close();
    }
  }

  private ReIndexRequest request(String ciphertext, ByteString context, String indexKey) {
    return ReIndexRequest.newBuilder()
        .setCiphertext(ciphertext)
        .setContext(context)
        .setIndexKeyName(indexKey)
        .setNormalization(EMAIL)
        .setLengthBytes(16)
        .build();
  }

  private String deniedReason(String caller, ReIndexRequest request) {
    StatusRuntimeException e = failure(() -> crypto(caller).reIndex(request));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    return StatusMapperTest.reason(e);
  }

  private static StatusRuntimeException failure(Runnable call) {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call::run);
    assertThat(e).as("the call should fail").isNotNull();
    return e;
  }

  private ComputeIndexResponse index(String value, int version) {
    return crypto("app")
        .computeIndex(
            ComputeIndexRequest.newBuilder()
                .setKeyName("accounts-email-idx")
                .setValue(ByteString.copyFromUtf8(value))
                .setNormalization(EMAIL)
                .setLengthBytes(16)
                .setKeyVersion(version)
                .build());
  }

  private String encrypt(String key, String plaintext) {
    return crypto("app")
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setPlaintext(ByteString.copyFromUtf8(plaintext))
                .setContext(COLUMN)
                .build())
        .getCiphertext();
  }

  private static String flipLastByte(String ciphertext) {
    int split = ciphertext.indexOf('>') + 1;
    byte[] payload = Base64.getDecoder().decode(ciphertext.substring(split));
    payload[payload.length - 1] ^= 1;
    return ciphertext.substring(0, split) + Base64.getEncoder().encodeToString(payload);
  }

  private void createKey(String name, Mode mode) {
    admin("keyadmin")
        .createKey(
            CreateKeyRequest.newBuilder()
                .setKeyName(name)
                .setMode(mode)
                .setAllowUnauthenticated(mode == Mode.MODE_CBC)
                .build());
  }

  private CryptoServiceGrpc.CryptoServiceBlockingStub crypto(String caller) {
    return as(caller, cipherd.crypto);
  }

  private KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin(String caller) {
    return as(caller, cipherd.admin);
  }
}
