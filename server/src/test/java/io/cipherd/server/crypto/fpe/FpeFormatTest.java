package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import org.junit.jupiter.api.Test;

/** {@link FpeFormat}: its invariants, and the text key stores keep it as. */
class FpeFormatTest {
  @Test
  void storeText_roundTripsAlphabetsAndTemplates() {
    FpeFormat alphabet = FpeFormat.ofAlphabet("αβγδεζηθ;=", 2, true, 3);
    FpeFormat card = FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER, true, 0);

    assertThat(FpeFormat.fromStoreText(alphabet.storeText())).isEqualTo(alphabet);
    assertThat(FpeFormat.fromStoreText(card.storeText())).isEqualTo(card);
    assertThat(card.storeText()).isEqualTo("template=card_number;prefix=0;small=true;suffix=0");
    assertThat(alphabet).isNotEqualTo(FpeFormat.ofAlphabet("αβγδεζηθ;=", 1, true, 3));
  }

  @Test
  void maskSuffix_defaultsToTheTemplates() {
    assertThat(FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER, false, 0).maskSuffix())
        .isEqualTo(4);
    assertThat(FpeFormat.ofTemplate(FormatTemplate.PHONE_NUMBER, false, 0).maskSuffix())
        .isEqualTo(2);
    assertThat(FpeFormat.ofTemplate(FormatTemplate.DIGITS, false, 0).maskSuffix()).isZero();
    assertThat(FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER, false, 1).maskSuffix()).isOne();
  }

  @Test
  void maxVersion_isWhatThePrefixCanWrite() {
    assertThat(FpeFormat.ofAlphabet("0123456789", 1, false, 0).maxVersion()).isEqualTo(9);
    assertThat(FpeFormat.ofAlphabet("0123456789", 2, false, 0).maxVersion()).isEqualTo(99);
    assertThat(FpeFormat.ofAlphabet("0123456789", 0, false, 0).maxVersion())
        .isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void invalidSettings_areRefused() {
    assertThatThrownBy(() -> FpeFormat.ofAlphabet("0123456789", 3, false, 0))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("version_prefix_length");
    assertThatThrownBy(() -> FpeFormat.ofAlphabet("0123456789", 0, false, 5))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("mask_visible_suffix");
    assertThatThrownBy(() -> FpeFormat.ofAlphabet("0", 0, false, 0))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> FpeFormat.fromStoreText("template=nope;prefix=0;small=false;suffix=0"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
