package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyVersionRef;
import java.util.Arrays;

/**
 * Adds up a batch's or a stream's successes per operation and key version, and tells them to the
 * observer in bulk at {@link #flush}: the metrics, the usage ledger and the audit tally are then
 * touched once per key version a batch used, not once per item (they were a tenth of a batch item's
 * CPU). Failures go through at once, one by one.
 *
 * <p>Confined to the thread, or the lock, its lease's work runs under; {@link #flush} too. A batch
 * uses few versions, found by a linear scan comparing the version objects by identity first, then
 * by key, number and type: a subject-bound item reports a version object of its own, and a batch of
 * 256 of them once took 256 slots (a quadratic scan, and every item told to the target alone).
 */
final class BatchedObserver implements CryptoObserver {
  private final CryptoObserver target;
  private CryptoOperation[] operations = new CryptoOperation[2];
  private KeyVersionRef[] versions = new KeyVersionRef[2];
  private long[] items = new long[2];
  private long[] bytes = new long[2];
  private int size;

  /** Tells {@code target}, which must already be bound to the call ({@link #forCall}). */
  BatchedObserver(CryptoObserver target) {
    this.target = target;
  }

  @Override
  public void succeeded(
      CryptoOperation operation, KeyVersionRef version, long count, long plaintextBytes) {
    int slot = slot(operation, version);
    items[slot] += count;
    bytes[slot] += plaintextBytes;
  }

  @Override
  public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
    target.failed(operation, version, error);
  }

  @Override
  public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
    target.refused(operation, named, error);
  }

  /** Tells the target what was added up since the last flush, and starts again from nothing. */
  void flush() {
    int told = size;
    size = 0;
    for (int i = 0; i < told; i++) {
      target.succeeded(operations[i], versions[i], items[i], bytes[i]);
      versions[i] = null;
    }
  }

  private int slot(CryptoOperation operation, KeyVersionRef version) {
    for (int i = 0; i < size; i++) {
      if (operations[i] == operation && versions[i].sameVersion(version)) {
        return i;
      }
    }
    if (size == versions.length) {
      operations = Arrays.copyOf(operations, size * 2);
      versions = Arrays.copyOf(versions, size * 2);
      items = Arrays.copyOf(items, size * 2);
      bytes = Arrays.copyOf(bytes, size * 2);
    }
    operations[size] = operation;
    versions[size] = version;
    items[size] = 0;
    bytes[size] = 0;
    return size++;
  }
}
