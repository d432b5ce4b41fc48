package io.cipherd.server.crypto.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hex and base64 text as legacy columns hold it: accepted forms, and refusals that never echo the
 * text.
 */
class LegacyTextTest {
  private static final byte[] BYTES = {(byte) 0xff, 0x06, (byte) 0xa5, 0x6b, 0x00};

  @Test
  void hex_eitherCase_decodes() {
    assertThat(LegacyText.fromHex("FF06A56B00", "legacy.hex")).isEqualTo(BYTES);
    assertThat(LegacyText.fromHex("ff06a56b00", "legacy.hex")).isEqualTo(BYTES);
    assertThat(LegacyText.fromHex("fF06A56b00", "legacy.hex")).isEqualTo(BYTES);
    assertThat(LegacyText.fromHex("", "legacy.hex")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"FF06A5SECRET6B00", "FF06A", "0x FF", "ff 06", "ff06\n"})
  void hex_notHex_isInvalidArgument_withoutTheText(String text) {
    assertThatThrownBy(() -> LegacyText.fromHex(text, "legacy.hex"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("legacy.hex is not hexadecimal text")
        .hasMessageNotContaining("SECRET")
        .hasMessageNotContaining(text.trim());
  }

  @Test
  void base64_standard_paddedOrNot_decodes() {
    assertThat(LegacyText.fromBase64("/walawA=", "legacy.base64")).isEqualTo(BYTES);
    assertThat(LegacyText.fromBase64("/walawA", "legacy.base64")).isEqualTo(BYTES);
    assertThat(LegacyText.fromBase64("+/8=", "legacy.base64"))
        .isEqualTo(new byte[] {(byte) 0xfb, (byte) 0xff});
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"_walawA=", "-walawA", "/walawA==", "/wal awA=", "/walawASECRET!", "QUJDR"})
  void base64_urlSafeOrBroken_isInvalidArgument_withoutTheText(String text) {
    assertThatThrownBy(() -> LegacyText.fromBase64(text, "legacy.base64"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageStartingWith("legacy.base64 is not standard base64")
        .hasMessageNotContaining("SECRET")
        .hasMessageNotContaining(text);
  }
}
