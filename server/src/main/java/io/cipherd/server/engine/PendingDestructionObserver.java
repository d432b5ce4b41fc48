package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.lifecycle.DestructionCancellation;

/**
 * Hands each call refused because the version it named is pending destruction to the {@link
 * DestructionCancellation}, which cancels the destruction when the key's policy says so. Only
 * callers the access policy allowed reach a version, so an outsider cannot keep a version alive.
 */
public final class PendingDestructionObserver implements CryptoObserver {
  private final DestructionCancellation cancellation;

  public PendingDestructionObserver(DestructionCancellation cancellation) {
    this.cancellation = cancellation;
  }

  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {}

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {}

  @Override
  public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
    if (error instanceof CipherdException e
        && e.kind() == ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED) {
      cancellation.used(named.keyName(), named.version());
    }
  }
}
