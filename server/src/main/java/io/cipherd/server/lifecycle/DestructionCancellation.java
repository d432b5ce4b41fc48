package io.cipherd.server.lifecycle;

import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.KeyMetadata;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels the scheduled destruction of a version that a call has just tried to use, when its key's
 * policy sets {@code cancel_destruction_on_use}: data under the version still exists, and
 * destroying it would lose that data. The call itself is still refused; the cancellation is written
 * off the calling thread (the call may run on an event loop), as {@code
 * CancelKeyVersionDestruction} would, with check-and-set on the fresh state, so of the replicas and
 * calls that see the use at once one write cancels and the others find nothing left to do. At most
 * one cancellation per version is queued at a time, so a burst of calls costs one store write.
 */
public final class DestructionCancellation {
  /** Told of each destruction this replica cancelled (the audit trail records it). */
  @FunctionalInterface
  public interface Listener {
    /** Hears nothing: the cancellation is only logged. */
    Listener NONE = (key, version, requestId) -> {};

    /**
     * Version {@code version} of {@code key} is no longer scheduled for destruction, because the
     * call {@code requestId} (or "-" when none was named) tried to use it.
     */
    void cancelled(String key, int version, String requestId);
  }

  private static final Logger LOG = LoggerFactory.getLogger(DestructionCancellation.class);

  private final KeyCache cache;
  private final KeyLifecycleAdmin lifecycle;
  private final Executor executor;
  private final Supplier<String> requestId;
  private final Listener listener;
  private final Set<String> queued = ConcurrentHashMap.newKeySet();

  /**
   * Cancels through {@code lifecycle} on {@code executor} what {@code cache}'s metadata says to
   * cancel; {@code requestId} names the calling thread's call, and {@code listener} hears of each
   * cancellation.
   */
  public DestructionCancellation(
      KeyCache cache,
      KeyLifecycleAdmin lifecycle,
      Executor executor,
      Supplier<String> requestId,
      Listener listener) {
    this.cache = cache;
    this.lifecycle = lifecycle;
    this.executor = executor;
    this.requestId = requestId;
    this.listener = listener;
  }

  /**
   * A call allowed to use {@code version} of {@code name} was refused because the version is
   * pending destruction; cheap, and never throws.
   */
  public void used(String name, int version) {
    KeyMetadata key = cache.peek(name).orElse(null);
    if (key == null || !key.policy().cancelDestructionOnUse()) {
      return;
    }
    String id = name + "/v" + version;
    if (!queued.add(id)) {
      return;
    }
    String cause = requestId.get();
    try {
      executor.execute(() -> cancel(name, version, cause == null ? "-" : cause, id));
    } catch (RejectedExecutionException e) {
      queued.remove(id);
      LOG.warn(
          "version {} of key '{}' was used while pending destruction; its cancellation could not"
              + " be queued now (the server is busy), the next use tries again",
          version,
          name);
    }
  }

  private void cancel(String name, int version, String cause, String id) {
    try {
      if (lifecycle.cancelDestructionOnUse(name, version)) {
        LOG.warn(
            "cancelled the destruction of version {} of key '{}': request {} tried to use it while"
                + " it was pending destruction, and the key's policy sets cancel_destruction_on_use",
            version,
            name,
            cause);
        listener.cancelled(name, version, cause);
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "version {} of key '{}' was used while pending destruction; cancelling it failed: {}",
          version,
          name,
          e.getMessage());
    } finally {
      queued.remove(id);
    }
  }
}
