package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The short fail-fast window after Vault was unreachable, and the one probe that ends it. */
class VaultCircuitTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now.get();
        }
      };
  private final VaultCircuit circuit =
      new VaultCircuit(Duration.ofSeconds(1), /* probeTimeout= */ Duration.ofSeconds(30), clock);

  @Test
  void afterUnreachable_callsFailAtOnceWithoutSayingWhereVaultIs_untilTheWindowEnds() {
    circuit.unreachable();

    assertThatThrownBy(circuit::checkClosed)
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessage("the key store is unavailable; retry later");
    now.set(now.get().plusMillis(999));
    assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
    now.set(now.get().plusMillis(1));
    assertThatCode(circuit::checkClosed).doesNotThrowAnyException();
  }

  @Test
  void afterTheOpenPeriod_exactlyOneCallerProbes_othersFailFastUntilItAnswers() {
    circuit.unreachable();
    now.set(now.get().plusSeconds(1));

    assertThatCode(circuit::checkClosed).as("the probe").doesNotThrowAnyException();
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
    }
    now.set(now.get().plusSeconds(5));
    assertThatThrownBy(circuit::checkClosed)
        .as("still waiting for the probe")
        .isInstanceOf(KeyStoreUnavailableException.class);

    circuit.answered();

    assertThatCode(circuit::checkClosed).doesNotThrowAnyException();
    assertThatCode(circuit::checkClosed).doesNotThrowAnyException();
  }

  @Test
  void aFailedProbe_opensItAgainForTheWholePeriod() {
    circuit.unreachable();
    now.set(now.get().plusSeconds(1));
    circuit.checkClosed();

    circuit.unreachable();

    now.set(now.get().plusMillis(999));
    assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
    now.set(now.get().plusMillis(1));
    assertThatCode(circuit::checkClosed).as("the next probe").doesNotThrowAnyException();
    assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
  }

  @Test
  void aProbeThatNeverReports_isGivenUpOnAfterTheProbeTimeout() {
    circuit.unreachable();
    now.set(now.get().plusSeconds(1));
    circuit.checkClosed(); // a probe whose thread died without a word

    now.set(now.get().plusSeconds(29));
    assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
    now.set(now.get().plusSeconds(1));
    assertThatCode(circuit::checkClosed).as("another probe").doesNotThrowAnyException();
    assertThatThrownBy(circuit::checkClosed).isInstanceOf(KeyStoreUnavailableException.class);
  }

  @Test
  void manyCallersAtTheEndOfTheOpenPeriod_letExactlyOneThrough() throws Exception {
    circuit.unreachable();
    now.set(now.get().plusSeconds(1));
    int callers = 16;
    ExecutorService threads = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> passed = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        passed.add(
            threads.submit(
                () -> {
                  go.await();
                  try {
                    circuit.checkClosed();
                    return true;
                  } catch (KeyStoreUnavailableException failedFast) {
                    return false;
                  }
                }));
      }
      go.countDown();
      int through = 0;
      for (Future<Boolean> result : passed) {
        through += result.get(10, TimeUnit.SECONDS) ? 1 : 0;
      }

      assertThat(through).isEqualTo(1);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void anAnswerFromVault_closesItAtOnce() {
    circuit.unreachable();

    circuit.answered();

    assertThatCode(circuit::checkClosed).doesNotThrowAnyException();
  }
}
