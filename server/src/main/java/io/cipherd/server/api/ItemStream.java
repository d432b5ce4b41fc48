package io.cipherd.server.api;

import com.google.common.util.concurrent.MoreExecutors;
import io.cipherd.server.engine.CryptoEngine;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.Executor;

/**
 * One item stream call (EncryptStream, DecryptStream, ReEncryptStream): one response per request,
 * in request order, each the item's own result or error, with flow control both
 * ways. It asks the client for a few messages at a time and asks for more only while the client
 * keeps reading responses, so a fast writer or a slow reader cannot make the server buffer without
 * bound.
 *
 * <p>Items that need only cached keys run on the transport thread. From the first item that may
 * block on the key store, every later item and the end of the stream go through one sequential
 * executor on the blocking pool, which keeps the order.
 *
 * <p>Like a batch, the stream holds one lease on the cipher pools for its whole life rather than
 * borrowing per item. Items run one at a time; the lease is closed exactly once, under the lock
 * items hold, when the stream ends however it ends, so a cancellation never returns a cipher to the
 * pools while an item still uses it.
 */
final class ItemStream<Q, R> implements StreamObserver<Q> {
  /** What one kind of stream does with an item. */
  interface Items<Q, R> {
    /** Whether {@code request} needs only cached keys, so it may be answered on the transport thread. */
    boolean fromMemory(CryptoEngine engine, Q request);

    /** The item's response, its result or its error: never throws for a bad item. */
    R answer(CryptoEngine engine, Q request);
  }

  /** Requests the client may have in flight before the server asks for more. */
  private static final int WINDOW = 16;

  private final CryptoEngine engine;
  private final CryptoEngine.Leased leased;
  /** Held while an item uses the lease and while the lease is closed. */
  private final Object leaseLock = new Object();
  private boolean leaseClosed;
  private final Executor blocking;
  private final Items<Q, R> items;
  private final ServerCallStreamObserver<R> responses;
  private final Object lock = new Object();
  private Executor sequential;
  /** Messages answered while the client was not reading, to be asked for again once it reads. */
  private int owed;
  private boolean done;

  ItemStream(CryptoEngine engine, Executor blocking, Items<Q, R> items, ServerCallStreamObserver<R> responses) {
    this.engine = engine;
    this.items = items;
    this.leased = engine.lease();
    this.blocking = blocking;
    this.responses = responses;
    responses.disableAutoRequest();
    responses.setOnReadyHandler(this::onReady);
    responses.setOnCancelHandler(() -> {
      synchronized (lock) {
        done = true;
      }
      closeLease();
    });
    responses.request(WINDOW);
  }

  @Override
  public void onNext(Q request) {
    Executor offload = offloadFor(request);
    if (offload == null) {
      answer(request);
    } else {
      run(offload, () -> answer(request));
    }
  }

  @Override
  public void onError(Throwable t) {
    synchronized (lock) {
      done = true;
    }
    closeLease();
  }

  @Override
  public void onCompleted() {
    Executor offload;
    synchronized (lock) {
      offload = sequential;
    }
    if (offload == null) {
      finish();
    } else {
      run(offload, this::finish);
    }
  }

  /** Null to answer in place; otherwise the sequential executor, created on first need. */
  private Executor offloadFor(Q request) {
    synchronized (lock) {
      if (sequential == null) {
        if (items.fromMemory(engine, request)) {
          return null;
        }
        sequential = MoreExecutors.newSequentialExecutor(blocking);
      }
      return sequential;
    }
  }

  private void run(Executor executor, Runnable work) {
    try {
      executor.execute(work);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      synchronized (lock) {
        done = true;
      }
      closeLease();
      CallDispatcher.closeWithError(responses, e);
    }
  }

  private void answer(Q request) {
    synchronized (lock) {
      if (done) {
        return;
      }
    }
    R response;
    synchronized (leaseLock) {
      // After the lease is closed (the stream ended meanwhile), an item borrows per operation.
      CryptoEngine current = leaseClosed ? engine : leased.engine();
      response = items.answer(current, request);
    }
    try {
      responses.onNext(response);
    } catch (StatusRuntimeException cancelled) {
      return;
    }
    askForMore();
  }

  private void askForMore() {
    synchronized (lock) {
      if (!responses.isReady()) {
        owed++;
        return;
      }
    }
    responses.request(1);
  }

  private void onReady() {
    int ask;
    synchronized (lock) {
      ask = responses.isReady() ? owed : 0;
      owed -= ask;
    }
    if (ask > 0) {
      responses.request(ask);
    }
  }

  /** Returns the leased ciphers to the pools, once, never while an item uses them. */
  private void closeLease() {
    synchronized (leaseLock) {
      if (!leaseClosed) {
        leaseClosed = true;
        leased.close();
      }
    }
  }

  private void finish() {
    closeLease();
    synchronized (lock) {
      if (done) {
        return;
      }
      done = true;
    }
    try {
      responses.onCompleted();
    } catch (StatusRuntimeException cancelled) {
      // The client went away first.
    }
  }
}
