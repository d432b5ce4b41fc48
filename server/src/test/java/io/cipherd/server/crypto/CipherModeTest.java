package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import javax.crypto.Cipher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Each mode's facts against the JCE and the payload layouts of proto/README.md. */
class CipherModeTest {
  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void headerName_roundTrips_andIsListed(CipherMode mode) {
    assertThat(CipherMode.fromHeaderName(mode.headerName())).isSameAs(mode);
    assertThat(CipherMode.headerNames().split(", ")).contains(mode.headerName());
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"SIV"},
      mode = EnumSource.Mode.EXCLUDE)
  void transformation_isOneTheJdkProvides_andPooled(CipherMode mode) throws Exception {
    assertThat(Cipher.getInstance(mode.transformation())).isNotNull();
    assertThat(CipherMode.pooled()).contains(mode);
  }

  @Test
  void siv_isTinks_andBorrowsNoPooledCipher() {
    assertThat(CipherMode.SIV.transformation()).isNull();
    assertThat(CipherMode.pooled()).doesNotContain(CipherMode.SIV);
  }

  @Test
  void keyKindsAndIndexAndLegacy_areNoCipherModes() {
    assertThat(CipherMode.fromHeaderName("hmac")).isNull();
    assertThat(CipherMode.fromHeaderName("legacy")).isNull();
    assertThat(CipherMode.headerNames()).doesNotContain("hmac").doesNotContain("legacy");
  }

  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void encryptionLimit_onlyForRandom96BitNonces(CipherMode mode) {
    assertThat(mode.encryptionLimit())
        .isEqualTo(mode == CipherMode.GCM || mode == CipherMode.CHACHA ? 1L << 30 : 0);
  }

  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void aead_isExactlyTheModesWithATag(CipherMode mode) {
    assertThat(mode.isAead())
        .isEqualTo(
            mode == CipherMode.GCM
                || mode == CipherMode.CHACHA
                || mode == CipherMode.XGCM
                || mode == CipherMode.SIV);
    assertThat(mode.tagLength()).isEqualTo(mode.isAead() ? 16 : 0);
  }

  @ParameterizedTest(name = "{0}: {1} plaintext bytes -> {2} payload bytes")
  @CsvSource({
    "GCM, 0, 28",
    "GCM, 17, 45",
    "CHACHA, 5, 33",
    "CBC, 0, 32",
    "CBC, 15, 32",
    "CBC, 16, 48",
    "CTR, 7, 23",
    "CFB, 7, 23",
    "OFB, 7, 23",
    "ECB, 0, 16",
    "ECB, 16, 32",
    "XGCM, 0, 40",
    "XGCM, 12, 52",
    "SIV, 0, 16",
    "SIV, 20, 36"
  })
  void payloadLength_followsTheSpec_andIsAValidLength(CipherMode mode, int plaintext, int payload) {
    assertThat(mode.payloadLength(plaintext)).isEqualTo(payload);
    assertThat(mode.payloadLengthProblem(payload)).isNull();
  }

  @ParameterizedTest(name = "{0}: {1} payload bytes is invalid")
  @CsvSource({"GCM, 27", "CHACHA, 0", "CBC, 16", "CBC, 33", "CTR, 15", "ECB, 0", "ECB, 17"})
  void payloadLengthProblem_namesImpossibleLengths(CipherMode mode, int payload) {
    assertThat(mode.payloadLengthProblem(payload)).isNotBlank().contains(mode.headerName());
  }

  @ParameterizedTest
  @CsvSource({
    "GCM, 128, true",
    "GCM, 192, true",
    "GCM, 256, true",
    "GCM, 64, false",
    "CHACHA, 256, true",
    "CHACHA, 128, false",
    "CBC, 192, true"
  })
  void acceptsKeySize_onlyTheAlgorithmsSizes(CipherMode mode, int bits, boolean accepted) {
    assertThat(mode.acceptsKeySize(bits)).isEqualTo(accepted);
  }
}
