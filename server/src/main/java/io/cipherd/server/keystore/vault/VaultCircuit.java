package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Fails Vault calls at once for a short while after Vault was found unreachable, so that while Vault
 * is down (or black-holed, where each attempt would wait for the connect timeout) calls that need it
 * answer UNAVAILABLE immediately instead of each paying timeouts and retries. Any answer from Vault
 * closes it again.
 */
final class VaultCircuit {
  private final String address;
  private final Duration openFor;
  private final Clock clock;
  private volatile Instant openUntil = Instant.MIN;
  private volatile String lastFailure = "";

  VaultCircuit(String address, Duration openFor, Clock clock) {
    this.address = address;
    this.openFor = openFor;
    this.clock = clock;
  }

  /** Throws without calling Vault if Vault was unreachable less than {@code openFor} ago. */
  void checkClosed() {
    Instant until = openUntil;
    if (clock.instant().isBefore(until)) {
      throw new KeyStoreUnavailableException("Vault at " + address + " is unavailable (" + lastFailure
          + "); next attempt after " + until, null);
    }
  }

  /** Records that Vault could not be reached (after the driver's retries). */
  void unreachable(String failure) {
    lastFailure = failure;
    openUntil = clock.instant().plus(openFor);
  }

  /** Records that Vault answered. */
  void answered() {
    openUntil = Instant.MIN;
  }
}
