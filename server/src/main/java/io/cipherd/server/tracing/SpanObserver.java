package io.cipherd.server.tracing;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.CryptoOperation;

/**
 * Puts the key version and mode a traced call used on its span ({@link CallSpan}): the first
 * version any of its items reached, whether the item succeeded or not. Outside a traced call it
 * does nothing; a server without tracing does not have one.
 */
final class SpanObserver implements CryptoObserver {
  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
    used(CallSpan.current(), version);
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
    used(CallSpan.current(), version);
  }

  @Override
  public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
    used(CallSpan.current(), named);
  }

  /** Bound to the traced call served on this thread now, which may tell its items later. */
  @Override
  public CryptoObserver forCall() {
    CallSpan span = CallSpan.current();
    if (span == null) {
      return CryptoObserver.NONE;
    }
    return new CryptoObserver() {
      @Override
      public void succeeded(
          CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
        used(span, version);
      }

      @Override
      public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
        used(span, version);
      }

      @Override
      public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
        used(span, named);
      }
    };
  }

  private static void used(CallSpan span, KeyVersionRef version) {
    if (span != null && version != null) {
      span.usedVersion(version);
    }
  }
}
