package io.cipherd.server.api;

import com.google.common.util.concurrent.MoreExecutors;
import io.cipherd.server.engine.CryptoEngine;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;

/**
 * One item stream call (EncryptStream, DecryptStream, ReEncryptStream, and the format-preserving
 * service's three): one response per request, in request order, each the item's own result or
 * error, with flow control both ways. It asks the client for a few messages at a time and asks for
 * more only while the client keeps reading responses, so a fast writer or a slow reader cannot make
 * the server buffer without bound.
 *
 * <p>Items that need only cached keys run on the transport thread. From the first item that may
 * block on the key store, every later item and the end of the stream go through one sequential
 * executor on the blocking pool, which keeps the order.
 *
 * <p>When the sequential executor comes to an item that no earlier look covered, the keys of that
 * item and of every item queued behind it are readied together ({@link StreamItemKind#prefetch}): a
 * stream of items over cold subjects costs a store round trip per run of queued items (up to the
 * window), not one per item. If that round trip fails (a stalled or unreachable subject store), the
 * run's items that need the store fail with its error at once, as a batch's do, rather than each
 * waiting for the store in turn; the next run asks the store again.
 *
 * <p>Items run one at a time on a {@link StreamLease}, which holds pooled ciphers only while items
 * keep coming; it is closed when the stream ends however it ends.
 *
 * <p>A stream that received no item for {@link ItemStreams#idleTimeout()}, with none left to
 * answer, is closed with CANCELLED (the server stopped waiting; nothing failed or timed out on its
 * side), every item it received answered before the status.
 *
 * <p>On shutdown ({@link ItemStreams#drain}) it answers what it received and ends with UNAVAILABLE.
 */
final class ItemStream<Q, R> implements StreamObserver<Q> {
  /** Requests the client may have in flight before the server asks for more. */
  private static final int WINDOW = 16;

  private final CryptoEngine engine;
  private final StreamLease lease;
  private final Executor blocking;
  private final ItemStreams streams;
  private final StreamItemKind<Q, R> items;
  private final ServerCallStreamObserver<R> responses;

  /** May be held while taking the lease's lock, never the other way round. */
  private final Object lock = new Object();

  private Executor sequential;

  /** Items queued on the sequential executor whose keys no prefetch has readied yet. */
  private List<Q> unprefetched = new ArrayList<>();

  /** Messages answered while the client was not reading, to be asked for again once it reads. */
  private int owed;

  private boolean done;

  /** The client sent its last item: the stream ends once that is answered, not for idleness. */
  private boolean halfClosed;

  /** The server is shutting down: the stream ends once what it received is answered. */
  private boolean draining;

  /** Items received, and items answered: the difference is queued or being worked on. */
  private long received;

  private long answered;

  /** The next idleness check; null once the scheduler is shut down. */
  private ScheduledFuture<?> idleCheck;

  ItemStream(
      CryptoEngine engine,
      Executor blocking,
      ItemStreams streams,
      StreamItemKind<Q, R> items,
      ServerCallStreamObserver<R> responses) {
    this.engine = engine;
    this.items = items;
    this.lease = new StreamLease(engine, streams);
    this.blocking = blocking;
    this.streams = streams;
    this.responses = responses;
    responses.disableAutoRequest();
    responses.setOnReadyHandler(this::onReady);
    responses.setOnCancelHandler(this::abandon);
    synchronized (lock) {
      idleCheck = streams.schedule(this::checkIdle, streams.idleTimeoutNanos());
    }
    responses.request(WINDOW);
    // Last: a drain that began meanwhile ends the stream at once, its call fully set up.
    streams.opened(this, items.method());
  }

  @Override
  public void onNext(Q request) {
    ParsedRequest parsed = ParsedRequest.of(request);
    Executor offload;
    synchronized (lock) {
      received++;
      offload = offloadFor(parsed);
      if (offload != null) {
        unprefetched.add(request);
      }
    }
    if (offload == null) {
      answer(request, parsed);
    } else {
      run(offload, () -> answer(request, parsed));
    }
  }

  @Override
  public void onError(Throwable t) {
    abandon();
  }

  @Override
  public void onCompleted() {
    Executor offload;
    synchronized (lock) {
      halfClosed = true;
      offload = sequential;
    }
    if (offload == null) {
      finish();
    } else {
      run(offload, this::finish);
    }
  }

  /** Null to answer in place, else the sequential executor (made on first need); holds lock. */
  private Executor offloadFor(ParsedRequest request) {
    if (sequential == null) {
      if (request.fromMemory(engine.keys())) {
        return null;
      }
      sequential = MoreExecutors.newSequentialExecutor(blocking);
    }
    return sequential;
  }

  private void run(Executor executor, Runnable work) {
    try {
      executor.execute(work);
    } catch (RejectedExecutionException e) {
      boolean ended = end(/* idle= */ false);
      lease.close();
      if (ended) {
        CallDispatcher.closeWithError(responses, e);
      }
    }
  }

  private void answer(Q request, ParsedRequest parsed) {
    List<Q> queued;
    synchronized (lock) {
      if (done) {
        return;
      }
      // Only an item no earlier look covered: then it heads the list, and all queued behind it
      // join it. An item already covered takes none, so the next uncovered one finds them all.
      queued = unprefetched;
      if (!queued.isEmpty() && queued.get(0) == request) {
        unprefetched = new ArrayList<>();
      } else {
        queued = List.of();
      }
    }
    if (!queued.isEmpty()) {
      try {
        lease.prefetch(items, queued);
      } catch (RuntimeException e) {
        // Only a warm-up: each item meets its own error when it is answered.
      }
    }
    R response;
    try {
      response = lease.answer(items, request, parsed);
    } catch (Throwable e) {
      // Items answer their own errors: an Error (OutOfMemoryError) ends the stream, not the wait.
      boolean ended = end(/* idle= */ false);
      lease.close();
      if (ended) {
        CallDispatcher.closeWithError(responses, e);
      }
      return;
    }
    try {
      responses.onNext(response);
    } catch (StatusRuntimeException cancelled) {
      return;
    }
    askForMore();
  }

  /** Counts the item as answered; asks for the next if the client reads, unless drained. */
  private void askForMore() {
    boolean drained;
    long count;
    synchronized (lock) {
      count = ++answered;
      drained = draining;
      if (drained) {
        if (done || halfClosed || answered < received) {
          return;
        }
        done = true;
      } else if (!responses.isReady()) {
        owed++;
        return;
      }
    }
    if (drained) {
      closeEnded(/* idle= */ false, ItemStreams.shuttingDown(count));
      return;
    }
    responses.request(1);
  }

  private void onReady() {
    int ask;
    synchronized (lock) {
      ask = responses.isReady() && !draining ? owed : 0;
      owed -= ask;
    }
    if (ask > 0) {
      responses.request(ask);
    }
  }

  /**
   * On the shared scheduler: closes the stream if it has nothing left to answer and its lease was
   * not used for the idle timeout, else looks again when that could be so. Deciding under the lock
   * that items are received and answered under keeps every received item answered before the close.
   */
  private void checkIdle() {
    long timeout = streams.idleTimeoutNanos();
    synchronized (lock) {
      if (done || halfClosed) {
        return;
      }
      if (answered < received) {
        // An item is queued or being answered (perhaps waiting for the key store): not idle.
        idleCheck = streams.schedule(this::checkIdle, timeout);
        return;
      }
      // No item can be using the lease now, so this does not wait. The lease sees an item only once
      // it is answered, so its quiet time is never longer than the stream's.
      long quiet = System.nanoTime() - lease.quietSinceNanos();
      if (quiet < timeout) {
        idleCheck = streams.schedule(this::checkIdle, timeout - quiet);
        return;
      }
      done = true;
    }
    closeEnded(/* idle= */ true, streams.idle());
  }

  /**
   * The server is shutting down: asks for no more items and ends with UNAVAILABLE once every item
   * received is answered ({@link #askForMore}); one already half-closed by its client finishes.
   */
  void drain() {
    synchronized (lock) {
      if (done || draining) {
        return;
      }
      draining = true;
      if (halfClosed || answered < received) {
        return;
      }
      done = true;
    }
    closeEnded(/* idle= */ false, ItemStreams.shuttingDown(received));
  }

  /** After the one change to done: ends the call with {@code error}. */
  private void closeEnded(boolean idle, Throwable error) {
    ended(idle);
    lease.close();
    CallDispatcher.closeWithError(responses, error);
  }

  /** The client cancelled or the transport failed: nobody is left to answer. */
  private void abandon() {
    end(/* idle= */ false);
    lease.close();
  }

  /** Marks the stream ended, once; false if it had ended already. */
  private boolean end(boolean idle) {
    synchronized (lock) {
      if (done) {
        return false;
      }
      done = true;
    }
    ended(idle);
    return true;
  }

  /** What follows the one change to done: the stream is no longer open, nor timed. */
  private void ended(boolean idle) {
    ScheduledFuture<?> check;
    synchronized (lock) {
      check = idleCheck;
    }
    if (check != null) {
      check.cancel(/* mayInterruptIfRunning= */ false);
    }
    streams.closed(this, items.method(), idle);
  }

  private void finish() {
    lease.close();
    if (!end(/* idle= */ false)) {
      return;
    }
    try {
      responses.onCompleted();
    } catch (StatusRuntimeException cancelled) {
      // The client went away first.
    }
  }
}
