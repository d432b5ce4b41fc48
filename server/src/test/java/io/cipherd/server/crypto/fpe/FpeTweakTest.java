package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@link FpeTweak} against SHA-256 values computed outside this code (Python's hashlib, {@code
 * sha256(b"cipherd-ff1\x00cards\x00users.card_number")}): the formula proto/README.md states.
 */
class FpeTweakTest {
  @Test
  void tweak_isTheDocumentedSha256() {
    assertThat(
            HexFormat.of()
                .formatHex(
                    FpeTweak.of("cards", "users.card_number".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("d63946dde3065e91235a34c5928c339ffb839c10f9c8b39b1fddd2c8c0920b84");
    assertThat(HexFormat.of().formatHex(FpeTweak.of("k", new byte[0])))
        .isEqualTo("7fe757e5389baac0f9e10b7114891dcf96a97b17515a24f6e557b1e2e3a19a5b");
  }

  @Test
  void contextOverTheLimit_isRefused() {
    assertThat(FpeTweak.of("k", new byte[1024])).hasSize(32);
    assertThatThrownBy(() -> FpeTweak.of("k", new byte[1025]))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("at most 1024 bytes");
  }
}
