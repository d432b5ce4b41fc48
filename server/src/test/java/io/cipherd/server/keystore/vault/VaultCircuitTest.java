package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The short fail-fast window after Vault was unreachable. */
class VaultCircuitTest {
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  };
  private final VaultCircuit circuit = new VaultCircuit("http://vault:8200", Duration.ofSeconds(1), clock);

  @Test
  void afterUnreachable_callsFailAtOnceNamingVault_untilTheWindowEnds() {
    circuit.unreachable("ConnectException: Connection refused");

    assertThatThrownBy(circuit::checkClosed)
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("Vault at http://vault:8200")
        .hasMessageContaining("Connection refused");
    now.set(now.get().plusMillis(999));
    assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
    now.set(now.get().plusMillis(1));
    assertThatCode(circuit::checkClosed).doesNotThrowAnyException();
  }

  @Test
  void anAnswerFromVault_closesItAtOnce() {
    circuit.unreachable("timeout");

    circuit.answered();

    assertThatCode(circuit::checkClosed).doesNotThrowAnyException();
  }
}
