package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedResponse;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormatPreservingServiceGrpc.FormatPreservingServiceBlockingStub;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedResponse;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.VersionCensus;
import io.cipherd.server.crypto.fpe.Ff1;
import io.cipherd.server.crypto.fpe.FormattedCipher;
import io.cipherd.server.crypto.fpe.FpeTweak;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.security.AccessPolicyFile;
import io.grpc.Status;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The FormatPreservingService in-process, as Main wires it: every RPC per template, versions and
 * rotation, the census and retirement seeing FF1 traffic, destroyed versions, refusals by kind and
 * the {@code mask} operation. {@code FormatPreservingSocketTest} calls every RPC over a real port.
 */
class FormatPreservingServiceTest {
  private static final ByteString COLUMN = ByteString.copyFromUtf8("users.card_number");

  @TempDir Path dataDir;
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T03:00:00Z"));
  private InProcessCipherd cipherd;
  private FormatPreservingServiceBlockingStub fpe;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir, builder -> builder.clock(clock));
    fpe = FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  static Stream<Arguments> templates() {
    return Stream.of(
        Arguments.of(template(FpeTemplate.FPE_TEMPLATE_DIGITS, false), "0123456789012345"),
        Arguments.of(template(FpeTemplate.FPE_TEMPLATE_LOWER_ALPHANUMERIC, false), "user4242abc"),
        Arguments.of(template(FpeTemplate.FPE_TEMPLATE_ALPHANUMERIC, false), "Ab3dEf9hIj"),
        Arguments.of(template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER, true), "4111 1111 1111 1111"),
        Arguments.of(
            template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR, false), "5500-0000-0000-0004"),
        Arguments.of(template(FpeTemplate.FPE_TEMPLATE_PHONE_NUMBER, false), "+44 20 7946 0958"),
        Arguments.of(
            FpeFormat.newBuilder().setAlphabet("0123456789ABCDEF").setMaskVisibleSuffix(2).build(),
            "DEADBEEF00"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("templates")
  void everyRpc_roundTrips(FpeFormat format, String value) {
    create("k", format);
    EncryptFormattedResponse encrypted = encrypt("k", value);
    assertThat(encrypted.getKeyVersion()).isEqualTo(1);
    assertThat(encrypted.getValue()).isNotEqualTo(value).hasSameSizeAs(value);
    assertThat(encrypt("k", value).getValue()).as("deterministic").isEqualTo(encrypted.getValue());

    assertThat(decrypt("k", encrypted.getValue(), 1)).isEqualTo(value);
    String mask = mask("k", encrypted.getValue(), 1);
    assertThat(mask).hasSameSizeAs(value).contains("•").isNotEqualTo(value);

    var batch =
        fpe.encryptFormattedBatch(
            EncryptFormattedBatchRequest.newBuilder()
                .setKeyName("k")
                .setContext(COLUMN)
                .addItems(EncryptFormattedBatchItem.newBuilder().setReference("a").setValue(value))
                .addItems(EncryptFormattedBatchItem.newBuilder().setReference("b").setValue("!"))
                .build());
    assertThat(batch.getResultsList())
        .extracting(FormattedBatchResult::getReference)
        .containsExactly("a", "b");
    assertThat(batch.getResults(0).getValue()).isEqualTo(encrypted.getValue());
    assertThat(batch.getResults(1).getError().getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT.value());

    var decrypted =
        fpe.decryptFormattedBatch(
            DecryptFormattedBatchRequest.newBuilder()
                .setKeyName("k")
                .setContext(COLUMN)
                .setKeyVersion(1)
                .addItems(
                    FormattedBatchItem.newBuilder()
                        .setReference("a")
                        .setValue(encrypted.getValue()))
                .build());
    assertThat(decrypted.getResults(0).getValue()).isEqualTo(value);

    cipherd.rotate("k");
    ReEncryptFormattedResponse moved =
        fpe.reEncryptFormatted(
            ReEncryptFormattedRequest.newBuilder()
                .setKeyName("k")
                .setValue(encrypted.getValue())
                .setContext(COLUMN)
                .setKeyVersion(1)
                .build());
    assertThat(moved.getKeyVersion()).isEqualTo(2);
    assertThat(moved.getSourceKeyVersion()).isEqualTo(1);
    assertThat(decrypt("k", moved.getValue(), 2)).isEqualTo(value);
  }

  @Test
  void wrongVersionOrContext_givesAWrongValueOfTheShape_notAnError() {
    create("cards", template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR, false));
    String v1 = encrypt("cards", "4111111111111111").getValue();
    cipherd.rotate("cards");

    String wrong = decrypt("cards", v1, 2);
    assertThat(wrong).isNotEqualTo("4111111111111111").hasSize(16).endsWith("1111");
    assertThat(
            fpe.decryptFormatted(
                    DecryptFormattedRequest.newBuilder()
                        .setKeyName("cards")
                        .setValue(v1)
                        .setKeyVersion(1)
                        .build())
                .getValue())
        .isNotEqualTo("4111111111111111")
        .hasSize(16);
  }

  @Test
  void missingVersion_isRefused_withWhatToPass() {
    create("cards", template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR, false));
    String v1 = encrypt("cards", "4111111111111111").getValue();

    assertThat(
            failsWith(Status.Code.INVALID_ARGUMENT, () -> decrypt("cards", v1, 0)).getDescription())
        .contains("pass the key_version EncryptFormatted returned");
    failsWith(Status.Code.NOT_FOUND, () -> decrypt("cards", v1, 7));
  }

  @Test
  void rotation_thenReEncryptBatch_movesValuesToTheNewVersion_oneResultPerItem() {
    create("phones", template(FpeTemplate.FPE_TEMPLATE_PHONE_NUMBER, false));
    List<String> plain = List.of("+44 20 7946 0958", "+1 (415) 555-2671", "+49 30 901820");
    List<String> v1 = plain.stream().map(p -> encrypt("phones", p).getValue()).toList();
    cipherd.rotate("phones");

    ReEncryptFormattedBatchRequest.Builder request =
        ReEncryptFormattedBatchRequest.newBuilder()
            .setKeyName("phones")
            .setContext(COLUMN)
            .setKeyVersion(1);
    for (int i = 0; i < v1.size(); i++) {
      request.addItems(FormattedBatchItem.newBuilder().setReference("r" + i).setValue(v1.get(i)));
    }
    request.addItems(FormattedBatchItem.newBuilder().setReference("bad").setValue("0044 20"));
    var moved = fpe.reEncryptFormattedBatch(request.build()).getResultsList();

    assertThat(moved).hasSize(4);
    for (int i = 0; i < plain.size(); i++) {
      assertThat(moved.get(i).getKeyVersion()).isEqualTo(2);
      assertThat(moved.get(i).getSourceKeyVersion()).isEqualTo(1);
      assertThat(moved.get(i).getValue()).isNotEqualTo(v1.get(i));
      assertThat(decrypt("phones", moved.get(i).getValue(), 2)).isEqualTo(plain.get(i));
    }
    assertThat(moved.get(3).getError().getMessage()).contains("international format");
  }

  @Test
  void censusAndRetirement_seeFf1Traffic() {
    create("cards", template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR, false));
    String v1 = encrypt("cards", "4111111111111111").getValue();
    decrypt("cards", v1, 1);
    cipherd.rotate("cards");
    mask("cards", v1, 1);

    var census =
        cipherd.admin.getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("cards").build());
    VersionCensus first = census.getVersions(0);
    assertThat(first.getVersion()).isEqualTo(1);
    assertThat(first.getInUse()).isTrue();
    assertThat(first.getUsage().getEncryptions()).isEqualTo(1);
    assertThat(first.getUsage().getDecryptions()).isEqualTo(2);
    assertThat(
            failsWith(Status.Code.FAILED_PRECONDITION, () -> retire("cards", 2)).getDescription())
        .contains("cannot retire version 1: used within the quiet period");

    clock.advance(Duration.ofDays(8));
    assertThat(retire("cards", 2).getRetiredVersionsList()).containsExactly(1);
  }

  @Test
  void destroyedVersion_refusesWithKeyVersionDestroyed() {
    create("cards", template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR, false));
    String v1 = encrypt("cards", "4111111111111111").getValue();
    cipherd.rotate("cards");
    cipherd.admin.scheduleKeyVersionDestruction(
        ScheduleKeyVersionDestructionRequest.newBuilder()
            .setKeyName("cards")
            .addVersions(1)
            .build());
    assertThat(StatusMapperTest.reason(KeyLifecycleApiTest.refusal(() -> decrypt("cards", v1, 1))))
        .isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");

    clock.advance(Duration.ofDays(31));
    cipherd.services.maintainKeysNow();
    for (Runnable call :
        List.<Runnable>of(
            () -> decrypt("cards", v1, 1),
            () -> mask("cards", v1, 1),
            () ->
                fpe.reEncryptFormatted(
                    ReEncryptFormattedRequest.newBuilder()
                        .setKeyName("cards")
                        .setValue(v1)
                        .setKeyVersion(1)
                        .build()))) {
      assertThat(StatusMapperTest.reason(KeyLifecycleApiTest.refusal(call::run)))
          .isEqualTo("KEY_VERSION_DESTROYED");
    }
  }

  @Test
  void refusalsByKind_nameTheRpcToUse() {
    create("cards", template(FpeTemplate.FPE_TEMPLATE_DIGITS, false));
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("gcm").build());

    assertThat(
            failsWith(
                    Status.Code.FAILED_PRECONDITION,
                    () ->
                        cipherd.crypto.encrypt(
                            EncryptRequest.newBuilder()
                                .setKeyName("cards")
                                .setPlaintext(ByteString.copyFromUtf8("x"))
                                .build()))
                .getDescription())
        .contains("format-preserving key")
        .contains("EncryptFormatted");
    assertThat(
            failsWith(Status.Code.FAILED_PRECONDITION, () -> encrypt("gcm", "123456"))
                .getDescription())
        .contains("is an encryption key (gcm)")
        .contains("format-preserving key");
  }

  @Test
  void keyAdmin_requiresTheFormatWithFf1_refusesItElsewhere_andKeepsItAcrossRotation() {
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.createKey(
                            CreateKeyRequest.newBuilder()
                                .setKeyName("x")
                                .setMode(Mode.MODE_FF1)
                                .build()))
                .getDescription())
        .contains("fpe_format is required");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.createKey(
                            CreateKeyRequest.newBuilder()
                                .setKeyName("x")
                                .setFpeFormat(template(FpeTemplate.FPE_TEMPLATE_DIGITS, false))
                                .build()))
                .getDescription())
        .contains("fpe_format is for format-preserving keys only");
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.createKey(
                CreateKeyRequest.newBuilder()
                    .setKeyName("x")
                    .setMode(Mode.MODE_FF1)
                    .setFpeFormat(
                        FpeFormat.newBuilder()
                            .setTemplate(FpeTemplate.FPE_TEMPLATE_DIGITS)
                            .setVersionPrefixLength(1))
                    .build()));

    FpeFormat card = template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER, true);
    create("cards", card);
    cipherd.rotate("cards");
    Key key = cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("cards").build()).getKey();
    assertThat(key.getVersionsList()).extracting(v -> v.getFpeFormat()).containsExactly(card, card);
    assertThat(key.getVersions(1).getMode()).isEqualTo(Mode.MODE_FF1);
    assertThat(key.getVersions(1).getKeySizeBits()).isEqualTo(256);
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.rotateKey(
                            RotateKeyRequest.newBuilder()
                                .setKeyName("cards")
                                .setMode(Mode.MODE_GCM)
                                .build()))
                .getDescription())
        .contains("a format-preserving key");
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("gcm").build());
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.rotateKey(
                RotateKeyRequest.newBuilder().setKeyName("gcm").setMode(Mode.MODE_FF1).build()));
  }

  @Test
  void importedKey_encryptsAsFf1WithTheDocumentedTweak() {
    byte[] raw = HexFormat.of().parseHex("2b7e151628aed2a6abf7158809cf4f3c");
    FpeFormat digits = template(FpeTemplate.FPE_TEMPLATE_DIGITS, false);
    Key key =
        cipherd
            .admin
            .importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("imported")
                    .setMode(Mode.MODE_FF1)
                    .setKeyMaterial(ByteString.copyFrom(raw))
                    .setFpeFormat(digits)
                    .build())
            .getKey();
    assertThat(key.getVersions(0).getImported()).isTrue();
    assertThat(key.getVersions(0).getKeySizeBits()).isEqualTo(128);

    String expected =
        FormattedCipher.encrypt(
            FpeFormatProtos.fromProto(digits),
            Ff1.withKey(raw),
            FpeTweak.of("imported", COLUMN.toByteArray()),
            "0123456789",
            1);
    assertThat(encrypt("imported", "0123456789").getValue()).isEqualTo(expected);

    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.importKey(
                            ImportKeyRequest.newBuilder()
                                .setKeyName("imported")
                                .setMode(Mode.MODE_FF1)
                                .setKeyMaterial(ByteString.copyFrom(raw))
                                .setFpeFormat(
                                    template(FpeTemplate.FPE_TEMPLATE_ALPHANUMERIC, false))
                                .build()))
                .getDescription())
        .contains("fpe_format differs");
  }

  @Test
  void versionPrefix_letsDecryptReadTheVersion_andBoundsRotation() {
    create(
        "ids", FpeFormat.newBuilder().setAlphabet("0123456789").setVersionPrefixLength(1).build());
    EncryptFormattedResponse v1 = encrypt("ids", "123456");
    assertThat(v1.getValue()).hasSize(7).startsWith("1");
    assertThat(decrypt("ids", v1.getValue(), 0)).isEqualTo("123456");
    assertThat(decrypt("ids", v1.getValue(), 1)).isEqualTo("123456");
    assertThat(
            failsWith(Status.Code.INVALID_ARGUMENT, () -> decrypt("ids", v1.getValue(), 2))
                .getDescription())
        .contains("not the version the value's prefix names");

    for (int version = 2; version <= 9; version++) {
      cipherd.rotate("ids");
    }
    assertThat(encrypt("ids", "123456").getValue()).startsWith("9");
    assertThat(
            failsWith(Status.Code.FAILED_PRECONDITION, () -> cipherd.rotate("ids"))
                .getDescription())
        .contains("names versions up to 9");
  }

  @Test
  void maskCaller_masks_andNothingElse_whileDecryptImpliesMask() throws Exception {
    cipherd.close();
    cipherd =
        InProcessCipherd.start(
            dataDir,
            AccessPolicyFile.parse(
                "test",
                new StringReader(
                    """
                    callers:
                      app:
                        token_sha256: %s
                        rules:
                          - keys: ["*"]
                            operations: [admin, encrypt, decrypt]
                      support:
                        token_sha256: %s
                        rules:
                          - keys: ["*"]
                            operations: [mask]
                      rotator:
                        token_sha256: %s
                        rules:
                          - keys: ["*"]
                            operations: [reencrypt]
                    """
                        .formatted(tokenHash("app"), tokenHash("support"), tokenHash("rotator")))));
    as("app", cipherd.admin)
        .createKey(
            CreateKeyRequest.newBuilder()
                .setKeyName("cards")
                .setMode(Mode.MODE_FF1)
                .setFpeFormat(template(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER, true))
                .build());
    FormatPreservingServiceBlockingStub app =
        as("app", FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel));
    FormatPreservingServiceBlockingStub support =
        as("support", FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel));
    FormatPreservingServiceBlockingStub rotator =
        as("rotator", FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel));
    String ciphertext =
        app.encryptFormatted(
                EncryptFormattedRequest.newBuilder()
                    .setKeyName("cards")
                    .setValue("4242 4242 4242 4242")
                    .build())
            .getValue();
    MaskFormattedRequest mask =
        MaskFormattedRequest.newBuilder()
            .setKeyName("cards")
            .setValue(ciphertext)
            .setKeyVersion(1)
            .build();

    assertThat(support.maskFormatted(mask).getMasked()).isEqualTo("•••• •••• •••• 4242");
    assertThat(app.maskFormatted(mask).getMasked()).isEqualTo("•••• •••• •••• 4242");
    failsWith(
        Status.Code.PERMISSION_DENIED,
        () ->
            support.decryptFormatted(
                DecryptFormattedRequest.newBuilder()
                    .setKeyName("cards")
                    .setValue(ciphertext)
                    .setKeyVersion(1)
                    .build()));
    failsWith(
        Status.Code.PERMISSION_DENIED,
        () ->
            support.reEncryptFormatted(
                ReEncryptFormattedRequest.newBuilder()
                    .setKeyName("cards")
                    .setValue(ciphertext)
                    .setKeyVersion(1)
                    .build()));
    failsWith(Status.Code.PERMISSION_DENIED, () -> rotator.maskFormatted(mask));
    assertThat(
            rotator
                .reEncryptFormatted(
                    ReEncryptFormattedRequest.newBuilder()
                        .setKeyName("cards")
                        .setValue(ciphertext)
                        .setKeyVersion(1)
                        .build())
                .getValue())
        .as("reencrypt alone rewraps an FF1 value: nothing about it depends on the plaintext")
        .isEqualTo(ciphertext);
  }

  @Test
  void batchOverTheLimit_isRefused() {
    create("k", template(FpeTemplate.FPE_TEMPLATE_DIGITS, false));
    EncryptFormattedBatchRequest.Builder request =
        EncryptFormattedBatchRequest.newBuilder().setKeyName("k");
    for (int i = 0; i < 65; i++) {
      request.addItems(EncryptFormattedBatchItem.newBuilder().setValue("1234567"));
    }
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT, () -> fpe.encryptFormattedBatch(request.build()))
                .getDescription())
        .contains("at most 64");
  }

  static FpeFormat template(FpeTemplate template, boolean acceptSmallDomain) {
    return FpeFormat.newBuilder()
        .setTemplate(template)
        .setAcceptSmallDomain(acceptSmallDomain)
        .build();
  }

  private void create(String name, FpeFormat format) {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName(name)
            .setMode(Mode.MODE_FF1)
            .setFpeFormat(format)
            .build());
  }

  private EncryptFormattedResponse encrypt(String key, String value) {
    return fpe.encryptFormatted(
        EncryptFormattedRequest.newBuilder()
            .setKeyName(key)
            .setValue(value)
            .setContext(COLUMN)
            .build());
  }

  private String decrypt(String key, String value, int version) {
    return fpe.decryptFormatted(
            DecryptFormattedRequest.newBuilder()
                .setKeyName(key)
                .setValue(value)
                .setContext(COLUMN)
                .setKeyVersion(version)
                .build())
        .getValue();
  }

  private String mask(String key, String value, int version) {
    return fpe.maskFormatted(
            MaskFormattedRequest.newBuilder()
                .setKeyName(key)
                .setValue(value)
                .setContext(COLUMN)
                .setKeyVersion(version)
                .build())
        .getMasked();
  }

  private RetireKeyVersionsResponse retire(String key, int below) {
    return cipherd.admin.retireKeyVersions(
        RetireKeyVersionsRequest.newBuilder().setKeyName(key).setBelowVersion(below).build());
  }
}
