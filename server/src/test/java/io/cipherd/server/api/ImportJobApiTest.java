package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateImportJobRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportJob;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.ImportWrappingAlgorithm;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.LegacyIv;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.server.crypto.keywrap.JdkKeyWrap;
import io.cipherd.server.importjobs.ImportJobsConfig;
import io.cipherd.server.keys.SettableClock;
import io.grpc.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Wrapped key import through the API of a server that takes no key material in the clear (the
 * default): CreateImportJob, material wrapped by the openssl CLI (the recipe AWS KMS documents) and
 * by Python's {@code cryptography} (Cloud KMS's recipe) for a live job's public key, imported, and
 * then decrypting a ciphertext those tools made with the same material; and the refusals: plaintext
 * import, a used, expired or foreign job, a blob that does not unwrap. openssl comes from {@code
 * .ci/install-openssl} (system property cipherd.openssl, as {@link LegacyOpensslTest}); the Python
 * case is skipped, saying so, where python3 has no {@code cryptography}.
 */
class ImportJobApiTest {
  private static final byte[] PLAINTEXT =
      "card 4111 1111 1111 1111, Zoë \u2713".getBytes(StandardCharsets.UTF_8);
  private static final AtomicInteger NEXT_KEY = new AtomicInteger();

  @TempDir static Path dataDir;
  @TempDir static Path work;
  private static final SettableClock CLOCK = new SettableClock(Instant.now());
  private static InProcessCipherd cipherd;
  private static String openssl;

  @BeforeAll
  static void start() throws Exception {
    openssl = System.getProperty("cipherd.openssl", "");
    assertThat(openssl)
        .as("system property cipherd.openssl (make test-java sets it from .ci/install-openssl)")
        .isNotBlank();
    cipherd =
        InProcessCipherd.start(
            dataDir,
            builder ->
                builder
                    .allowPlaintextKeyImport(false)
                    .clock(CLOCK)
                    .importJobs(new ImportJobsConfig(Duration.ofMinutes(30), 16, 16)));
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("modern").build());
  }

  @AfterAll
  static void stop() throws Exception {
    if (cipherd != null) {
      cipherd.close();
    }
  }

  @Test
  void plaintextMaterial_andPassphrase_areRefused_andNoKeyIsMade() {
    String name = nextKey();
    Status raw =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.admin.importKey(
                    ImportKeyRequest.newBuilder()
                        .setKeyName(name)
                        .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                        .build()));
    Status passphrase =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.admin.importKey(
                    ImportKeyRequest.newBuilder()
                        .setKeyName(name)
                        .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB)
                        .setPassphrase(ByteString.copyFromUtf8("my secret key string"))
                        .build()));

    assertThat(raw.getDescription()).contains("--allow-plaintext-key-import");
    assertThat(passphrase.getDescription()).isEqualTo(raw.getDescription());
    failsWith(
        Status.Code.NOT_FOUND,
        () -> cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName(name).build()));
  }

  @ParameterizedTest
  @EnumSource(
      value = ImportWrappingAlgorithm.class,
      names = {
        "IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072",
        "IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096"
      })
  void opensslWrappedMaterial_imports_andDecryptsOpensslsCiphertext(
      ImportWrappingAlgorithm algorithm) throws Exception {
    String name = nextKey();
    ImportJob job = createJob(name, algorithm);
    Path dir = Files.createTempDirectory(work, "openssl");
    Files.writeString(dir.resolve("public.pem"), job.getPublicKeyPem());
    // The recipe of AWS KMS's documentation, step by step.
    run(dir, openssl, "rand", "-out", "material.bin", "32");
    run(dir, openssl, "rand", "-out", "aes.bin", "32");
    String aesHex = HexFormat.of().formatHex(Files.readAllBytes(dir.resolve("aes.bin")));
    run(
        dir,
        openssl,
        "enc",
        "-id-aes256-wrap-pad",
        "-K",
        aesHex,
        "-iv",
        "A65959A6",
        "-in",
        "material.bin",
        "-out",
        "material.wrapped");
    run(
        dir,
        openssl,
        "pkeyutl",
        "-encrypt",
        "-in",
        "aes.bin",
        "-out",
        "aes.encrypted",
        "-inkey",
        "public.pem",
        "-pubin",
        "-pkeyopt",
        "rsa_padding_mode:oaep",
        "-pkeyopt",
        "rsa_oaep_md:sha256",
        "-pkeyopt",
        "rsa_mgf1_md:sha256");
    byte[] blob =
        concat(
            Files.readAllBytes(dir.resolve("aes.encrypted")),
            Files.readAllBytes(dir.resolve("material.wrapped")));
    String materialHex = HexFormat.of().formatHex(Files.readAllBytes(dir.resolve("material.bin")));
    String ivHex = "000102030405060708090a0b0c0d0e0f";
    Files.write(dir.resolve("plain.bin"), PLAINTEXT);
    run(
        dir,
        openssl,
        "enc",
        "-e",
        "-aes-256-cbc",
        "-K",
        materialHex,
        "-iv",
        ivHex,
        "-nosalt",
        "-in",
        "plain.bin",
        "-out",
        "cipher.bin");

    importWrapped(name, job, blob);

    byte[] ciphertext = Files.readAllBytes(dir.resolve("cipher.bin"));
    assertThat(decryptLegacy(name, ciphertext, HexFormat.of().parseHex(ivHex)))
        .isEqualTo(PLAINTEXT);
  }

  @Test
  void pythonCryptographyWrappedMaterial_imports_andDecryptsItsCiphertext() throws Exception {
    assumeTrue(
        exitCode("python3", "-c", "import cryptography") == 0,
        "skipped: python3 has no cryptography package here, so its recipe cannot run");
    String name = nextKey();
    ImportJob job =
        createJob(
            name, ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072);
    Path dir = Files.createTempDirectory(work, "python");
    Files.writeString(dir.resolve("public.pem"), job.getPublicKeyPem());
    Files.write(dir.resolve("plain.bin"), PLAINTEXT);
    // Cloud KMS's recipe: os.urandom material, aes_key_wrap_with_padding under a fresh AES-256
    // key, that key encrypted with RSA-OAEP SHA-256; and the same material encrypts with AES-CTR.
    Files.writeString(
        dir.resolve("wrap.py"),
        """
        import os
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.keywrap import aes_key_wrap_with_padding

        public_key = serialization.load_pem_public_key(open("public.pem", "rb").read())
        material = os.urandom(32)
        kek = os.urandom(32)
        blob = public_key.encrypt(
            kek,
            padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None),
        ) + aes_key_wrap_with_padding(kek, material)
        open("blob.bin", "wb").write(blob)
        iv = os.urandom(16)
        encryptor = Cipher(algorithms.AES(material), modes.CTR(iv)).encryptor()
        open("cipher.bin", "wb").write(iv + encryptor.update(open("plain.bin", "rb").read()) + encryptor.finalize())
        """);
    run(dir, "python3", "wrap.py");

    importWrappedLegacy(
        name,
        job,
        Files.readAllBytes(dir.resolve("blob.bin")),
        LegacyCipher.LEGACY_CIPHER_AES_CTR,
        LegacyIv.LEGACY_IV_PREPENDED);

    assertThat(decryptLegacy(name, Files.readAllBytes(dir.resolve("cipher.bin")), new byte[0]))
        .isEqualTo(PLAINTEXT);
  }

  @Test
  void wrappedGcmMaterial_becomesACurrentVersionThatEncrypts() throws Exception {
    String name = nextKey();
    ImportJob job = createJob(name, ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_UNSPECIFIED);
    assertThat(job.getWrappingAlgorithm())
        .isEqualTo(ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072);
    assertThat(job.getKeyName()).isEqualTo(name);
    assertThat(Instant.ofEpochSecond(job.getExpireTime().getSeconds()))
        .isEqualTo(CLOCK.instant().plus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.SECONDS));

    cipherd.admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName(name)
            .setMode(Mode.MODE_GCM)
            .setImportJobId(job.getImportJobId())
            .setWrappedKeyMaterial(
                ByteString.copyFrom(JdkKeyWrap.wrap(publicKey(job), new byte[32])))
            .build());

    assertThat(cipherd.decrypt(cipherd.encrypt(name, "hello"))).isEqualTo("hello");
  }

  @Test
  void aJob_opensOneImport_evenWhenItsBlobDidNotUnwrap() throws Exception {
    String name = nextKey();
    ImportJob job =
        createJob(
            name, ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072);
    byte[] blob = JdkKeyWrap.wrap(publicKey(job), new byte[32]);
    byte[] tampered = blob.clone();
    tampered[20] ^= 1;

    Status unwrap =
        failsWith(Status.Code.INVALID_ARGUMENT, () -> importWrappedGcm(name, job, tampered));
    Status used =
        failsWith(Status.Code.FAILED_PRECONDITION, () -> importWrappedGcm(name, job, blob));

    assertThat(unwrap.getDescription()).isEqualTo("the wrapped key material did not unwrap");
    assertThat(used.getDescription())
        .startsWith("the import job is unknown, expired, already used");
  }

  @Test
  void aJob_forAnotherKey_isRefused_andAnExpiredOneToo() throws Exception {
    String name = nextKey();
    ImportJob job =
        createJob(
            name, ImportWrappingAlgorithm.IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072);
    byte[] blob = JdkKeyWrap.wrap(publicKey(job), new byte[32]);

    failsWith(Status.Code.FAILED_PRECONDITION, () -> importWrappedGcm(nextKey(), job, blob));
    CLOCK.advance(Duration.ofMinutes(31));
    failsWith(Status.Code.FAILED_PRECONDITION, () -> importWrappedGcm(name, job, blob));
  }

  @Test
  void wrappedAndPlaintextMaterial_together_areRefused() {
    Status both =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.admin.importKey(
                    ImportKeyRequest.newBuilder()
                        .setKeyName(nextKey())
                        .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                        .setWrappedKeyMaterial(ByteString.copyFrom(new byte[400]))
                        .setImportJobId("0011")
                        .build()));
    Status noJob =
        failsWith(
            Status.Code.INVALID_ARGUMENT,
            () ->
                cipherd.admin.importKey(
                    ImportKeyRequest.newBuilder()
                        .setKeyName(nextKey())
                        .setWrappedKeyMaterial(ByteString.copyFrom(new byte[400]))
                        .build()));

    assertThat(both.getDescription()).contains("not both");
    assertThat(noJob.getDescription()).contains("import_job_id");
  }

  private static ImportJob createJob(String name, ImportWrappingAlgorithm algorithm) {
    return cipherd
        .admin
        .createImportJob(
            CreateImportJobRequest.newBuilder()
                .setKeyName(name)
                .setWrappingAlgorithm(algorithm)
                .build())
        .getImportJob();
  }

  private static void importWrapped(String name, ImportJob job, byte[] blob) {
    importWrappedLegacy(
        name, job, blob, LegacyCipher.LEGACY_CIPHER_AES_CBC, LegacyIv.LEGACY_IV_SEPARATE);
  }

  private static void importWrappedLegacy(
      String name, ImportJob job, byte[] blob, LegacyCipher cipher, LegacyIv iv) {
    cipherd.admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName(name)
            .setLegacyCipher(cipher)
            .setLegacyIv(iv)
            .setImportJobId(job.getImportJobId())
            .setWrappedKeyMaterial(ByteString.copyFrom(blob))
            .build());
  }

  private static void importWrappedGcm(String name, ImportJob job, byte[] blob) {
    cipherd.admin.importKey(
        ImportKeyRequest.newBuilder()
            .setKeyName(name)
            .setMode(Mode.MODE_GCM)
            .setImportJobId(job.getImportJobId())
            .setWrappedKeyMaterial(ByteString.copyFrom(blob))
            .build());
  }

  /** The plaintext of a legacy ciphertext of {@code key}, rewrapped into "modern" and decrypted. */
  private static byte[] decryptLegacy(String key, byte[] data, byte[] iv) {
    String rewrapped =
        cipherd
            .crypto
            .reEncrypt(
                ReEncryptRequest.newBuilder()
                    .setLegacy(
                        LegacyCiphertext.newBuilder()
                            .setKeyName(key)
                            .setRaw(ByteString.copyFrom(data))
                            .setIv(ByteString.copyFrom(iv)))
                    .setKeyName("modern")
                    .build())
            .getCiphertext();
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(rewrapped).build())
        .getPlaintext()
        .toByteArray();
  }

  private static RSAPublicKey publicKey(ImportJob job) throws Exception {
    return JdkKeyWrap.publicKey(job.getPublicKeyPem());
  }

  private static String nextKey() {
    return "byok-" + NEXT_KEY.incrementAndGet();
  }

  private static void run(Path dir, String... command) throws Exception {
    Process process =
        new ProcessBuilder(List.of(command))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(readAll(process.getInputStream()), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
    assertThat(process.exitValue()).as("%s: %s", String.join(" ", command), output).isZero();
  }

  private static int exitCode(String... command) {
    try {
      Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).start();
      readAll(process.getInputStream());
      return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    } catch (IOException | InterruptedException absent) {
      return -1;
    }
  }

  private static byte[] readAll(InputStream stream) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    stream.transferTo(out);
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
