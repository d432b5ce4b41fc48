package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import javax.crypto.Cipher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Each mode's facts against the JCE and the payload layouts of proto/README.md. */
class ModeTest {
  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"HMAC", "LEGACY"},
      mode = EnumSource.Mode.EXCLUDE)
  void headerName_roundTrips_andIsListed(Mode mode) {
    assertThat(Mode.fromHeaderName(mode.headerName())).isSameAs(mode);
    assertThat(Mode.headerNames().split(", ")).contains(mode.headerName());
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"HMAC", "LEGACY"},
      mode = EnumSource.Mode.EXCLUDE)
  void transformation_isOneTheJdkProvides(Mode mode) throws Exception {
    assertThat(Cipher.getInstance(mode.transformation())).isNotNull();
  }

  @org.junit.jupiter.api.Test
  void hmac_isAnIndexKey_withAMacTheJdkProvides_andNoHeaderName() throws Exception {
    assertThat(javax.crypto.Mac.getInstance(Mode.HMAC.transformation())).isNotNull();
    assertThat(Mode.HMAC.isCipher()).isFalse();
    assertThat(Mode.fromHeaderName("hmac")).isNull();
    assertThat(Mode.fromName("hmac")).isSameAs(Mode.HMAC);
    assertThat(Mode.headerNames()).doesNotContain("hmac");
    assertThat(Mode.ciphers()).doesNotContain(Mode.HMAC).hasSize(Mode.values().length - 2);
  }

  @org.junit.jupiter.api.Test
  void legacy_isAKindOfItsOwn_thatNeverEncryptsNorAppearsInAHeader() {
    assertThat(Mode.LEGACY.kind()).isEqualTo(Mode.Kind.LEGACY);
    assertThat(Mode.HMAC.kind()).isEqualTo(Mode.Kind.INDEX);
    assertThat(Mode.GCM.kind()).isEqualTo(Mode.Kind.CIPHER);
    assertThat(Mode.LEGACY.isCipher()).isFalse();
    assertThat(Mode.fromHeaderName("legacy")).isNull();
    assertThat(Mode.fromName("legacy")).isSameAs(Mode.LEGACY);
    assertThat(Mode.headerNames()).doesNotContain("legacy");
    assertThat(Mode.ciphers()).doesNotContain(Mode.LEGACY);
    assertThat(Mode.LEGACY.acceptsKeySize(128)).as("its sizes are its legacy cipher's").isFalse();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aead_isExactlyTheModesWithATag(Mode mode) {
    assertThat(mode.isAead())
        .isEqualTo(
            mode == Mode.GCM || mode == Mode.CHACHA || mode == Mode.XGCM || mode == Mode.SIV);
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
  void payloadLength_followsTheSpec_andIsAValidLength(Mode mode, int plaintext, int payload) {
    assertThat(mode.payloadLength(plaintext)).isEqualTo(payload);
    assertThat(mode.payloadLengthProblem(payload)).isNull();
  }

  @ParameterizedTest(name = "{0}: {1} payload bytes is invalid")
  @CsvSource({"GCM, 27", "CHACHA, 0", "CBC, 16", "CBC, 33", "CTR, 15", "ECB, 0", "ECB, 17"})
  void payloadLengthProblem_namesImpossibleLengths(Mode mode, int payload) {
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
  void acceptsKeySize_onlyTheAlgorithmsSizes(Mode mode, int bits, boolean accepted) {
    assertThat(mode.acceptsKeySize(bits)).isEqualTo(accepted);
  }
}
