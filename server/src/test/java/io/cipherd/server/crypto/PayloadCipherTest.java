package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class PayloadCipherTest {
  private static final byte[] CONTEXT = "tenant=42".getBytes(StandardCharsets.UTF_8);
  private static final int[] PLAINTEXT_SIZES = {0, 1, 15, 16, 17, 100, 65536};

  private CipherPools pools;
  private ArrayPayloadCipher cipher;

  @BeforeEach
  void createPools() {
    pools = new CipherPools(CipherPoolConfig.DEFAULT);
    cipher = new ArrayPayloadCipher(pools);
  }

  @AfterEach
  void closePools() {
    pools.close();
  }

  static SecretKey randomKey(CipherMode mode, int bits) {
    return new SecretKeySpec(NonceSource.bytes(bits / 8), mode.keyAlgorithm());
  }

  static SecretKey largestKey(CipherMode mode) {
    return randomKey(mode, mode.keySizesBits().stream().max(Integer::compare).orElseThrow());
  }

  static byte[] plaintext(int size) {
    byte[] bytes = new byte[size];
    ThreadLocalRandom.current().nextBytes(bytes);
    return bytes;
  }

  /**
   * The payload layout of proto/README.md, written out here rather than taken from {@link
   * CipherMode}.
   */
  static int expectedPayloadLength(CipherMode mode, int plaintextLength) {
    return switch (mode) {
      case GCM, CHACHA -> 12 + plaintextLength + 16;
      case CBC -> 16 + (plaintextLength / 16 + 1) * 16;
      case ECB -> (plaintextLength / 16 + 1) * 16;
      case CTR, CFB, OFB -> 16 + plaintextLength;
      case XGCM -> 24 + plaintextLength + 16;
      case SIV -> 16 + plaintextLength;
    };
  }

  static byte[] contextFor(CipherMode mode) {
    // The API refuses a context for unauthenticated modes, which cannot bind it.
    return mode.isAead() ? CONTEXT : null;
  }

  static Stream<Arguments> modeKeySizeAndLength() {
    return Arrays.stream(CipherMode.values())
        .flatMap(
            mode ->
                mode.keySizesBits().stream()
                    .sorted()
                    .flatMap(
                        bits ->
                            Arrays.stream(PLAINTEXT_SIZES)
                                .mapToObj(size -> Arguments.of(mode, bits, size))));
  }

  static Stream<Arguments> aeadModeAndKeySize() {
    return Stream.of(CipherMode.GCM, CipherMode.CHACHA)
        .flatMap(
            mode -> mode.keySizesBits().stream().sorted().map(bits -> Arguments.of(mode, bits)));
  }

  @ParameterizedTest(name = "{0} AES-{1} {2} bytes")
  @MethodSource("modeKeySizeAndLength")
  void roundTrip_throughEnvelopeText_returnsThePlaintext(CipherMode mode, int bits, int size) {
    SecretKey key = randomKey(mode, bits);
    EnvelopeHeader header = new EnvelopeHeader("orders", 3, mode);
    byte[] plaintext = plaintext(size);

    byte[] payload = cipher.encrypt(header, key, contextFor(mode), plaintext);
    ParsedEnvelope parsed = ParsedEnvelope.parse(new ParsedEnvelope(header, payload).format());

    assertThat(payload).hasSize(expectedPayloadLength(mode, size));
    assertThat(parsed.header()).isEqualTo(header);
    assertThat(cipher.decrypt(parsed, key, contextFor(mode))).isEqualTo(plaintext);
    if (size >= 16) {
      byte[] body = Arrays.copyOfRange(payload, mode.ivLength(), mode.ivLength() + size);
      assertThat(body)
          .as("ciphertext must not be the plaintext")
          .isNotEqualTo(Arrays.copyOf(plaintext, size));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"ECB", "SIV"},
      mode = EnumSource.Mode.EXCLUDE)
  void encrypt_samePlaintextTwice_usesFreshRandomIvs(CipherMode mode) {
    SecretKey key = largestKey(mode);
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
    byte[] plaintext = plaintext(32);
    Set<String> ivs = new HashSet<>();

    for (int i = 0; i < 200; i++) {
      byte[] payload = cipher.encrypt(header, key, contextFor(mode), plaintext);
      ivs.add(HexFormat.of().formatHex(payload, 0, mode.ivLength()));
    }

    assertThat(ivs).hasSize(200);
    assertThat(cipher.encrypt(header, key, contextFor(mode), plaintext))
        .isNotEqualTo(cipher.encrypt(header, key, contextFor(mode), plaintext));
  }

  @Test
  void encrypt_ecb_isDeterministicAndLeaksEqualBlocks() {
    // Why ECB is decrypt-only by default: equal plaintext blocks give equal ciphertext blocks.
    SecretKey key = largestKey(CipherMode.ECB);
    EnvelopeHeader header = new EnvelopeHeader("old", 1, CipherMode.ECB);
    byte[] twoEqualBlocks = new byte[32];

    byte[] payload = cipher.encrypt(header, key, null, twoEqualBlocks);

    assertThat(cipher.encrypt(header, key, null, twoEqualBlocks)).isEqualTo(payload);
    assertThat(Arrays.copyOfRange(payload, 0, 16)).isEqualTo(Arrays.copyOfRange(payload, 16, 32));
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"GCM", "CHACHA", "CBC", "CTR", "CFB", "OFB", "ECB"})
  void encryptWithInsecureIv_matchesPlainJce(CipherMode mode) throws Exception {
    SecretKey key = largestKey(mode);
    byte[] iv = NonceSource.bytes(mode.ivLength());
    byte[] header = new EnvelopeHeader("orders", 9, mode).asciiBytes();
    byte[] plaintext = plaintext(45);

    byte[] payload =
        ArrayPayloadCipher.encryptWithInsecureIv(mode, key, iv, header, CONTEXT, plaintext, pools);

    // The spec's associated data is UTF-8(header) ‖ context, here concatenated by hand.
    byte[] aad =
        (new String(header, StandardCharsets.US_ASCII) + "tenant=42")
            .getBytes(StandardCharsets.UTF_8);
    Cipher jce = Cipher.getInstance(mode.transformation());
    switch (mode) {
      case GCM -> jce.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
      case ECB -> jce.init(Cipher.ENCRYPT_MODE, key);
      default -> jce.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv));
    }
    if (mode.isAead()) {
      jce.updateAAD(aad);
    }
    byte[] expected = PayloadCipherTest.concat(iv, jce.doFinal(plaintext));
    assertThat(payload).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void encryptWithInsecureIv_wrongIvLength_isRefused(CipherMode mode) {
    byte[] iv = new byte[mode.ivLength() + 1];

    assertThatThrownBy(
            () ->
                ArrayPayloadCipher.encryptWithInsecureIv(
                    mode, largestKey(mode), iv, new byte[0], null, new byte[1], pools))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} {1} bytes")
  @CsvSource({
    "GCM, 0",
    "GCM, 12",
    "GCM, 27",
    "CHACHA, 0",
    "CHACHA, 27",
    "CBC, 0",
    "CBC, 16",
    "CBC, 31",
    "CBC, 33",
    "CBC, 47",
    "ECB, 0",
    "ECB, 15",
    "ECB, 17",
    "CTR, 0",
    "CTR, 15",
    "CFB, 15",
    "OFB, 1"
  })
  void decrypt_impossiblePayloadLength_isRefusedBeforeTheCipherSeesIt(CipherMode mode, int length) {
    byte[] payload = NonceSource.bytes(length);
    byte[] out = new byte[length + 16];

    // The envelope refuses such a payload first (InvalidCiphertextException, see EnvelopeTest):
    // reaching the cipher with one is a caller's bug, never a decryption attempt.
    assertThatThrownBy(
            () ->
                mode.family()
                    .open(
                        pools,
                        largestKey(mode),
                        null,
                        Bytes.EMPTY,
                        new Bytes(payload, 0, length),
                        out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload");
    assertThat(pools.pool(mode).getNumActive()).isZero();
  }

  @Test
  void decrypt_failure_discardsTheCipherAndPoolStaysUsable() {
    SecretKey key = largestKey(CipherMode.GCM);
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, CipherMode.GCM);
    byte[] plaintext = plaintext(20);
    byte[] payload = cipher.encrypt(header, key, CONTEXT, plaintext);
    long destroyedBefore = pools.pool(CipherMode.GCM).getDestroyedCount();

    assertThatThrownBy(() -> cipher.decrypt(new ParsedEnvelope(header, payload), key, null))
        .isInstanceOf(DecryptionFailedException.class);

    assertThat(pools.pool(CipherMode.GCM).getDestroyedCount()).isEqualTo(destroyedBefore + 1);
    assertThat(cipher.decrypt(new ParsedEnvelope(header, payload), key, CONTEXT))
        .isEqualTo(plaintext);
    assertThat(pools.pool(CipherMode.GCM).getNumActive()).isZero();
  }

  @Test
  void operations_successAndFailure_returnEveryCipherToThePool() {
    for (CipherMode mode : CipherMode.pooled()) {
      SecretKey key = largestKey(mode);
      EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
      for (int i = 0; i < 50; i++) {
        byte[] payload = cipher.encrypt(header, key, contextFor(mode), plaintext(i));
        cipher.decrypt(new ParsedEnvelope(header, payload), key, contextFor(mode));
        payload[payload.length - 1] ^= 1;
        try {
          cipher.decrypt(new ParsedEnvelope(header, payload), key, contextFor(mode));
        } catch (DecryptionFailedException expected) {
          // Unauthenticated modes often decrypt garbage instead; both paths must give the cipher
          // back.
        }
      }
      assertThat(pools.pool(mode).getNumActive()).as("%s ciphers still borrowed", mode).isZero();
    }
  }

  @Test
  void concurrentEncryptAndDecrypt_manyThreadsMixedModes_allRoundTrip() throws Exception {
    int threads = 16;
    int opsPerThread = 2000;
    // Fewer ciphers than threads: borrowers must wait for and reuse each other's ciphers.
    try (CipherPools shared = new CipherPools(new CipherPoolConfig(4, 4, Duration.ofSeconds(30)))) {
      ArrayPayloadCipher concurrent = new ArrayPayloadCipher(shared);
      Map<CipherMode, SecretKey> keys = new EnumMap<>(CipherMode.class);
      for (CipherMode mode : CipherMode.values()) {
        keys.put(mode, largestKey(mode));
      }
      CipherMode[] modes = CipherMode.values();
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService executor = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Integer>> done =
            IntStream.range(0, threads)
                .mapToObj(
                    t ->
                        executor.submit(
                            () -> {
                              start.await();
                              byte[] context = ("thread-" + t).getBytes(StandardCharsets.UTF_8);
                              int ok = 0;
                              for (int i = 0; i < opsPerThread; i++) {
                                CipherMode mode = modes[(t + i) % modes.length];
                                EnvelopeHeader header =
                                    new EnvelopeHeader("t" + t, 1 + i % 3, mode);
                                byte[] plaintext =
                                    plaintext(ThreadLocalRandom.current().nextInt(0, 300));
                                byte[] ctx = mode.isAead() ? context : null;
                                try {
                                  byte[] payload =
                                      concurrent.encrypt(header, keys.get(mode), ctx, plaintext);
                                  if (Arrays.equals(
                                      concurrent.decrypt(
                                          new ParsedEnvelope(header, payload), keys.get(mode), ctx),
                                      plaintext)) {
                                    ok++;
                                  } else {
                                    failures.add(
                                        "thread "
                                            + t
                                            + " op "
                                            + i
                                            + " "
                                            + mode
                                            + ": wrong plaintext");
                                  }
                                } catch (RuntimeException e) {
                                  failures.add("thread " + t + " op " + i + " " + mode + ": " + e);
                                }
                              }
                              return ok;
                            }))
                .toList();
        start.countDown();
        int ok = 0;
        for (Future<Integer> f : done) {
          ok += f.get(120, TimeUnit.SECONDS);
        }

        assertThat(failures).as("failed operations").isEmpty();
        assertThat(ok).isEqualTo(threads * opsPerThread);
        for (CipherMode mode : CipherMode.pooled()) {
          assertThat(shared.pool(mode).getNumActive()).isZero();
          assertThat(shared.pool(mode).getCreatedCount())
              .as("%s ciphers created", mode)
              .isLessThanOrEqualTo(4);
        }
      } finally {
        executor.shutdownNow();
      }
    }
  }

  static byte[] rawAesBlock(SecretKey key, byte[] block) throws Exception {
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, key);
    return aes.doFinal(block);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
