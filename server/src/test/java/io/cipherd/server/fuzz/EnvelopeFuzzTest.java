package io.cipherd.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes the ciphertext parser: any input either parses into an envelope that formats back to the
 * same text, or is refused with InvalidCiphertextException whose message does not echo it.
 * Regression mode (plain {@code make test}) replays the seeds; {@code make fuzz} explores.
 */
class EnvelopeFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void parse_eitherRoundTripsOrIsRefusedCleanly(byte[] text) {
    ParsedEnvelope envelope;
    try {
      envelope = ParsedEnvelope.parse(text);
    } catch (InvalidCiphertextException refused) {
      assertThat(refused.getMessage()).startsWith("invalid ciphertext: ");
      String input = new String(text, StandardCharsets.UTF_8);
      if (input.length() >= 16) {
        assertThat(refused.getMessage()).doesNotContain(input);
      }
      return;
    }
    assertThat(envelope.format().getBytes(StandardCharsets.UTF_8)).isEqualTo(text);
    assertThat(envelope.header().mode().payloadLengthProblem(envelope.payload().length)).isNull();
  }
}
