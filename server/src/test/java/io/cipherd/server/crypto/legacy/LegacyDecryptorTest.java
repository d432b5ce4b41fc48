package io.cipherd.server.crypto.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The decryptor's IV conventions and failures. Ciphertexts here come from the JDK's own ciphers;
 * the independent sources (OpenSSL's CLI, Python's cryptography, MySQL's published answer) are in
 * {@code api.LegacyOpensslTest}, {@code clients/crosslang/test_legacy_import.py} and below.
 */
class LegacyDecryptorTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] PLAINTEXT =
      "a row from before cipherd".getBytes(StandardCharsets.UTF_8);

  /**
   * Fixed, so a wrong key fails deterministically (a random one passes PKCS#7 about once in 256).
   */
  private static final byte[] KEY = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");

  private static final byte[] WRONG_KEY =
      HexFormat.of().parseHex("0f0e0d0c0b0a09080706050403020100");
  private static final byte[] IV = HexFormat.of().parseHex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");

  @Test
  void mysql_knownAnswer_aesEncryptHelloWithKeyString1234567890() {
    // SELECT HEX(AES_ENCRYPT('HELLO', '1234567890')) on MySQL and MariaDB's default aes-128-ecb.
    byte[] key = MysqlKeyFold.fold("1234567890".getBytes(StandardCharsets.US_ASCII));

    assertThat(
            decrypt(
                LegacyFormat.of(LegacyCipher.MYSQL_AES_ECB, null, null),
                key,
                HexFormat.of().parseHex("FF06A56B4E88C828A010E9BD0CE70A89"),
                new byte[0]))
        .isEqualTo("HELLO".getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void mysqlFold_xorsBytesPastSixteenBackOntoTheStart() {
    byte[] passphrase = "0123456789abcdefWXYZ".getBytes(StandardCharsets.US_ASCII);

    byte[] key = MysqlKeyFold.fold(passphrase);

    assertThat(key).hasSize(16);
    for (int i = 0; i < 16; i++) {
      int expected = i < 4 ? passphrase[i] ^ passphrase[i + 16] : passphrase[i];
      assertThat(key[i]).as("byte %d", i).isEqualTo((byte) expected);
    }
    assertThat(MysqlKeyFold.fold("abc".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo(Arrays.copyOf("abc".getBytes(StandardCharsets.US_ASCII), 16));
  }

  @Test
  void rc4_matchesRfc6229_forA40BitKey() {
    byte[] zeros = new byte[16];
    byte[] keystream = new byte[16];

    Rc4.apply(HexFormat.of().parseHex("0102030405"), zeros, 0, 16, keystream);

    assertThat(HexFormat.of().formatHex(keystream)).isEqualTo("b2396305f03dc027ccc3524a0a1118a8");
  }

  @Test
  void rc4_matchesTheJdksArcfour_forEveryKeyLengthItTakes() throws Exception {
    Cipher arcfour = Cipher.getInstance("ARCFOUR");
    for (int length = 5; length <= 128; length++) {
      byte[] key = random(length);
      byte[] data = random(300);
      arcfour.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "ARCFOUR"));
      byte[] ours = new byte[data.length];

      Rc4.apply(key, data, 0, data.length, ours);

      assertThat(ours).as("key of %d bytes", length).isEqualTo(arcfour.doFinal(data));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = IvConvention.class,
      names = {"PREPENDED", "SEPARATE", "FIXED"})
  void aesCbc_findsTheIvWhereTheConventionSays(IvConvention convention) throws Exception {
    byte[] body = jce("AES/CBC/PKCS5Padding", KEY, IV);
    LegacyFormat format =
        LegacyFormat.of(
            LegacyCipher.AES_CBC, convention, convention == IvConvention.FIXED ? IV : null);
    byte[] data = convention == IvConvention.PREPENDED ? concat(IV, body) : body;
    byte[] itemIv = convention == IvConvention.SEPARATE ? IV : new byte[0];

    assertThat(decrypt(format, KEY, data, itemIv)).isEqualTo(PLAINTEXT);
  }

  @Test
  void aesGcm_prependedNonce_tagAfter_decrypts_andATamperedTagFails() throws Exception {
    byte[] nonce = Arrays.copyOf(IV, 12);
    Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
    gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"), new GCMParameterSpec(128, nonce));
    byte[] data = concat(nonce, gcm.doFinal(PLAINTEXT));
    LegacyFormat format = LegacyFormat.of(LegacyCipher.AES_GCM, null, null);

    assertThat(decrypt(format, KEY, data, new byte[0])).isEqualTo(PLAINTEXT);
    data[data.length - 1] ^= 1;
    assertThatThrownBy(() -> decrypt(format, KEY, data, new byte[0]))
        .isInstanceOf(DecryptionFailedException.class);
    byte[] shorterThanItsTag = Arrays.copyOf(data, 12 + 15);
    assertThatThrownBy(() -> decrypt(format, KEY, shorterThanItsTag, new byte[0]))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @Test
  void wrongKey_badPadding_orWrongLength_failAsDecryptionFailed_andSayNothingMore()
      throws Exception {
    LegacyFormat format = LegacyFormat.of(LegacyCipher.AES_CBC, IvConvention.PREPENDED, null);
    byte[] data = concat(IV, jce("AES/CBC/PKCS5Padding", KEY, IV));
    byte[] badPadding = data.clone();
    // PLAINTEXT is 25 bytes: 7 bytes of padding 0x07; XOR 0x07 into the byte before the last
    // block's
    // last byte and the plaintext ends in 0x00, which no padding is.
    badPadding[data.length - 17] ^= 0x07;

    for (byte[][] failing :
        new byte[][][] {
          {WRONG_KEY, data},
          {KEY, badPadding},
          {KEY, Arrays.copyOf(data, data.length - 1)},
          {KEY, Arrays.copyOf(data, 10)},
          {KEY, IV}
        }) {
      assertThatThrownBy(() -> decrypt(format, failing[0], failing[1], new byte[0]))
          .isInstanceOf(DecryptionFailedException.class)
          .hasMessage("decryption failed");
    }
  }

  @Test
  void itemIv_isRequiredWithTheSeparateConvention_andRefusedWithTheOthers() {
    LegacyFormat separate = LegacyFormat.of(LegacyCipher.DES_CBC, IvConvention.SEPARATE, null);
    LegacyFormat prepended = LegacyFormat.of(LegacyCipher.DES_CBC, IvConvention.PREPENDED, null);
    byte[] key = Arrays.copyOf(KEY, 8);

    assertThatThrownBy(() -> decrypt(separate, key, new byte[16], new byte[0]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("legacy.iv must be the item's 8-byte IV");
    assertThatThrownBy(() -> decrypt(separate, key, new byte[16], new byte[16]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("got 16 bytes");
    assertThatThrownBy(() -> decrypt(prepended, key, new byte[16], new byte[8]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("prepended");
    assertThatThrownBy(
            () ->
                decrypt(
                    LegacyFormat.of(LegacyCipher.RC4, null, null),
                    new byte[16],
                    new byte[4],
                    new byte[8]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("none");
  }

  @Test
  void twoKeyDesede_isStoredAsK1K2K1_whichDecryptsWhatTwoKeyEncryptionMade() throws Exception {
    byte[] twoKey = random(16);
    byte[] stored = LegacyCipher.DESEDE_CBC.storedKey(twoKey);
    byte[] iv = Arrays.copyOf(IV, 8);
    // Two-key 3DES by hand: E(K1) D(K2) E(K1), one CBC block chain in the JDK's single DES.
    byte[] body =
        twoKeyDesedeCbc(
            Arrays.copyOf(twoKey, 8), Arrays.copyOfRange(twoKey, 8, 16), iv, pad(PLAINTEXT, 8));

    assertThat(stored).hasSize(24).startsWith(twoKey).endsWith(Arrays.copyOf(twoKey, 8));
    assertThat(
            decrypt(
                LegacyFormat.of(LegacyCipher.DESEDE_CBC, IvConvention.SEPARATE, null),
                stored,
                body,
                iv))
        .isEqualTo(PLAINTEXT);
  }

  private static byte[] decrypt(LegacyFormat format, byte[] key, byte[] data, byte[] itemIv) {
    byte[] out = new byte[data.length];
    int length =
        LegacyDecryptor.decrypt(
            format, new SecretKeySpec(key, format.cipher().keyAlgorithm()), data, itemIv, out);
    return Arrays.copyOf(out, length);
  }

  private static byte[] jce(String transformation, byte[] key, byte[] iv) throws Exception {
    Cipher cipher = Cipher.getInstance(transformation);
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    return cipher.doFinal(PLAINTEXT);
  }

  private static byte[] twoKeyDesedeCbc(byte[] k1, byte[] k2, byte[] iv, byte[] padded)
      throws Exception {
    Cipher e1 = Cipher.getInstance("DES/ECB/NoPadding");
    e1.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k1, "DES"));
    Cipher d2 = Cipher.getInstance("DES/ECB/NoPadding");
    d2.init(Cipher.DECRYPT_MODE, new SecretKeySpec(k2, "DES"));
    byte[] out = new byte[padded.length];
    byte[] chain = iv.clone();
    for (int at = 0; at < padded.length; at += 8) {
      byte[] block = Arrays.copyOfRange(padded, at, at + 8);
      for (int i = 0; i < 8; i++) {
        block[i] ^= chain[i];
      }
      chain = e1.doFinal(d2.doFinal(e1.doFinal(block)));
      System.arraycopy(chain, 0, out, at, 8);
    }
    return out;
  }

  private static byte[] pad(byte[] data, int block) {
    int padding = block - data.length % block;
    byte[] padded = Arrays.copyOf(data, data.length + padding);
    Arrays.fill(padded, data.length, padded.length, (byte) padding);
    return padded;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static byte[] random(int length) {
    byte[] bytes = new byte[length];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
