package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.errors.InvalidArgumentException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Ff1} against NIST's FF1 samples ({@code proto/testdata/ff1_nist_samples.json}), and the
 * limits it puts on radix, length, domain and tweak. {@code Ff1CrossCheckTest} compares it with an
 * independent implementation on random inputs.
 */
class Ff1Test {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] KEY = HEX.parseHex("2b7e151628aed2a6abf7158809cf4f3c");

  static Stream<JsonObject> nistSamples() throws IOException {
    String dir = System.getProperty("cipherd.protoTestdata");
    assertThat(dir).as("system property cipherd.protoTestdata (set by surefire)").isNotNull();
    JsonObject file =
        JsonParser.parseString(Files.readString(Path.of(dir, "ff1_nist_samples.json")))
            .getAsJsonObject();
    return StreamSupport.stream(file.getAsJsonArray("samples").spliterator(), false)
        .map(JsonElement::getAsJsonObject);
  }

  @ParameterizedTest(name = "NIST FF1 sample {index}")
  @MethodSource("nistSamples")
  void matchesNistSample(JsonObject sample) {
    Ff1 ff1 = Ff1.withKey(HEX.parseHex(sample.get("key_hex").getAsString()));
    int radix = sample.get("radix").getAsInt();
    byte[] tweak = HEX.parseHex(sample.get("tweak_hex").getAsString());
    FpeAlphabet alphabet = nistAlphabet(radix);
    int[] plaintext = alphabet.numerals(sample.get("plaintext").getAsString());
    String ciphertext = sample.get("ciphertext").getAsString();

    assertThat(alphabet.write(ff1.encrypt(radix, tweak, plaintext))).isEqualTo(ciphertext);
    assertThat(ff1.decrypt(radix, tweak, alphabet.numerals(ciphertext))).isEqualTo(plaintext);
  }

  @Test
  void nistSamplesCoverEveryKeySizeAndBothRadices() throws IOException {
    assertThat(nistSamples().map(s -> s.get("key_hex").getAsString().length() * 4).distinct())
        .containsExactlyInAnyOrder(128, 192, 256);
    assertThat(nistSamples().map(s -> s.get("radix").getAsInt()).distinct())
        .containsExactlyInAnyOrder(10, 36);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 10, 26, 36, 62, 255, 256, 257, 1000, 65_536})
  void decryptInvertsEncryptAtEveryRadix(int radix) {
    SplittableRandom random = new SplittableRandom(radix);
    Ff1 ff1 = Ff1.withKey(randomBytes(random, 32));
    for (int round = 0; round < 20; round++) {
      int[] plaintext = random.ints(Ff1.minLength(radix) + random.nextInt(20), 0, radix).toArray();
      byte[] tweak = randomBytes(random, random.nextInt(17));
      int[] ciphertext = ff1.encrypt(radix, tweak, plaintext);
      assertThat(ciphertext).hasSameSizeAs(plaintext);
      assertThat(Arrays.stream(ciphertext)).allMatch(n -> n >= 0 && n < radix);
      assertThat(ff1.decrypt(radix, tweak, ciphertext)).isEqualTo(plaintext);
    }
  }

  @Test
  void theTweakAndTheKeyEachChangeTheOutput() {
    int[] plaintext = FpeAlphabet.DIGITS.numerals("4111111111111111");
    byte[] tweak = "users.card".getBytes();
    int[] base = Ff1.withKey(KEY).encrypt(10, tweak, plaintext);

    assertThat(Ff1.withKey(KEY).encrypt(10, tweak, plaintext)).isEqualTo(base);
    assertThat(Ff1.withKey(KEY).encrypt(10, "users.phone".getBytes(), plaintext))
        .isNotEqualTo(base);
    byte[] other = KEY.clone();
    other[0] ^= 1;
    assertThat(Ff1.withKey(other).encrypt(10, tweak, plaintext)).isNotEqualTo(base);
  }

  @Test
  void aDomainOfAMillionIsTheSmallestAccepted() {
    Ff1 ff1 = Ff1.withKey(KEY);
    assertThat(ff1.encrypt(10, new byte[0], new int[6])).hasSize(6);
    assertThatThrownBy(() -> ff1.encrypt(10, new byte[0], new int[5]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("5 characters over an alphabet of 10")
        .hasMessageContaining("fewer than 1000000 values");
    assertThat(Ff1.minLength(10)).isEqualTo(6);
    assertThat(Ff1.minLength(2)).isEqualTo(20);
    assertThat(Ff1.minLength(36)).isEqualTo(4);
    assertThat(Ff1.minLength(1000)).isEqualTo(2);
    assertThat(Ff1.minLength(65_536)).isEqualTo(2);
  }

  @Test
  void refusesRadixLengthAndTweakOutsideItsLimits() {
    Ff1 ff1 = Ff1.withKey(KEY);
    assertThatThrownBy(() -> ff1.encrypt(1, new byte[0], new int[30]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("2 to 65536 characters");
    assertThatThrownBy(() -> ff1.encrypt(65_537, new byte[0], new int[2]))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> ff1.encrypt(10, new byte[0], new int[Ff1.MAX_NUMERALS + 1]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("at most 256 characters");
    assertThatThrownBy(() -> ff1.encrypt(10, new byte[Ff1.MAX_TWEAK_BYTES + 1], new int[8]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("tweak");
    assertThat(ff1.encrypt(10, new byte[Ff1.MAX_TWEAK_BYTES], new int[Ff1.MAX_NUMERALS]))
        .hasSize(Ff1.MAX_NUMERALS);
  }

  @Test
  void sharedAcrossThreads_eachCallGetsItsOwnEngine_andTheSameAnswers() throws Exception {
    Ff1 shared = Ff1.withKey(KEY);
    int[][] inputs = new int[64][];
    int[][] expected = new int[64][];
    for (int i = 0; i < inputs.length; i++) {
      inputs[i] = new int[] {i % 10, 1, 2, 3, 4, 5, 6, 7, 8, (i / 10) % 10};
      byte[] tweak = {(byte) i};
      // One instance per value, as before engines were shared: the reference answer.
      expected[i] = Ff1.withKey(KEY).encrypt(10, tweak, inputs[i]);
    }
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> rounds = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        rounds.add(
            threads.submit(
                () -> {
                  for (int round = 0; round < 20; round++) {
                    for (int i = 0; i < inputs.length; i++) {
                      byte[] tweak = {(byte) i};
                      int[] encrypted = shared.encrypt(10, tweak, inputs[i]);
                      if (!Arrays.equals(encrypted, expected[i])
                          || !Arrays.equals(shared.decrypt(10, tweak, encrypted), inputs[i])) {
                        return false;
                      }
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> round : rounds) {
        assertThat(round.get(60, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void destroyed_refusesFurtherUse_evenWithAnEngineStillInUse() {
    Ff1 ff1 = Ff1.withKey(KEY);
    int[] seven = {1, 2, 3, 4, 5, 6, 7};
    Ff1.Steps inUse = ff1.steps(true, 10, new byte[0], seven.length);
    int[] before = inUse.apply(seven);
    ff1.destroy();
    assertThat(ff1.isDestroyed()).isTrue();
    // The call that held an engine finishes with it; returning it keeps nothing.
    assertThat(inUse.apply(seven)).isEqualTo(before);
    inUse.close();
    assertThatThrownBy(() -> ff1.encrypt(10, new byte[0], seven))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("destroyed");
  }

  @Test
  void refusesKeysThatAreNotAesKeys() {
    assertThatThrownBy(() -> Ff1.withKey(new byte[20]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Ff1.withKey(new byte[24]).keyBits()).isEqualTo(192);
  }

  /** NIST writes numerals over 0-9a-z, the first {@code radix} characters of it. */
  static FpeAlphabet nistAlphabet(int radix) {
    return FpeAlphabet.of("0123456789abcdefghijklmnopqrstuvwxyz".substring(0, radix));
  }

  private static byte[] randomBytes(SplittableRandom random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
