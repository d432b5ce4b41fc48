package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Fails Vault calls at once for a short while after Vault was found unreachable, so that while
 * Vault is down (or black-holed, where each attempt would wait for the connect timeout) calls that
 * need it answer UNAVAILABLE immediately instead of each paying timeouts and retries. When that
 * while is over, one caller is let through as a probe while the others keep failing fast: its
 * answer closes the circuit, its failure opens it again. Any answer from Vault closes it.
 */
final class VaultCircuit {
  private enum State {
    CLOSED,
    OPEN,
    HALF_OPEN
  }

  private final Duration openFor;
  private final Duration probeTimeout;
  private final Clock clock;

  /** Read without the lock on every call, so a closed circuit costs one volatile read. */
  private volatile boolean closed = true;

  private State state = State.CLOSED;

  /** OPEN: when the probe may go. HALF_OPEN: when a probe that never reported is given up on. */
  private Instant until = Instant.MIN;

  /**
   * @param openFor how long calls fail at once after Vault was unreachable
   * @param probeTimeout the longest a probe may take (one Vault call with the driver's retries); a
   *     probe that has not reported by then is taken as lost, and another caller probes
   */
  VaultCircuit(Duration openFor, Duration probeTimeout, Clock clock) {
    this.openFor = openFor;
    this.probeTimeout = probeTimeout;
    this.clock = clock;
  }

  /**
   * Returns if the caller may call Vault: the circuit is closed, or the caller is the one probe of
   * a circuit whose open period is over. Otherwise throws without calling Vault.
   */
  void checkClosed() {
    if (closed) {
      return;
    }
    synchronized (this) {
      Instant now = clock.instant();
      switch (state) {
        case CLOSED -> {
          return;
        }
        case OPEN, HALF_OPEN -> {
          if (now.isBefore(until)) {
            // VaultErrors logged why when the circuit opened; callers learn only that it is down.
            throw new KeyStoreUnavailableException(VaultErrors.UNAVAILABLE);
          }
          // This caller probes; the rest fail fast until it reports (or is given up on).
          state = State.HALF_OPEN;
          until = now.plus(probeTimeout);
        }
      }
    }
  }

  /** Records that Vault could not be reached (after the driver's retries). */
  void unreachable() {
    synchronized (this) {
      state = State.OPEN;
      until = clock.instant().plus(openFor);
      closed = false;
    }
  }

  /** Records that Vault answered. */
  void answered() {
    if (closed) {
      return;
    }
    synchronized (this) {
      state = State.CLOSED;
      until = Instant.MIN;
      closed = true;
    }
  }
}
