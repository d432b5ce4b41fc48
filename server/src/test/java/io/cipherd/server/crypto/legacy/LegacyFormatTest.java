package io.cipherd.server.crypto.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The legacy ciphers' key lengths and IVs, and which IV conventions each takes. */
class LegacyFormatTest {
  @ParameterizedTest(name = "{0}: IV {1} bytes, keys of {2}")
  @CsvSource(
      delimiter = ';',
      value = {
        "MYSQL_AES_ECB; 0; 16 bytes", "AES_CBC; 16; 16, 24 or 32 bytes",
            "AES_ECB; 0; 16, 24 or 32 bytes",
        "AES_CTR; 16; 16, 24 or 32 bytes", "AES_CFB; 16; 16, 24 or 32 bytes",
            "AES_OFB; 16; 16, 24 or 32 bytes",
        "AES_GCM; 12; 16, 24 or 32 bytes", "DES_CBC; 8; 8 bytes", "DESEDE_CBC; 8; 16 or 24 bytes",
        "BLOWFISH_CBC; 8; 4 to 56 bytes", "RC4; 0; 5 to 256 bytes"
      })
  void eachCipher_hasTheSpecsIvLengthAndKeyLengths(
      LegacyCipher cipher, int ivLength, String keyLengths) {
    assertThat(cipher.ivLength()).isEqualTo(ivLength);
    assertThat(cipher.keyLengths()).isEqualTo(keyLengths);
    assertThat(LegacyCipher.fromStoreName(cipher.storeName())).isSameAs(cipher);
  }

  @Test
  void keyLengths_rangesTakeEveryLengthBetween_listsOnlyThoseListed() {
    assertThat(LegacyCipher.BLOWFISH_CBC.acceptsKeyLength(4)).isTrue();
    assertThat(LegacyCipher.BLOWFISH_CBC.acceptsKeyLength(33)).isTrue();
    assertThat(LegacyCipher.BLOWFISH_CBC.acceptsKeyLength(57)).isFalse();
    assertThat(LegacyCipher.RC4.acceptsKeyLength(4)).isFalse();
    assertThat(LegacyCipher.RC4.acceptsKeyLength(256)).isTrue();
    assertThat(LegacyCipher.AES_CBC.acceptsKeyLength(20)).isFalse();
    assertThat(LegacyCipher.MYSQL_AES_ECB.acceptsKeyLength(32)).isFalse();
    assertThat(LegacyCipher.DESEDE_CBC.acceptsKeyLength(8)).isFalse();
  }

  @Test
  void unspecifiedIv_isPrependedForCiphersWithAnIv_andNoneForTheOthers() {
    assertThat(LegacyFormat.of(LegacyCipher.AES_CBC, null, null).iv())
        .isEqualTo(IvConvention.PREPENDED);
    assertThat(LegacyFormat.of(LegacyCipher.AES_GCM, null, new byte[0]).iv())
        .isEqualTo(IvConvention.PREPENDED);
    assertThat(LegacyFormat.of(LegacyCipher.RC4, null, null).iv()).isEqualTo(IvConvention.NONE);
    assertThat(LegacyFormat.of(LegacyCipher.MYSQL_AES_ECB, null, null).iv())
        .isEqualTo(IvConvention.NONE);
  }

  @Test
  void fixedIv_isKeptAsACopy_andComparedByValue() {
    byte[] iv = new byte[8];
    LegacyFormat format = LegacyFormat.of(LegacyCipher.BLOWFISH_CBC, IvConvention.FIXED, iv);
    iv[0] = 1;

    assertThat(format.fixedIv()).isEqualTo(new byte[8]);
    assertThat(format)
        .isEqualTo(LegacyFormat.of(LegacyCipher.BLOWFISH_CBC, IvConvention.FIXED, new byte[8]));
    assertThat(format)
        .isNotEqualTo(LegacyFormat.of(LegacyCipher.BLOWFISH_CBC, IvConvention.FIXED, iv));
  }

  @Test
  void conventionsThatDoNotFit_areRefusedNamingTheField() {
    assertThatThrownBy(() -> LegacyFormat.of(LegacyCipher.AES_ECB, IvConvention.PREPENDED, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("legacy_iv must be unspecified for aes-ecb");
    assertThatThrownBy(() -> LegacyFormat.of(LegacyCipher.RC4, IvConvention.FIXED, new byte[0]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("legacy_iv");
    assertThatThrownBy(
            () -> LegacyFormat.of(LegacyCipher.AES_CBC, IvConvention.FIXED, new byte[12]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("legacy_fixed_iv must be 16 bytes for aes-cbc, got 12");
    assertThatThrownBy(
            () -> LegacyFormat.of(LegacyCipher.AES_CBC, IvConvention.SEPARATE, new byte[16]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("legacy_fixed_iv is only for");
    assertThatThrownBy(() -> LegacyFormat.of(LegacyCipher.AES_CBC, IvConvention.NONE, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("takes a 16-byte IV");
  }
}
