package io.cipherd.server.audit;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a trail's head in the key store, outside the audit file (as CloudTrail's digest files and
 * Certificate Transparency's signed tree heads keep a log's size outside the log): the writer posts
 * each head once its checkpoint line is forced to disk, and this anchor's own thread writes the
 * latest one posted with check-and-set, so a slow key store (Vault) never holds up the trail. At
 * start it checks that the files still reach the head last anchored ({@link TrailHeadCheck}).
 */
public final class AuditAnchor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AuditAnchor.class);
  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  /** What the anchor reports, for metrics. */
  public interface Listener {
    Listener NONE =
        new Listener() {
          @Override
          public void anchored(long nanos) {}

          @Override
          public void anchorFailed() {}

          @Override
          public void cut() {}
        };

    /** A head was written, taking {@code nanos}. */
    void anchored(long nanos);

    /** A head could not be written (the key store failed, or another writer moved it). */
    void anchorFailed();

    /** The files at start did not reach the anchored head. */
    void cut();
  }

  private final AuditStore store;
  private final String trail;
  private final boolean required;
  private final Listener listener;
  private final Optional<AuditHead> atStart;
  private final Thread thread;
  private final Object lock = new Object();

  /** Guarded by {@link #lock}: the newest head posted and not yet written. */
  private AuditHead posted;

  /** Guarded by {@link #lock}. */
  private boolean closing;

  /** Owned by the anchor's thread: the head the store holds, as far as this anchor knows. */
  private AuditHead stored;

  private AuditAnchor(AuditStore store, String trail, boolean required, Listener listener) {
    this.store = store;
    this.trail = trail;
    this.required = required;
    this.listener = listener;
    this.atStart = store.readAuditHead(trail);
    this.stored = atStart.orElse(null);
    this.thread = Thread.ofPlatform().name("cipherd-audit-anchor").daemon().unstarted(this::run);
  }

  /**
   * Reads the head of {@code trail} from {@code store} and starts the anchor's thread; with {@code
   * required}, a trail that does not reach it refuses to start.
   */
  public static AuditAnchor open(
      AuditStore store, String trail, boolean required, Listener listener) {
    AuditAnchor anchor = new AuditAnchor(store, trail, required, listener);
    anchor.thread.start();
    return anchor;
  }

  /** The trail's name, as its start lines carry it. */
  public String trail() {
    return trail;
  }

  /** The head the store held when this anchor opened. */
  Optional<AuditHead> atStart() {
    return atStart;
  }

  /**
   * Checks that the files ({@code live}, its last line {@code lastSeq}, and its rotated files)
   * reach the head anchored at start; returns the cut found, or null. A cut is logged and counted;
   * with {@code required} it throws instead, refusing to start.
   */
  TrailHeadCheck.Cut check(Path live, long lastSeq) throws IOException {
    if (atStart.isEmpty() || live == null) {
      return null;
    }
    List<Path> rotated = TrailFiles.rotatedPaths(live);
    if (TrailHeadCheck.check(atStart.get(), live, lastSeq, rotated)
        instanceof TrailHeadCheck.Cut cut) {
      String found =
          "the audit trail '"
              + trail
              + "' does not reach the head its key store anchors (seq "
              + cut.anchoredSeq()
              + ", SHA-256 "
              + cut.anchoredHash()
              + "): "
              + cut.what();
      if (required) {
        throw new IllegalStateException(
            found
                + ". Restore the missing audit lines (from a backup or the off-host copy) and"
                + " restart; or start once without --audit-required to record the cut in the trail"
                + " (a start line with \"cut\") and go on.");
      }
      log.error(
          "{}; recorded as a cut in the trail's start line (cipherd_audit_trail_cuts_total)",
          found);
      listener.cut();
      return cut;
    }
    return null;
  }

  /** Anchors {@code head} soon (latest wins); call only once its line is durable. */
  void post(AuditHead head) {
    synchronized (lock) {
      posted = head;
      lock.notifyAll();
    }
  }

  /** Writes the last head posted, then stops. */
  @Override
  public void close() throws InterruptedException {
    synchronized (lock) {
      closing = true;
      lock.notifyAll();
    }
    thread.join(Duration.ofSeconds(15));
  }

  private void run() {
    int failedWhileClosing = 0;
    while (true) {
      AuditHead next;
      synchronized (lock) {
        while (posted == null && !closing) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (posted == null) {
          return;
        }
        next = posted;
        posted = null;
      }
      boolean written = write(next);
      if (!written) {
        synchronized (lock) {
          if (posted == null) {
            posted = next; // retried unless a newer head comes first
          }
          if (closing && ++failedWhileClosing > 2) {
            log.error(
                "the audit trail '{}' stopped without anchoring its head at seq {}",
                trail,
                next.seq());
            return;
          }
          try {
            lock.wait(closing ? 100 : RETRY_AFTER.toMillis());
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
  }

  private boolean write(AuditHead next) {
    long start = System.nanoTime();
    try {
      if (store.writeAuditHead(stored, next)) {
        stored = next;
        listener.anchored(System.nanoTime() - start);
        return true;
      }
      AuditHead moved = store.readAuditHead(trail).orElse(null);
      log.error(
          "another writer moved the anchor of audit trail '{}' (to seq {}); does another server"
              + " write a trail of that name? Give each its own --audit-trail-name. Anchoring this"
              + " server's head over it.",
          trail,
          moved == null ? "none" : moved.seq());
      stored = moved;
    } catch (RuntimeException e) {
      log.error(
          "could not anchor the audit trail '{}' at seq {}: {}", trail, next.seq(), e.toString());
    }
    listener.anchorFailed();
    return false;
  }
}
