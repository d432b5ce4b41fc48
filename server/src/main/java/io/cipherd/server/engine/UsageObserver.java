package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
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
  public void succeeded(CryptoOperation operation, EnvelopeHeader header, int plaintextBytes) {
    switch (operation) {
      case ENCRYPT -> ledger.record(header.keyName(), header.version(), UsageLedger.Use.ENCRYPT);
      case DECRYPT -> ledger.record(header.keyName(), header.version(), UsageLedger.Use.DECRYPT);
      case REWRAP -> ledger.record(header.keyName(), header.version(), UsageLedger.Use.REWRAP);
      case INDEX -> ledger.record(header.keyName(), header.version(), UsageLedger.Use.INDEX);
    }
  }

  @Override
  public void failed(CryptoOperation operation, EnvelopeHeader header, RuntimeException error) {}
}
