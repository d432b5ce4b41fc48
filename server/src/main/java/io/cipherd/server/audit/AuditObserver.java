package io.cipherd.server.audit;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.CryptoOperation;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.logging.RequestKeyName;

/**
 * Counts each item the engine handles into the current call's {@link ItemTally} (from the gRPC
 * Context, set by {@link AuditInterceptor}): one increment per item, nothing allocated. A rewrap's
 * item counts under the version it was decrypted with and the one it was encrypted with, as it used
 * both; the engine's extra {@code REWRAP} report is not counted again. Outside an audited call
 * (start-up tasks, tests) it does nothing.
 */
public final class AuditObserver implements CryptoObserver {
  /** The outcome of an item that succeeded. */
  public static final String OK = "ok";

  @Override
  public void succeeded(CryptoOperation operation, KeyVersionRef version, int plaintextBytes) {
    if (operation == CryptoOperation.REWRAP) {
      return;
    }
    ItemTally tally = AuditInterceptor.TALLY.get();
    if (tally != null) {
      tally.add(version.keyName(), version.version(), OK);
    }
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
    ItemTally tally = AuditInterceptor.TALLY.get();
    if (tally != null) {
      tally.add(
          version == null ? RequestKeyName.NONE : version.keyName(),
          version == null ? ItemTally.NO_VERSION : version.version(),
          outcome(error));
    }
  }

  /** An error's outcome in a record: its reason, as the ErrorInfo of the API names it. */
  static String outcome(Throwable error) {
    return error instanceof CipherdException e ? e.kind().name() : ErrorKind.INTERNAL.name();
  }
}
