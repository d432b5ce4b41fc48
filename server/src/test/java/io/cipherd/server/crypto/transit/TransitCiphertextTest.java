package io.cipherd.server.crypto.transit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Transit's {@code vault:vN:BASE64} text, parsed; what is not Transit's refused, not repeated. */
class TransitCiphertextTest {
  @Test
  void parse_readsTheVersionAndDecodesThePayload() {
    TransitCiphertext parsed = TransitCiphertext.parse("vault:v12:AAECAw==");

    assertThat(parsed.version()).isEqualTo(12);
    assertThat(parsed.payload()).containsExactly(0, 1, 2, 3);
    assertThat(parsed.toString()).isEqualTo("TransitCiphertext[v12, 4 bytes]");
  }

  @Test
  void isTransit_tellsTransitsPrefixFromCipherdsHeader() {
    assertThat(TransitCiphertext.isTransit("vault:v1:AAAA")).isTrue();
    assertThat(TransitCiphertext.isTransit("<vault/v1:gcm>AAAA")).isFalse();
    assertThat(TransitCiphertext.isTransit("vault:1:AAAA")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "vault:v",
        "vault:v1",
        "vault:v:AAAA",
        "vault:v0:AAAA",
        "vault:v01:AAAA",
        "vault:v-1:AAAA",
        "vault:v1x:AAAA",
        "vault:v99999999999:AAAA",
        "vault:v1:",
        "vault:v1:AA AA",
        "vault:v1:AAA_",
        "<k/v1:gcm>AAAA"
      })
  void parse_refusesWhatTransitDoesNotMake(String text) {
    assertThatThrownBy(() -> TransitCiphertext.parse(text))
        .isInstanceOf(InvalidCiphertextException.class);
  }

  @Test
  void parse_saysWhatIsWrong_withoutRepeatingTheCiphertext() {
    assertThatThrownBy(() -> TransitCiphertext.parse("vault:v1:someone's-data@@"))
        .isInstanceOf(InvalidCiphertextException.class)
        .hasMessageContaining("base64")
        .message()
        .doesNotContain("someone");
  }
}
