package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.ComputeIndexBatchItem;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexBatchResponse;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.ComputeIndexResponse;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GenerateDataKeyResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.Normalization;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** siv and xgcm keys, blind indexes and data keys, through the gRPC services in-process. */
class SearchableEncryptionTest {
  private static final ByteString EMAIL = ByteString.copyFromUtf8("alice@example.com");
  private static final ByteString COLUMN = ByteString.copyFromUtf8("users.email");

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir);
    createKey("emails", Mode.MODE_SIV);
    createKey("email-idx", Mode.MODE_HMAC);
    createKey("files", Mode.MODE_XGCM);
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void sivKey_is512Bits_andEncryptsDeterministically_perContextAndVersion() {
    assertThat(
            cipherd
                .admin
                .getKey(GetKeyRequest.newBuilder().setKeyName("emails").build())
                .getKey()
                .getVersions(0)
                .getKeySizeBits())
        .isEqualTo(512);
    String first = encrypt("emails", EMAIL, COLUMN);

    assertThat(first).startsWith("<emails/v1:siv>");
    assertThat(encrypt("emails", EMAIL, COLUMN)).isEqualTo(first);
    assertThat(encrypt("emails", EMAIL, ByteString.copyFromUtf8("users.backup_email")))
        .isNotEqualTo(first);
    assertThat(decrypt(first, COLUMN)).isEqualTo(EMAIL);
    failsWith(Status.Code.INVALID_ARGUMENT, () -> decrypt(first, ByteString.EMPTY));

    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("emails").build());
    String second = encrypt("emails", EMAIL, COLUMN);
    assertThat(second).startsWith("<emails/v2:siv>").isNotEqualTo(first);
    // Rewrapping the old row is deterministic too: it lands on exactly what a new write gives.
    assertThat(
            cipherd
                .crypto
                .reEncrypt(
                    ReEncryptRequest.newBuilder().setCiphertext(first).setContext(COLUMN).build())
                .getCiphertext())
        .isEqualTo(second);
  }

  @Test
  void xgcmKey_roundTrips_withA24ByteNonce_andFreshCiphertexts() {
    String ciphertext = encrypt("files", EMAIL, COLUMN);

    assertThat(ciphertext).startsWith("<files/v1:xgcm>");
    assertThat(Base64.getDecoder().decode(ciphertext.substring("<files/v1:xgcm>".length())))
        .hasSize(24 + EMAIL.size() + 16);
    assertThat(encrypt("files", EMAIL, COLUMN)).isNotEqualTo(ciphertext);
    assertThat(decrypt(ciphertext, COLUMN)).isEqualTo(EMAIL);
    failsWith(
        Status.Code.INVALID_ARGUMENT, () -> decrypt(ciphertext, ByteString.copyFromUtf8("other")));
  }

  @Test
  void computeIndex_normalizesAsAsked_truncates_andNamesTheVersion() {
    ComputeIndexResponse plain =
        index(" Alice@Example.COM ", Normalization.getDefaultInstance(), 0);
    Normalization trimFold = Normalization.newBuilder().setTrim(true).setCasefold(true).build();
    ComputeIndexResponse folded = index(" Alice@Example.COM ", trimFold, 0);

    assertThat(plain.getIndex().size()).isEqualTo(32);
    assertThat(plain.getKeyVersion()).isEqualTo(1);
    assertThat(folded.getIndex())
        .isEqualTo(index("alice@example.com", trimFold, 0).getIndex())
        .isEqualTo(index("alice@example.com", Normalization.getDefaultInstance(), 0).getIndex())
        .isNotEqualTo(plain.getIndex());
    ByteString eight = index("alice@example.com", trimFold, 8).getIndex();
    assertThat(eight).isEqualTo(folded.getIndex().substring(0, 8));
    assertThat(index("bob@example.com", trimFold, 0).getIndex()).isNotEqualTo(folded.getIndex());
    // Six indexes computed above: the version's usage says so, for the census of index keys.
    assertThat(
            cipherd
                .admin
                .getKey(GetKeyRequest.newBuilder().setKeyName("email-idx").build())
                .getKey()
                .getVersions(0)
                .getUsage()
                .getIndexes())
        .isEqualTo(6);
  }

  @Test
  void computeIndex_allVersions_followsRotationAndMinDecryptionVersion() {
    ByteString v1 = index("alice@example.com", Normalization.getDefaultInstance(), 16).getIndex();
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("email-idx").build());

    ComputeIndexResponse all =
        cipherd.crypto.computeIndex(
            ComputeIndexRequest.newBuilder()
                .setKeyName("email-idx")
                .setValue(EMAIL)
                .setLengthBytes(16)
                .setAllVersions(true)
                .build());

    assertThat(all.getKeyVersion()).isEqualTo(2);
    assertThat(all.getVersionsList()).extracting(v -> v.getKeyVersion()).containsExactly(2, 1);
    assertThat(all.getVersions(1).getIndex()).isEqualTo(v1);
    assertThat(all.getVersions(0).getIndex()).isEqualTo(all.getIndex()).isNotEqualTo(v1);

    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName("email-idx")
            .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(2))
            .build());
    assertThat(
            cipherd
                .crypto
                .computeIndex(
                    ComputeIndexRequest.newBuilder()
                        .setKeyName("email-idx")
                        .setValue(EMAIL)
                        .setAllVersions(true)
                        .build())
                .getVersionsCount())
        .isEqualTo(1);
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.computeIndex(
                ComputeIndexRequest.newBuilder()
                    .setKeyName("email-idx")
                    .setValue(EMAIL)
                    .setKeyVersion(1)
                    .build()));
  }

  @Test
  void computeIndex_badRequests_getPreciseStatuses() {
    Status cipherKey =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.crypto.computeIndex(
                    ComputeIndexRequest.newBuilder().setKeyName("emails").setValue(EMAIL).build()));
    assertThat(cipherKey.getDescription()).contains("needs an index key");
    Status length =
        failsWith(
            Status.Code.INVALID_ARGUMENT, () -> index("x", Normalization.getDefaultInstance(), 7));
    assertThat(length.getDescription()).contains("length_bytes");
    Status notUtf8 =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.crypto.computeIndex(
                    ComputeIndexRequest.newBuilder()
                        .setKeyName("email-idx")
                        .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff}))
                        .setNormalization(Normalization.newBuilder().setNfkc(true))
                        .build()));
    assertThat(notUtf8.getDescription()).contains("UTF-8");
    Status tooLong =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.crypto.computeIndex(
                    ComputeIndexRequest.newBuilder()
                        .setKeyName("email-idx")
                        .setValue(ByteString.copyFrom(new byte[65_537]))
                        .build()));
    assertThat(tooLong.getDescription()).contains("65536 bytes");
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            cipherd.crypto.computeIndex(
                ComputeIndexRequest.newBuilder()
                    .setKeyName("no-such-idx")
                    .setValue(EMAIL)
                    .build()));
    Status encrypt =
        failsWith(
            Status.Code.FAILED_PRECONDITION, () -> encrypt("email-idx", EMAIL, ByteString.EMPTY));
    assertThat(encrypt.getDescription()).contains("index key");
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.rotateKey(
                RotateKeyRequest.newBuilder()
                    .setKeyName("email-idx")
                    .setMode(Mode.MODE_GCM)
                    .build()));
    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("emails")
                    .setMode(Mode.MODE_HMAC)
                    .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                    .build()));
  }

  @Test
  void computeIndexBatch_answersEveryItemInOrder_failingOnlyTheBadOnes() {
    Normalization fold = Normalization.newBuilder().setCasefold(true).build();
    ComputeIndexBatchResponse response =
        cipherd.crypto.computeIndexBatch(
            ComputeIndexBatchRequest.newBuilder()
                .setKeyName("email-idx")
                .setNormalization(fold)
                .setLengthBytes(12)
                .addItems(item("a", ByteString.copyFromUtf8("ALICE@example.com")))
                .addItems(item("b", ByteString.copyFrom(new byte[] {(byte) 0xc3})))
                .addItems(item("c", EMAIL))
                .build());

    assertThat(response.getResultsList())
        .extracting(r -> r.getReference())
        .containsExactly("a", "b", "c");
    assertThat(response.getResults(0).getIndex())
        .isEqualTo(response.getResults(2).getIndex())
        .isEqualTo(index("alice@example.com", fold, 12).getIndex());
    assertThat(response.getResults(1).getError().getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(response.getResults(2).getKeyVersion()).isEqualTo(1);
  }

  @Test
  void importedIndexKey_givesTheHmacOfTheNormalizedValue() throws Exception {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 7);
    cipherd.admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("ids")
            .setMode(Mode.MODE_HMAC)
            .setKeyMaterial(ByteString.copyFrom(key))
            .build());
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));

    ComputeIndexResponse response =
        cipherd.crypto.computeIndex(
            ComputeIndexRequest.newBuilder()
                .setKeyName("ids")
                .setValue(ByteString.copyFromUtf8(" ＳＴＲＡẞＥ "))
                .setNormalization(
                    Normalization.newBuilder().setTrim(true).setNfkc(true).setCasefold(true))
                .build());

    assertThat(response.getIndex().toByteArray())
        .isEqualTo(mac.doFinal("strasse".getBytes("UTF-8")));
  }

  @Test
  void generateDataKey_wrapsAKeyThatDecryptAndReEncryptHandle() {
    GenerateDataKeyResponse generated =
        cipherd.crypto.generateDataKey(
            GenerateDataKeyRequest.newBuilder().setKeyName("files").setContext(COLUMN).build());

    assertThat(generated.getPlaintextKey().size()).isEqualTo(32);
    assertThat(generated.getWrappedKey()).startsWith("<files/v1:xgcm>");
    assertThat(generated.getKeyVersion()).isEqualTo(1);
    assertThat(decrypt(generated.getWrappedKey(), COLUMN)).isEqualTo(generated.getPlaintextKey());
    assertThat(
            cipherd
                .crypto
                .generateDataKey(GenerateDataKeyRequest.newBuilder().setKeyName("files").build())
                .getPlaintextKey())
        .isNotEqualTo(generated.getPlaintextKey());

    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("files").build());
    ReEncryptResponse rewrapped =
        cipherd.crypto.reEncrypt(
            ReEncryptRequest.newBuilder()
                .setCiphertext(generated.getWrappedKey())
                .setContext(COLUMN)
                .build());
    assertThat(rewrapped.getKeyVersion()).isEqualTo(2);
    assertThat(decrypt(rewrapped.getCiphertext(), COLUMN)).isEqualTo(generated.getPlaintextKey());
  }

  @Test
  void generateDataKey_options_andBadRequests() {
    GenerateDataKeyResponse small =
        cipherd.crypto.generateDataKey(
            GenerateDataKeyRequest.newBuilder()
                .setKeyName("files")
                .setKeySizeBits(128)
                .setOmitPlaintext(true)
                .build());
    assertThat(small.getPlaintextKey()).isEmpty();
    assertThat(decrypt(small.getWrappedKey(), ByteString.EMPTY).size()).isEqualTo(16);

    failsWith(
        Status.Code.INVALID_ARGUMENT,
        () ->
            cipherd.crypto.generateDataKey(
                GenerateDataKeyRequest.newBuilder()
                    .setKeyName("files")
                    .setKeySizeBits(192)
                    .build()));
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.crypto.generateDataKey(
                GenerateDataKeyRequest.newBuilder().setKeyName("email-idx").build()));
    failsWith(
        Status.Code.NOT_FOUND,
        () ->
            cipherd.crypto.generateDataKey(
                GenerateDataKeyRequest.newBuilder().setKeyName("nothing").build()));
  }

  private ComputeIndexResponse index(String value, Normalization normalization, int length) {
    return cipherd.crypto.computeIndex(
        ComputeIndexRequest.newBuilder()
            .setKeyName("email-idx")
            .setValue(ByteString.copyFromUtf8(value))
            .setNormalization(normalization)
            .setLengthBytes(length)
            .build());
  }

  private static ComputeIndexBatchItem item(String reference, ByteString value) {
    return ComputeIndexBatchItem.newBuilder().setReference(reference).setValue(value).build();
  }

  private void createKey(String name, Mode mode) {
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName(name).setMode(mode).build());
  }

  private String encrypt(String key, ByteString plaintext, ByteString context) {
    return cipherd
        .crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setPlaintext(plaintext)
                .setContext(context)
                .build())
        .getCiphertext();
  }

  private ByteString decrypt(String ciphertext, ByteString context) {
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).setContext(context).build())
        .getPlaintext();
  }
}
