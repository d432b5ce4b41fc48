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
  public void succeeded(CryptoOperation operation, KeyVersionRef version, int plaintextBytes) {
    switch (operation) {
      case ENCRYPT -> ledger.record(version.keyName(), version.version(), UsageLedger.Use.ENCRYPT);
      case DECRYPT -> ledger.record(version.keyName(), version.version(), UsageLedger.Use.DECRYPT);
      case REWRAP -> ledger.record(version.keyName(), version.version(), UsageLedger.Use.REWRAP);
      case INDEX -> ledger.record(version.keyName(), version.version(), UsageLedger.Use.INDEX);
    }
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {}
}
