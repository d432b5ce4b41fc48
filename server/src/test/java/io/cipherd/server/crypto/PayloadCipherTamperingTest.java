package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a changed payload, header, context or key does to decryption: every AEAD tampering is
 * rejected, unauthenticated modes never give back the plaintext, padding is checked strictly.
 */
class PayloadCipherTamperingTest {
  private static final byte[] CONTEXT = "tenant=42".getBytes(StandardCharsets.UTF_8);

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

  @ParameterizedTest(name = "{0} AES-{1}")
  @MethodSource("io.cipherd.server.crypto.PayloadCipherTest#aeadModeAndKeySize")
  void decrypt_anySingleByteFlipped_isRejected(CipherMode mode, int bits) {
    SecretKey key = PayloadCipherTest.randomKey(mode, bits);
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
    byte[] payload = cipher.encrypt(header, key, CONTEXT, "hello".getBytes(StandardCharsets.UTF_8));
    List<String> accepted = new ArrayList<>();

    for (int i = 0; i < payload.length; i++) {
      for (int bit : new int[] {0x01, 0x80}) {
        byte[] tampered = payload.clone();
        tampered[i] ^= (byte) bit;
        try {
          cipher.decrypt(new ParsedEnvelope(header, tampered), key, CONTEXT);
          accepted.add("byte " + i + " bit " + Integer.toHexString(bit));
        } catch (DecryptionFailedException expected) {
          // Tag check failed, as it must.
        }
      }
    }

    assertThat(payload).hasSize(12 + 5 + 16);
    assertThat(accepted).as("tampered payloads that decrypted").isEmpty();
  }

  static Stream<Arguments> otherHeaders() {
    return Stream.of(
        Arguments.of("other key name", new EnvelopeHeader("ordersx", 1, CipherMode.GCM)),
        Arguments.of("name differing in one char", new EnvelopeHeader("orderz", 1, CipherMode.GCM)),
        Arguments.of("other version", new EnvelopeHeader("orders", 2, CipherMode.GCM)),
        Arguments.of("version with more digits", new EnvelopeHeader("orders", 11, CipherMode.GCM)),
        Arguments.of("other mode name", new EnvelopeHeader("orders", 1, CipherMode.CHACHA)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("otherHeaders")
  void decrypt_gcmPayloadUnderOtherHeader_isRejected(String name, EnvelopeHeader other) {
    SecretKey key = PayloadCipherTest.largestKey(CipherMode.GCM);
    byte[] payload =
        cipher.encrypt(
            new EnvelopeHeader("orders", 1, CipherMode.GCM),
            key,
            CONTEXT,
            PayloadCipherTest.plaintext(20));

    // Always decrypt as GCM: only the associated data (the header's text) differs.
    assertThatThrownBy(
            () -> cipher.decrypt(CipherMode.GCM, key, other.asciiBytes(), CONTEXT, payload))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @Test
  void decrypt_chachaPayloadUnderOtherHeader_isRejected() {
    SecretKey key = PayloadCipherTest.largestKey(CipherMode.CHACHA);
    byte[] payload =
        cipher.encrypt(
            new EnvelopeHeader("orders", 1, CipherMode.CHACHA),
            key,
            CONTEXT,
            PayloadCipherTest.plaintext(20));
    byte[] gcmHeader = new EnvelopeHeader("orders", 1, CipherMode.GCM).asciiBytes();

    assertThatThrownBy(
            () ->
                cipher.decrypt(
                    new ParsedEnvelope(new EnvelopeHeader("orders", 2, CipherMode.CHACHA), payload),
                    key,
                    CONTEXT))
        .isInstanceOf(DecryptionFailedException.class);
    assertThatThrownBy(() -> cipher.decrypt(CipherMode.CHACHA, key, gcmHeader, CONTEXT, payload))
        .isInstanceOf(DecryptionFailedException.class);
  }

  static Stream<Arguments> otherContexts() {
    return Stream.of(CipherMode.GCM, CipherMode.CHACHA)
        .flatMap(
            mode ->
                Stream.of(
                    Arguments.of(mode, "different", "tenant=43".getBytes(StandardCharsets.UTF_8)),
                    Arguments.of(mode, "empty", new byte[0]),
                    Arguments.of(mode, "absent", null),
                    Arguments.of(
                        mode, "one byte longer", "tenant=42 ".getBytes(StandardCharsets.UTF_8)),
                    Arguments.of(
                        mode, "one byte shorter", "tenant=4".getBytes(StandardCharsets.UTF_8))));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("otherContexts")
  void decrypt_withOtherContext_isRejected(CipherMode mode, String name, byte[] otherContext) {
    SecretKey key = PayloadCipherTest.largestKey(mode);
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
    byte[] payload = cipher.encrypt(header, key, CONTEXT, PayloadCipherTest.plaintext(20));

    assertThatThrownBy(() -> cipher.decrypt(new ParsedEnvelope(header, payload), key, otherContext))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"GCM", "CHACHA"})
  void decrypt_contextAbsentOrEmpty_areTheSame(CipherMode mode) {
    SecretKey key = PayloadCipherTest.largestKey(mode);
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
    byte[] plaintext = PayloadCipherTest.plaintext(20);

    byte[] payload = cipher.encrypt(header, key, null, plaintext);

    assertThat(cipher.decrypt(new ParsedEnvelope(header, payload), key, new byte[0]))
        .isEqualTo(plaintext);
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"GCM", "CHACHA"})
  void decrypt_aeadWithWrongKey_isRejected(CipherMode mode) {
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
    byte[] payload =
        cipher.encrypt(
            header, PayloadCipherTest.largestKey(mode), CONTEXT, PayloadCipherTest.plaintext(20));

    assertThatThrownBy(
            () ->
                cipher.decrypt(
                    new ParsedEnvelope(header, payload),
                    PayloadCipherTest.largestKey(mode),
                    CONTEXT))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"CBC", "CTR", "CFB", "OFB", "ECB"})
  void decrypt_unauthenticatedWithWrongKey_neverYieldsThePlaintext(CipherMode mode) {
    // Without a tag, a wrong key yields garbage or (padded modes) usually a padding failure.
    EnvelopeHeader header = new EnvelopeHeader("orders", 1, mode);
    byte[] plaintext = PayloadCipherTest.plaintext(40);
    byte[] payload = cipher.encrypt(header, PayloadCipherTest.largestKey(mode), null, plaintext);

    try {
      assertThat(
              cipher.decrypt(
                  new ParsedEnvelope(header, payload), PayloadCipherTest.largestKey(mode), null))
          .isNotEqualTo(plaintext);
    } catch (DecryptionFailedException e) {
      assertThat(mode.isPadded()).as("only padded modes can notice a wrong key").isTrue();
    }
  }

  /** Hand-built CBC payloads whose last block decrypts to the given padding bytes. */
  static Stream<Arguments> cbcFinalBlocks() {
    return Stream.of(
        Arguments.of("pad byte 0x00", "000102030405060708090a0b0c0d0e00", false),
        Arguments.of("pad byte 0x11 exceeds the block", "000102030405060708090a0b0c0d0e11", false),
        Arguments.of("pad byte 0xff", "000102030405060708090a0b0c0d0eff", false),
        Arguments.of("pad bytes disagree (03 02)", "000102030405060708090a0b0c0d0302", false),
        Arguments.of("full pad block with one odd byte", "10101010101010101010101010100f10", false),
        Arguments.of("pad 0x01 is valid", "000102030405060708090a0b0c0d0e01", true),
        Arguments.of("pad 0x03 x3 is valid", "000102030405060708090a0b0c030303", true),
        Arguments.of("full pad block is valid", "10101010101010101010101010101010", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cbcFinalBlocks")
  void decrypt_cbcPadding_isCheckedStrictly(String name, String blockHex, boolean valid)
      throws Exception {
    SecretKey key = PayloadCipherTest.largestKey(CipherMode.CBC);
    byte[] block = HexFormat.of().parseHex(blockHex);
    byte[] iv = NonceSource.bytes(16);
    byte[] xored = block.clone();
    for (int i = 0; i < 16; i++) {
      xored[i] ^= iv[i];
    }
    byte[] payload = PayloadCipherTest.concat(iv, PayloadCipherTest.rawAesBlock(key, xored));

    if (valid) {
      int pad = block[15];
      assertThat(cipher.decrypt(CipherMode.CBC, key, null, null, payload))
          .isEqualTo(Arrays.copyOf(block, 16 - pad));
    } else {
      assertThatThrownBy(() -> cipher.decrypt(CipherMode.CBC, key, null, null, payload))
          .isInstanceOf(DecryptionFailedException.class);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cbcFinalBlocks")
  void decrypt_ecbPadding_isCheckedStrictly(String name, String blockHex, boolean valid)
      throws Exception {
    SecretKey key = PayloadCipherTest.largestKey(CipherMode.ECB);
    byte[] block = HexFormat.of().parseHex(blockHex);
    byte[] payload = PayloadCipherTest.rawAesBlock(key, block);

    if (valid) {
      assertThat(cipher.decrypt(CipherMode.ECB, key, null, null, payload))
          .isEqualTo(Arrays.copyOf(block, 16 - block[15]));
    } else {
      assertThatThrownBy(() -> cipher.decrypt(CipherMode.ECB, key, null, null, payload))
          .isInstanceOf(DecryptionFailedException.class);
    }
  }
}
