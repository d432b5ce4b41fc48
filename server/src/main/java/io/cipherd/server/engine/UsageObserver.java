package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.usage.UsageLedger;

/**
 * Counts each successful decryption and rewrap per key version into a {@link UsageLedger} (an
 * encryption counts itself when it reserves its place under the version's cap), and each failed
 * decryption of a version that exists as a failure of it: a caller allowed to decrypt who holds a
 * ciphertext that fails (wrong context, tampered, below min_decryption_version, pending
 * destruction) shows that data under the version still exists. Callers the access policy refuses
 * never get this far, so they count nothing.
 */
public final class UsageObserver implements CryptoObserver {
  private final UsageLedger ledger;

  public UsageObserver(UsageLedger ledger) {
    this.ledger = ledger;
  }

  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
    if (operation == CryptoOperation.ENCRYPT) {
      // Counted when reserved against the version's cap, before it ran (KeyCache.forEncryption).
      return;
    }
    UsageLedger.Use use =
        switch (operation) {
          case ENCRYPT -> throw new AssertionError("counted when reserved");
          case DECRYPT -> UsageLedger.Use.DECRYPT;
          case REWRAP -> UsageLedger.Use.REWRAP;
          case INDEX -> UsageLedger.Use.INDEX;
          case INDEX_LOOKUP -> UsageLedger.Use.INDEX_LOOKUP;
        };
    ledger.record(version.keyName(), version.version(), use, items);
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
    if (version != null
        && operation == CryptoOperation.DECRYPT
        && error instanceof CipherdException e
        && e.kind() == ErrorKind.DECRYPTION_FAILED) {
      ledger.record(version.keyName(), version.version(), UsageLedger.Use.FAILURE);
    }
  }

  @Override
  public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
    ledger.record(named.keyName(), named.version(), UsageLedger.Use.FAILURE);
  }
}
