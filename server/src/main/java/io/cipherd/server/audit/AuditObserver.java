package io.cipherd.server.audit;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.engine.CryptoOperation;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.logging.CallRequest;
import java.util.Map;

/**
 * Counts each item the engine handles into the current call's {@link ItemTally} (from the gRPC
 * Context, set by {@link AuditInterceptor}): a batch's or a stream's successes once per key version
 * (see {@link #forCall}), its failures one by one, nothing allocated per item. A rewrap's item
 * counts under the version it was decrypted with and the one it was encrypted with, as it used
 * both; the engine's extra {@code REWRAP} report is not counted again. Outside an audited call
 * (start-up tasks, tests) it does nothing.
 */
public final class AuditObserver implements CryptoObserver {
  /** The outcome of an item that succeeded. */
  public static final String OK = "ok";

  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
    counted(AuditInterceptor.TALLY.get(), operation, version, items);
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
    counted(AuditInterceptor.TALLY.get(), version, error);
  }

  /**
   * Counts into the tally of the call served on this thread now, looked up once, so a batch or a
   * stream that tells its items later, or on another thread, still counts them in its record.
   */
  @Override
  public CryptoObserver forCall() {
    ItemTally tally = AuditInterceptor.TALLY.get();
    if (tally == null) {
      return CryptoObserver.NONE;
    }
    return new CryptoObserver() {
      @Override
      public void succeeded(
          CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
        counted(tally, operation, version, items);
      }

      @Override
      public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
        counted(tally, version, error);
      }
    };
  }

  private static void counted(
      ItemTally tally, CryptoOperation operation, KeyVersionRef version, long items) {
    if (tally != null && operation != CryptoOperation.REWRAP) {
      tally.add(version.keyName(), version.version(), OK, items);
    }
  }

  private static void counted(ItemTally tally, KeyVersionRef version, RuntimeException error) {
    if (tally == null) {
      return;
    }
    if (version != null) {
      tally.add(version.keyName(), version.version(), outcome(error));
      return;
    }
    // Refused before a version was reached (a disabled key, a version pending destruction, an
    // access denial): the key and version the error names, which the server validated.
    Map<String, String> about =
        error instanceof CipherdException e ? e.details() : Map.<String, String>of();
    tally.add(about.getOrDefault("key", CallRequest.NONE), versionOf(about), outcome(error));
  }

  private static int versionOf(Map<String, String> about) {
    try {
      return Integer.parseInt(about.getOrDefault("version", "0"));
    } catch (NumberFormatException e) {
      return ItemTally.NO_VERSION;
    }
  }

  /** An error's outcome in a record: its reason, as the ErrorInfo of the API names it. */
  static String outcome(Throwable error) {
    return error instanceof CipherdException e
        ? e.kind().reason().name()
        : ErrorKind.INTERNAL.reason().name();
  }
}
