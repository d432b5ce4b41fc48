package io.cipherd.client;

import static io.cipherd.client.Testdata.keyName;
import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Data encrypted before cipherd, rewrapped into a cipherd key by the real server. */
class LegacyTest {
  /** SELECT HEX(AES_ENCRYPT('HELLO', '1234567890')), made here as MySQL makes it. */
  private static final String MYSQL_HELLO = mysqlAesEncryptHex(utf8("HELLO"), utf8("1234567890"));

  /** MySQL's AES_ENCRYPT: the key string XOR-folded into 16 bytes, AES-128-ECB, PKCS#7 padding. */
  private static String mysqlAesEncryptHex(byte[] plaintext, byte[] keyString) {
    byte[] key = new byte[16];
    for (int i = 0; i < keyString.length; i++) {
      key[i % 16] ^= keyString[i];
    }
    try {
      Cipher ecb = Cipher.getInstance("AES/ECB/PKCS5Padding");
      ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      return HexFormat.of().withUpperCase().formatHex(ecb.doFinal(plaintext));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static CipherdClient client;

  @BeforeAll
  static void connect() throws Exception {
    client = SharedServer.client();
  }

  @AfterAll
  static void close() {
    if (client != null) {
      client.close();
    }
  }

  @Test
  void aMysqlKnownAnswerImportedByPassphraseRewrapsToHello() {
    String legacy = keyName();
    String target = keyName();
    client.keys().create(target, Mode.GCM);
    Key key =
        client
            .keys()
            .importLegacyKey(
                legacy,
                LegacyCipher.MYSQL_AES_ECB,
                null,
                new byte[0],
                new byte[0],
                utf8("1234567890"));
    KeyVersion version = key.version(1).orElseThrow();
    assertEquals(LegacyCipher.MYSQL_AES_ECB, version.legacyCipher().orElseThrow());
    assertEquals(128, version.keySizeBits());
    byte[] raw = HexFormat.of().parseHex(MYSQL_HELLO);
    for (LegacyCiphertext ciphertext :
        List.of(
            LegacyCiphertext.hex(legacy, MYSQL_HELLO),
            LegacyCiphertext.hex(legacy, MYSQL_HELLO.toLowerCase(java.util.Locale.ROOT)),
            LegacyCiphertext.raw(legacy, raw),
            LegacyCiphertext.base64(legacy, Base64.getEncoder().encodeToString(raw)))) {
      Rewrapped rewrapped = client.reEncrypt(ciphertext, utf8("users.name/1"), target);
      assertEquals(target, Envelope.parse(rewrapped.ciphertext()).keyName());
      assertArrayEquals(
          utf8("HELLO"), client.decrypt(rewrapped.ciphertext(), utf8("users.name/1")));
    }
  }

  @Test
  void aesCbcWithItsIvPrependedRewrapsInABatchAndAStream() throws Exception {
    String legacy = keyName();
    String target = keyName();
    client.keys().create(target, Mode.XGCM);
    byte[] key = new byte[16];
    byte[] iv = new byte[16];
    new SecureRandom().nextBytes(key);
    new SecureRandom().nextBytes(iv);
    client
        .keys()
        .importLegacyKey(
            legacy, LegacyCipher.AES_CBC, LegacyIv.PREPENDED, key, new byte[0], new byte[0]);
    Cipher cbc = Cipher.getInstance("AES/CBC/PKCS5Padding");
    cbc.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    byte[] sealed = cbc.doFinal(utf8("card 4111"));
    byte[] stored = new byte[16 + sealed.length];
    System.arraycopy(iv, 0, stored, 0, 16);
    System.arraycopy(sealed, 0, stored, 16, sealed.length);
    CiphertextItem item =
        CiphertextItem.legacy("row-1", LegacyCiphertext.raw(legacy, stored), utf8("row-1"));
    Rewrapped batched = client.reEncryptBatch(List.of(item), target, "").get(0).get();
    assertArrayEquals(utf8("card 4111"), client.decrypt(batched.ciphertext(), utf8("row-1")));
    try (ItemStream<Rewrapped> stream =
        client.reEncryptStream(List.of(item).iterator(), target, "", null)) {
      assertArrayEquals(
          utf8("card 4111"), client.decrypt(stream.next().get().ciphertext(), utf8("row-1")));
    }
    assertThrows(IllegalArgumentException.class, () -> client.decryptBatch(List.of(item), ""));
  }
}
