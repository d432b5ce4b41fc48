package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.LegacyIv;
import io.cipherd.api.v1.ReEncryptRequest;
import io.grpc.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ciphertexts made at test time by the OpenSSL CLI ({@code openssl enc}), an implementation
 * independent of the JDK, for every AES mode at 128 and 256 bits and every other legacy cipher, in
 * each IV convention that applies: imported, rewrapped into a gcm key through the gRPC service and
 * decrypted back. The binary comes from {@code .ci/install-openssl} through the system property
 * {@code cipherd.openssl}, which {@code make test-java} sets; without it these tests fail.
 */
class LegacyOpensslTest {
  /** Not ASCII, and longer than two blocks, so chaining and padding are both exercised. */
  private static final byte[] PLAINTEXT =
      "customer 4711: Zoë Müller, born 1970-01-01 \u2713".getBytes(StandardCharsets.UTF_8);

  private static final ByteString CONTEXT = ByteString.copyFromUtf8("customers.name");
  private static final AtomicInteger NEXT_KEY = new AtomicInteger();

  @TempDir static Path dataDir;
  private static InProcessCipherd cipherd;
  private static String openssl;

  /** One {@code openssl enc} cipher and the legacy cipher that decrypts it. */
  record OpensslCipher(
      String name,
      LegacyCipher cipher,
      int keyBytes,
      int ivBytes,
      boolean padded,
      boolean legacyProvider) {
    /** Bytes per block: 16 for AES, 8 for DES, 3DES and Blowfish. */
    int blockBytes() {
      return name.startsWith("aes") ? 16 : 8;
    }

    @Override
    public String toString() {
      return name + (cipher == LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB ? " as mysql" : "");
    }
  }

  private static final List<OpensslCipher> CIPHERS =
      List.of(
          aes("aes-128-cbc", LegacyCipher.LEGACY_CIPHER_AES_CBC, 16, 16, true),
          aes("aes-256-cbc", LegacyCipher.LEGACY_CIPHER_AES_CBC, 32, 16, true),
          aes("aes-128-ecb", LegacyCipher.LEGACY_CIPHER_AES_ECB, 16, 0, true),
          aes("aes-256-ecb", LegacyCipher.LEGACY_CIPHER_AES_ECB, 32, 0, true),
          aes("aes-128-ctr", LegacyCipher.LEGACY_CIPHER_AES_CTR, 16, 16, false),
          aes("aes-256-ctr", LegacyCipher.LEGACY_CIPHER_AES_CTR, 32, 16, false),
          aes("aes-128-cfb", LegacyCipher.LEGACY_CIPHER_AES_CFB, 16, 16, false),
          aes("aes-256-cfb", LegacyCipher.LEGACY_CIPHER_AES_CFB, 32, 16, false),
          aes("aes-128-ofb", LegacyCipher.LEGACY_CIPHER_AES_OFB, 16, 16, false),
          aes("aes-256-ofb", LegacyCipher.LEGACY_CIPHER_AES_OFB, 32, 16, false),
          aes("aes-128-ecb", LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB, 16, 0, true),
          new OpensslCipher("des-cbc", LegacyCipher.LEGACY_CIPHER_DES_CBC, 8, 8, true, true),
          new OpensslCipher(
              "des-ede-cbc", LegacyCipher.LEGACY_CIPHER_DESEDE_CBC, 16, 8, true, false),
          new OpensslCipher(
              "des-ede3-cbc", LegacyCipher.LEGACY_CIPHER_DESEDE_CBC, 24, 8, true, false),
          new OpensslCipher("bf-cbc", LegacyCipher.LEGACY_CIPHER_BLOWFISH_CBC, 16, 8, true, true),
          new OpensslCipher("rc4", LegacyCipher.LEGACY_CIPHER_RC4, 16, 0, false, true),
          new OpensslCipher("rc4-40", LegacyCipher.LEGACY_CIPHER_RC4, 5, 0, false, true));

  @BeforeAll
  static void start() throws Exception {
    openssl = System.getProperty("cipherd.openssl", "");
    assertThat(openssl)
        .as(
            "system property cipherd.openssl: the openssl binary .ci/install-openssl prints, which "
                + "make test-java passes (or run with -Dopenssl.bin=\"$(.ci/install-openssl)\")")
        .isNotBlank();
    assertThat(Path.of(openssl)).as("cipherd.openssl").isExecutable();
    cipherd = InProcessCipherd.start(dataDir);
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("modern").build());
  }

  @AfterAll
  static void stop() throws Exception {
    if (cipherd != null) {
      cipherd.close();
    }
  }

  static Stream<Arguments> everyCipherInEveryConvention() {
    List<Arguments> cases = new ArrayList<>();
    for (OpensslCipher cipher : CIPHERS) {
      List<LegacyIv> conventions =
          cipher.ivBytes() == 0
              ? List.of(LegacyIv.LEGACY_IV_UNSPECIFIED)
              : List.of(
                  LegacyIv.LEGACY_IV_PREPENDED,
                  LegacyIv.LEGACY_IV_SEPARATE,
                  LegacyIv.LEGACY_IV_FIXED);
      for (LegacyIv convention : conventions) {
        cases.add(Arguments.of(cipher, convention));
      }
    }
    return cases.stream();
  }

  static Stream<OpensslCipher> paddedCiphers() {
    return CIPHERS.stream().filter(OpensslCipher::padded);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyCipherInEveryConvention")
  void opensslCiphertext_rewrapsIntoGcm_andDecryptsToThePlaintext(
      OpensslCipher cipher, LegacyIv convention) throws Exception {
    byte[] key = bytes("key " + cipher.name(), cipher.keyBytes());
    byte[] iv = bytes("iv " + cipher.name(), cipher.ivBytes());
    String legacyKey = importKey(cipher, convention, key, iv);

    for (byte[] plaintext : List.of(PLAINTEXT, new byte[0])) {
      byte[] body = opensslEncrypt(cipher, key, iv, plaintext, /* padding= */ true);
      byte[] data = convention == LegacyIv.LEGACY_IV_PREPENDED ? concat(iv, body) : body;
      byte[] itemIv = convention == LegacyIv.LEGACY_IV_SEPARATE ? iv : new byte[0];

      String rewrapped = rewrap(item(legacyKey, data, itemIv, plaintext.length));

      assertThat(rewrapped).startsWith("<modern/v1:gcm>");
      assertThat(decrypt(rewrapped))
          .as("%d plaintext bytes", plaintext.length)
          .isEqualTo(plaintext);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("paddedCiphers")
  void wrongKey_orBadPadding_failsAsDecryptionFailed(OpensslCipher cipher) throws Exception {
    byte[] key = bytes("key " + cipher.name(), cipher.keyBytes());
    byte[] iv = bytes("iv " + cipher.name(), cipher.ivBytes());
    LegacyIv convention =
        cipher.ivBytes() == 0 ? LegacyIv.LEGACY_IV_UNSPECIFIED : LegacyIv.LEGACY_IV_SEPARATE;
    String rightKey = importKey(cipher, convention, key, iv);
    String wrongKey =
        importKey(cipher, convention, bytes("another key " + cipher.name(), cipher.keyBytes()), iv);
    byte[] itemIv = cipher.ivBytes() == 0 ? new byte[0] : iv;
    byte[] body = opensslEncrypt(cipher, key, iv, PLAINTEXT, /* padding= */ true);
    // Encrypted without padding by OpenSSL itself: blocks whose last plaintext byte is 0, which no
    // PKCS#7 padding is.
    byte[] zeroEnded =
        opensslEncrypt(cipher, key, iv, new byte[2 * cipher.blockBytes()], /* padding= */ false);

    for (LegacyCiphertext failing :
        List.of(
            LegacyKeys.raw(wrongKey, body, itemIv),
            LegacyKeys.raw(rightKey, zeroEnded, itemIv),
            LegacyKeys.raw(rightKey, Arrays.copyOf(body, body.length - 1), itemIv))) {
      Status status = failsWith(Status.Code.INVALID_ARGUMENT, () -> rewrap(failing));
      assertThat(status.getDescription()).isEqualTo("decryption failed");
    }
  }

  private String importKey(OpensslCipher cipher, LegacyIv convention, byte[] key, byte[] iv) {
    String name = "openssl-" + NEXT_KEY.incrementAndGet();
    LegacyKeys.importKey(
        cipherd.admin,
        name,
        cipher.cipher(),
        convention,
        convention == LegacyIv.LEGACY_IV_FIXED ? iv : new byte[0],
        key);
    return name;
  }

  /**
   * The item as raw bytes, hex or base64 in turn (by plaintext length), to cover each form on each
   * cipher.
   */
  private static LegacyCiphertext item(String key, byte[] data, byte[] iv, int selector) {
    LegacyCiphertext.Builder item =
        LegacyCiphertext.newBuilder().setKeyName(key).setIv(ByteString.copyFrom(iv));
    return switch (Math.floorMod(selector + key.hashCode(), 3)) {
      case 0 -> item.setRaw(ByteString.copyFrom(data)).build();
      case 1 -> item.setHex(HexFormat.of().withUpperCase().formatHex(data)).build();
      default -> item.setBase64(Base64.getEncoder().encodeToString(data)).build();
    };
  }

  private String rewrap(LegacyCiphertext legacy) {
    return cipherd
        .crypto
        .reEncrypt(
            ReEncryptRequest.newBuilder()
                .setLegacy(legacy)
                .setKeyName("modern")
                .setContext(CONTEXT)
                .build())
        .getCiphertext();
  }

  private byte[] decrypt(String ciphertext) {
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).setContext(CONTEXT).build())
        .getPlaintext()
        .toByteArray();
  }

  /** {@code openssl enc -e -CIPHER -K key [-iv iv] -nosalt [-nopad]} over {@code plaintext}. */
  private static byte[] opensslEncrypt(
      OpensslCipher cipher, byte[] key, byte[] iv, byte[] plaintext, boolean padding)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                openssl,
                "enc",
                "-e",
                "-" + cipher.name(),
                "-K",
                HexFormat.of().formatHex(key),
                "-nosalt"));
    if (cipher.ivBytes() > 0) {
      command.addAll(List.of("-iv", HexFormat.of().formatHex(iv)));
    }
    if (!padding) {
      command.add("-nopad");
    }
    if (cipher.legacyProvider()) {
      command.addAll(List.of("-provider", "legacy", "-provider", "default"));
    }
    Process process = new ProcessBuilder(command).start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(plaintext);
    }
    byte[] out = readAll(process.getInputStream());
    String errors = new String(readAll(process.getErrorStream()), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("openssl finished").isTrue();
    assertThat(process.exitValue()).as("openssl %s: %s", cipher.name(), errors).isZero();
    return out;
  }

  private static byte[] readAll(InputStream stream) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    stream.transferTo(out);
    return out.toByteArray();
  }

  /**
   * {@code length} bytes derived from {@code label}: fixed, so a wrong key fails the same way every
   * run.
   */
  private static byte[] bytes(String label, int length) throws Exception {
    byte[] out = new byte[length];
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    for (int at = 0, counter = 0; at < length; at += 32, counter++) {
      byte[] block = sha256.digest((label + "#" + counter).getBytes(StandardCharsets.UTF_8));
      System.arraycopy(block, 0, out, at, Math.min(32, length - at));
    }
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static OpensslCipher aes(
      String name, LegacyCipher cipher, int keyBytes, int ivBytes, boolean padded) {
    return new OpensslCipher(name, cipher, keyBytes, ivBytes, padded, false);
  }
}
