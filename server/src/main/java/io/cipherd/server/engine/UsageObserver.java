package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.keys.UsageLedger;

/**
 * Counts each successful encryption, decryption and rewrap per key version into a {@link
 * UsageLedger}.
 */
public final class UsageObserver implements CryptoObserver {
  private final UsageLedger ledger;

  public UsageObserver(UsageLedger ledger) {
    this.ledger = ledger;
  }

  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
    UsageLedger.Use use =
        switch (operation) {
          case ENCRYPT -> UsageLedger.Use.ENCRYPT;
          case DECRYPT -> UsageLedger.Use.DECRYPT;
          case REWRAP -> UsageLedger.Use.REWRAP;
          case INDEX -> UsageLedger.Use.INDEX;
          case INDEX_LOOKUP -> UsageLedger.Use.INDEX_LOOKUP;
        };
    ledger.record(version.keyName(), version.version(), use, items);
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {}
}
