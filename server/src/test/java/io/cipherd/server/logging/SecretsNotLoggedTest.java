package io.cipherd.server.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.api.StreamRecorder;
import io.cipherd.server.crypto.keywrap.JdkKeyWrap;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Runs every RPC, successes and failures, against a real server with known plaintexts and imported
 * known key bytes, while capturing everything logged at every level; then no plaintext, key (raw,
 * hex or base64) or ciphertext payload may appear in the log or in /metrics.
 */
class SecretsNotLoggedTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  @TempDir Path dataDir;

  private final List<String> plaintexts = new ArrayList<>();
  private final List<byte[]> keys = new ArrayList<>();
  private final List<String> ciphertexts = new ArrayList<>();

  @Test
  void everyRpc_successesAndFailures_logNoPlaintextKeyOrCiphertext() throws Exception {
    String logged;
    String metrics;
    try (CapturedLogs logs = new CapturedLogs()) {
      try (CipherdServer server = TestServers.start(dataDir, /* metricsKeyNames= */ true)) {
        ManagedChannel channel = TestServers.channel(server);
        try {
          exerciseEveryRpc(channel);
        } finally {
          channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        metrics = TestServers.get(server, "/metrics").body();
      }
      logged = logs.text();
      logs.saveTo(Path.of("target", "log-scan", "secrets-not-logged.log"));
    }

    // The capture must have seen the calls, or an empty log would pass.
    assertThat(logged)
        .contains(
            "cipherd.v1.CryptoService/Encrypt",
            "cipherd.v1.CryptoService/ReEncryptStream",
            "cipherd.v1.KeyAdminService/ImportKey",
            "cipherd.v1.KeyAdminService/CreateImportJob",
            "cipherd.v1.FormatPreservingService/ReEncryptFormattedBatch",
            "cipherd.v1.FormatPreservingService/ReEncryptFormattedStream",
            "status=INVALID_ARGUMENT");
    Map<String, String> secrets = secretForms();
    assertThat(secrets).hasSizeGreaterThan(50);
    List<String> leaks = new ArrayList<>();
    for (Map.Entry<String, String> secret : secrets.entrySet()) {
      if (logged.contains(secret.getValue())) {
        leaks.add("log: " + secret.getKey());
      }
      if (metrics.contains(secret.getValue())) {
        leaks.add("/metrics: " + secret.getKey());
      }
    }
    // Names what leaked, not the whole log; the log is in target/log-scan.
    assertThat(leaks).as("secrets found in the log or /metrics").isEmpty();
  }

  /**
   * At DEBUG, grpc-netty's HTTP/2 frame logger hex-dumps message bytes: imported keys and
   * plaintexts. The shipped logback.xml pins it to WARN whatever the root level; this keeps it that
   * way.
   */
  @Test
  void nettyFrameLogger_staysQuiet_evenWhenEverythingElseLogsDebug() {
    var frames = LoggerFactory.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler");
    try (CapturedLogs logs = new CapturedLogs()) {
      assertThat(LoggerFactory.getLogger("io.cipherd.server").isTraceEnabled()).isTrue();
      assertThat(frames.isDebugEnabled()).isFalse();
    }
  }

  private void exerciseEveryRpc(ManagedChannel channel) throws Exception {
    var admin = KeyAdminServiceGrpc.newBlockingStub(channel);
    var crypto = CryptoServiceGrpc.newBlockingStub(channel);

    byte[] gcmKey = key(32);
    byte[] cbcKey = key(16);
    byte[] wrongSizeKey = key(20);
    admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("imported")
            .setMode(Mode.MODE_GCM)
            .setKeyMaterial(ByteString.copyFrom(gcmKey))
            .build());
    admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("legacy")
            .setMode(Mode.MODE_CBC)
            .setAllowUnauthenticated(true)
            .setKeyMaterial(ByteString.copyFrom(cbcKey))
            .build());
    fails(
        () ->
            admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("bad-size")
                    .setMode(Mode.MODE_GCM)
                    .setKeyMaterial(ByteString.copyFrom(wrongSizeKey))
                    .build()));
    fails(
        () ->
            admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("legacy-refused")
                    .setMode(Mode.MODE_CBC)
                    .setKeyMaterial(ByteString.copyFrom(cbcKey))
                    .build()));
    // Wrapped import: the material (a key) and the job's private key must not show; the wrapped
    // blob is no secret, but it is not logged either.
    byte[] wrappedMaterial = key(32);
    ImportJob job =
        admin
            .createImportJob(CreateImportJobRequest.newBuilder().setKeyName("wrapped").build())
            .getImportJob();
    byte[] blob = JdkKeyWrap.wrap(JdkKeyWrap.publicKey(job.getPublicKeyPem()), wrappedMaterial);
    admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("wrapped")
            .setMode(Mode.MODE_GCM)
            .setImportJobId(job.getImportJobId())
            .setWrappedKeyMaterial(ByteString.copyFrom(blob))
            .build());
    ImportJob spent =
        admin
            .createImportJob(CreateImportJobRequest.newBuilder().setKeyName("wrapped").build())
            .getImportJob();
    byte[] tampered = JdkKeyWrap.wrap(JdkKeyWrap.publicKey(spent.getPublicKeyPem()), key(32));
    tampered[tampered.length - 1] ^= 1;
    fails(
        () ->
            admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("wrapped")
                    .setMode(Mode.MODE_GCM)
                    .setImportJobId(spent.getImportJobId())
                    .setWrappedKeyMaterial(ByteString.copyFrom(tampered))
                    .build()));
    admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("fresh").setMode(Mode.MODE_CHACHA).build());
    fails(() -> admin.createKey(CreateKeyRequest.newBuilder().setKeyName("fresh").build()));
    admin.getKey(GetKeyRequest.newBuilder().setKeyName("imported").build());
    fails(() -> admin.getKey(GetKeyRequest.newBuilder().setKeyName("absent").build()));
    admin.listKeys(ListKeysRequest.newBuilder().setPageSize(10).build());

    String one = encrypt(crypto, "imported", "context-a");
    String two = encrypt(crypto, "legacy", "");
    String three = encrypt(crypto, "fresh", "context-b");
    fails(
        () ->
            crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("absent")
                    .setPlaintext(plaintext("to a missing key"))
                    .build()));
    fails(
        () ->
            crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("legacy")
                    .setPlaintext(plaintext("with context on cbc"))
                    .setContext(ByteString.copyFromUtf8("ctx"))
                    .build()));

    crypto.decrypt(
        DecryptRequest.newBuilder().setCiphertext(one).setContext(utf8("context-a")).build());
    crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(two).build());
    fails(
        () ->
            crypto.decrypt(
                DecryptRequest.newBuilder().setCiphertext(one).setContext(utf8("wrong")).build()));
    fails(
        () ->
            crypto.decrypt(
                DecryptRequest.newBuilder()
                    .setCiphertext(tamper(one))
                    .setContext(utf8("context-a"))
                    .build()));
    fails(() -> crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(tamper(two)).build()));
    fails(
        () ->
            crypto.decrypt(
                DecryptRequest.newBuilder()
                    .setCiphertext(one.substring(0, one.length() / 2))
                    .build()));
    fails(
        () ->
            crypto.decrypt(
                DecryptRequest.newBuilder()
                    .setCiphertext("not a ciphertext " + plaintexts.get(0))
                    .build()));

    crypto.inspect(InspectRequest.newBuilder().setCiphertext(three).build());
    fails(
        () ->
            crypto.inspect(
                InspectRequest.newBuilder().setCiphertext("<absent/v1:gcm>AAAA").build()));

    admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("imported").build());
    ciphertexts.add(
        crypto
            .reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(one)
                    .setContext(utf8("context-a"))
                    .build())
            .getCiphertext());
    ciphertexts.add(
        crypto
            .reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(three)
                    .setContext(utf8("context-b"))
                    .setKeyName("imported")
                    .build())
            .getCiphertext());
    fails(
        () ->
            crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setCiphertext(one)
                    .setKeyName("absent")
                    .setContext(utf8("context-a"))
                    .build()));
    admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName("imported")
            .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(2))
            .build());
    fails(
        () ->
            crypto.decrypt(
                DecryptRequest.newBuilder()
                    .setCiphertext(one)
                    .setContext(utf8("context-a"))
                    .build()));
    fails(
        () ->
            admin.updateKeyPolicy(
                UpdateKeyPolicyRequest.newBuilder()
                    .setKeyName("imported")
                    .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(9))
                    .build()));

    var encrypted =
        crypto.encryptBatch(
            EncryptBatchRequest.newBuilder()
                .setKeyName("legacy")
                .addItems(
                    EncryptBatchItem.newBuilder()
                        .setReference("a")
                        .setPlaintext(plaintext("batch item a")))
                .addItems(
                    EncryptBatchItem.newBuilder()
                        .setReference("b")
                        .setPlaintext(plaintext("batch item b"))
                        .setContext(utf8("not on cbc")))
                .build());
    encrypted.getResultsList().forEach(r -> ciphertexts.add(r.getCiphertext()));
    crypto.decryptBatch(
        DecryptBatchRequest.newBuilder()
            .addItems(
                DecryptBatchItem.newBuilder()
                    .setReference("ok")
                    .setCiphertext(encrypted.getResults(0).getCiphertext()))
            .addItems(
                DecryptBatchItem.newBuilder().setReference("tampered").setCiphertext(tamper(two)))
            .addItems(
                DecryptBatchItem.newBuilder()
                    .setReference("old")
                    .setCiphertext(one)
                    .setContext(utf8("context-a")))
            .build());
    crypto
        .reEncryptBatch(
            ReEncryptBatchRequest.newBuilder()
                .setKeyName("fresh")
                .addItems(ReEncryptBatchItem.newBuilder().setReference("ok").setCiphertext(two))
                .addItems(
                    ReEncryptBatchItem.newBuilder()
                        .setReference("bad")
                        .setCiphertext(tamper(three))
                        .setContext(utf8("context-b")))
                .build())
        .getResultsList()
        .forEach(r -> ciphertexts.add(r.getCiphertext()));

    reEncryptStream(channel, List.of(two, tamper(two), three, "garbage " + plaintexts.get(1)));
    exerciseLegacyRewraps(admin, crypto);
    exerciseFormatted(admin, FormatPreservingServiceGrpc.newBlockingStub(channel));
    exerciseFormattedStreams(channel);
  }

  /**
   * The three format-preserving streams on the FF1 key {@link #exerciseFormatted} imported and
   * rotated (now at version 2), each with an item that succeeds and one refused as an item.
   */
  private void exerciseFormattedStreams(ManagedChannel channel) throws Exception {
    var fpe = FormatPreservingServiceGrpc.newStub(channel);
    String value = HexFormat.of().formatHex(key(12));
    plaintexts.add(value);
    String outside = "PLAINTEXT-ff1-stream-" + HexFormat.of().formatHex(key(8));
    plaintexts.add(outside);
    ByteString context = utf8("users.ff1");

    StreamRecorder<EncryptFormattedStreamResponse> encrypted = new StreamRecorder<>();
    StreamObserver<EncryptFormattedStreamRequest> encrypts = fpe.encryptFormattedStream(encrypted);
    for (String item : List.of(value, outside)) {
      encrypts.onNext(
          EncryptFormattedStreamRequest.newBuilder()
              .setReference("e")
              .setKeyName("ff1")
              .setValue(item)
              .setContext(context)
              .build());
    }
    encrypts.onCompleted();
    String ciphertext = encrypted.awaitValues(10).get(0).getResult().getValue();
    ciphertexts.add(ciphertext);

    StreamRecorder<DecryptFormattedStreamResponse> decrypted = new StreamRecorder<>();
    StreamObserver<DecryptFormattedStreamRequest> decrypts = fpe.decryptFormattedStream(decrypted);
    for (String item : List.of(ciphertext, outside)) {
      decrypts.onNext(
          DecryptFormattedStreamRequest.newBuilder()
              .setReference("d")
              .setKeyName("ff1")
              .setValue(item)
              .setContext(context)
              .setKeyVersion(2)
              .build());
    }
    decrypts.onCompleted();
    assertThat(decrypted.awaitValues(10).get(0).getResult().getValue()).isEqualTo(value);

    StreamRecorder<ReEncryptFormattedStreamResponse> moved = new StreamRecorder<>();
    StreamObserver<ReEncryptFormattedStreamRequest> moves = fpe.reEncryptFormattedStream(moved);
    for (String item : List.of(ciphertext, outside)) {
      moves.onNext(
          ReEncryptFormattedStreamRequest.newBuilder()
              .setReference("m")
              .setKeyName("ff1")
              .setValue(item)
              .setContext(context)
              .setKeyVersion(2)
              .build());
    }
    moves.onCompleted();
    moved.awaitValues(10).forEach(r -> ciphertexts.add(r.getResult().getValue()));
  }

  /**
   * Every FormatPreservingService RPC on an imported FF1 key, with values that succeed and values
   * that are refused (outside the alphabet, no version, a wrong kind of key).
   */
  private void exerciseFormatted(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin,
      FormatPreservingServiceGrpc.FormatPreservingServiceBlockingStub fpe) {
    admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("ff1")
            .setMode(Mode.MODE_FF1)
            .setKeyMaterial(ByteString.copyFrom(key(32)))
            .setFpeFormat(FpeFormat.newBuilder().setAlphabet("0123456789abcdef"))
            .build());
    String value = HexFormat.of().formatHex(key(12));
    plaintexts.add(value);
    ByteString context = utf8("users.ff1");
    var encrypted =
        fpe.encryptFormatted(
            EncryptFormattedRequest.newBuilder()
                .setKeyName("ff1")
                .setValue(value)
                .setContext(context)
                .build());
    ciphertexts.add(encrypted.getValue());
    fpe.decryptFormatted(
        DecryptFormattedRequest.newBuilder()
            .setKeyName("ff1")
            .setValue(encrypted.getValue())
            .setContext(context)
            .setKeyVersion(1)
            .build());
    fpe.maskFormatted(
        MaskFormattedRequest.newBuilder()
            .setKeyName("ff1")
            .setValue(encrypted.getValue())
            .setContext(context)
            .setKeyVersion(1)
            .build());
    admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("ff1").build());
    ciphertexts.add(
        fpe.reEncryptFormatted(
                ReEncryptFormattedRequest.newBuilder()
                    .setKeyName("ff1")
                    .setValue(encrypted.getValue())
                    .setContext(context)
                    .setKeyVersion(1)
                    .build())
            .getValue());
    String outside = "PLAINTEXT-ff1-" + HexFormat.of().formatHex(key(8));
    plaintexts.add(outside);
    fails(
        () ->
            fpe.encryptFormatted(
                EncryptFormattedRequest.newBuilder().setKeyName("ff1").setValue(outside).build()));
    fails(
        () ->
            fpe.decryptFormatted(
                DecryptFormattedRequest.newBuilder()
                    .setKeyName("ff1")
                    .setValue(encrypted.getValue())
                    .build()));
    fails(
        () ->
            fpe.encryptFormatted(
                EncryptFormattedRequest.newBuilder()
                    .setKeyName("imported")
                    .setValue(value)
                    .build()));
    var batch =
        fpe.encryptFormattedBatch(
            EncryptFormattedBatchRequest.newBuilder()
                .setKeyName("ff1")
                .setContext(context)
                .addItems(EncryptFormattedBatchItem.newBuilder().setValue(value))
                .addItems(EncryptFormattedBatchItem.newBuilder().setValue(outside))
                .build());
    ciphertexts.add(batch.getResults(0).getValue());
    fpe.decryptFormattedBatch(
        DecryptFormattedBatchRequest.newBuilder()
            .setKeyName("ff1")
            .setContext(context)
            .setKeyVersion(2)
            .addItems(FormattedBatchItem.newBuilder().setValue(batch.getResults(0).getValue()))
            .addItems(FormattedBatchItem.newBuilder().setValue(outside))
            .build());
    fpe.reEncryptFormattedBatch(
        ReEncryptFormattedBatchRequest.newBuilder()
            .setKeyName("ff1")
            .setContext(context)
            .setKeyVersion(1)
            .addItems(FormattedBatchItem.newBuilder().setValue(encrypted.getValue()))
            .addItems(FormattedBatchItem.newBuilder().setValue(outside))
            .build());
  }

  /** Legacy imports (key bytes and a MySQL key string) and rewraps of legacy data, good and bad. */
  private void exerciseLegacyRewraps(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin,
      CryptoServiceGrpc.CryptoServiceBlockingStub crypto)
      throws Exception {
    byte[] legacyKey = key(32);
    byte[] iv = key(16);
    String keyString = "KEYSTRING-" + HexFormat.of().formatHex(key(8));
    plaintexts.add(keyString);
    admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("old-cbc")
            .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_AES_CBC)
            .setKeyMaterial(ByteString.copyFrom(legacyKey))
            .build());
    admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName("old-mysql")
            .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB)
            .setPassphrase(utf8(keyString))
            .build());
    fails(
        () ->
            admin.importKey(
                ImportKeyRequest.newBuilder()
                    .setKeyName("old-bad")
                    .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_AES_CBC)
                    .setPassphrase(utf8(keyString))
                    .build()));
    Cipher cbc = Cipher.getInstance("AES/CBC/PKCS5Padding");
    cbc.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(legacyKey, "AES"), new IvParameterSpec(iv));
    byte[] row = cbc.doFinal(plaintext("legacy row").toByteArray());
    byte[] stored = Arrays.copyOf(iv, iv.length + row.length);
    System.arraycopy(row, 0, stored, iv.length, row.length);
    String hex = HexFormat.of().formatHex(stored);
    ciphertexts.add(hex);
    ciphertexts.add(Base64.getEncoder().encodeToString(stored));

    ciphertexts.add(
        crypto
            .reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setKeyName("fresh")
                    .setContext(utf8("context-b"))
                    .setLegacy(LegacyCiphertext.newBuilder().setKeyName("old-cbc").setHex(hex))
                    .build())
            .getCiphertext());
    String tampered = hex.substring(0, hex.length() - 2); // not whole blocks: always fails
    fails(
        () ->
            crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setKeyName("fresh")
                    .setLegacy(LegacyCiphertext.newBuilder().setKeyName("old-cbc").setHex(tampered))
                    .build()));
    fails(
        () ->
            crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setKeyName("fresh")
                    .setLegacy(
                        LegacyCiphertext.newBuilder().setKeyName("old-mysql").setHex(hex + "zz"))
                    .build()));
    fails(
        () ->
            crypto.reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setLegacy(LegacyCiphertext.newBuilder().setKeyName("old-cbc").setHex(hex))
                    .build()));
    crypto
        .reEncryptBatch(
            ReEncryptBatchRequest.newBuilder()
                .setKeyName("fresh")
                .addItems(
                    ReEncryptBatchItem.newBuilder()
                        .setReference("legacy")
                        .setLegacy(
                            LegacyCiphertext.newBuilder()
                                .setKeyName("old-cbc")
                                .setRaw(ByteString.copyFrom(stored))))
                .addItems(
                    ReEncryptBatchItem.newBuilder()
                        .setReference("wrong key")
                        .setLegacy(
                            LegacyCiphertext.newBuilder()
                                .setKeyName("old-mysql")
                                .setRaw(ByteString.copyFrom(stored))))
                .build())
        .getResultsList()
        .forEach(r -> ciphertexts.add(r.getCiphertext()));
  }

  private void reEncryptStream(ManagedChannel channel, List<String> items) throws Exception {
    StreamRecorder<ReEncryptStreamResponse> responses = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> requests =
        CryptoServiceGrpc.newStub(channel).reEncryptStream(responses);
    for (String item : items) {
      requests.onNext(
          ReEncryptStreamRequest.newBuilder()
              .setReference("r")
              .setCiphertext(item)
              .setContext(item.contains(":chacha>") ? utf8("context-b") : ByteString.EMPTY)
              .build());
    }
    requests.onCompleted();
    responses.awaitValues(10).forEach(r -> ciphertexts.add(r.getResult().getCiphertext()));
  }

  private String encrypt(
      CryptoServiceGrpc.CryptoServiceBlockingStub crypto, String key, String context) {
    String ciphertext =
        crypto
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(key)
                    .setPlaintext(plaintext("single to " + key))
                    .setContext(utf8(context))
                    .build())
            .getCiphertext();
    ciphertexts.add(ciphertext);
    return ciphertext;
  }

  /** A distinctive plaintext, remembered for the scan. */
  private ByteString plaintext(String what) {
    String text = "PLAINTEXT[" + what + "]-" + HexFormat.of().formatHex(key(8));
    plaintexts.add(text);
    return utf8(text);
  }

  private byte[] key(int length) {
    byte[] bytes = new byte[length];
    RANDOM.nextBytes(bytes);
    keys.add(bytes);
    return bytes;
  }

  /**
   * Flips a character in the payload, keeping the header, so the tag or padding fails to verify.
   */
  /**
   * {@code ciphertext} with the top bit of the last byte of its second-to-last 16-byte block
   * flipped: an AEAD's tag no longer matches, and under cbc the last padding byte becomes 0x80 or
   * more, so the padding is invalid every time (flipping any bit of the last block would leave
   * valid padding about once in 256 runs).
   */
  private static String tamper(String ciphertext) {
    int bodyStart = ciphertext.indexOf('>') + 1;
    byte[] payload = Base64.getDecoder().decode(ciphertext.substring(bodyStart));
    payload[payload.length - 17] ^= (byte) 0x80;
    return ciphertext.substring(0, bodyStart) + Base64.getEncoder().encodeToString(payload);
  }

  private static void fails(Runnable call) {
    assertThatThrownBy(call::run).isInstanceOf(StatusRuntimeException.class);
  }

  private static ByteString utf8(String text) {
    return ByteString.copyFromUtf8(text);
  }

  /** Every form in which a secret could leak, by what it is. */
  private Map<String, String> secretForms() {
    Map<String, String> forms = new LinkedHashMap<>();
    for (String plaintext : plaintexts) {
      forms.put("plaintext " + plaintext, plaintext);
      forms.put(
          "base64 of plaintext " + plaintext,
          Base64.getEncoder()
              .withoutPadding()
              .encodeToString(plaintext.getBytes(StandardCharsets.UTF_8)));
      forms.put(
          "hex of plaintext " + plaintext,
          HexFormat.of().formatHex(plaintext.getBytes(StandardCharsets.UTF_8)));
    }
    for (byte[] key : keys) {
      String hex = HexFormat.of().formatHex(key);
      forms.put("raw key " + hex, new String(key, StandardCharsets.ISO_8859_1));
      forms.put("hex key " + hex, hex);
      forms.put("HEX key " + hex, hex.toUpperCase(Locale.ROOT));
      forms.put("base64 key " + hex, Base64.getEncoder().withoutPadding().encodeToString(key));
      forms.put(
          "base64url key " + hex, Base64.getUrlEncoder().withoutPadding().encodeToString(key));
    }
    for (String ciphertext : ciphertexts) {
      if (ciphertext.isEmpty()) {
        continue;
      }
      forms.put("ciphertext " + ciphertext, ciphertext);
      // The payload alone (after the header) is what must not leak; the header is just a key name.
      forms.put(
          "ciphertext payload " + ciphertext, ciphertext.substring(ciphertext.indexOf('>') + 1));
    }
    return forms;
  }
}
