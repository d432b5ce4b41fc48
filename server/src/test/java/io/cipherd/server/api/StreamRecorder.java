package io.cipherd.server.api;

import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Collects a server stream's responses in arrival order and waits for its end. */
public final class StreamRecorder<T> implements StreamObserver<T> {
  private final List<T> values = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  @Override
  public void onNext(T value) {
    values.add(value);
  }

  @Override
  public void onError(Throwable t) {
    done.completeExceptionally(t);
  }

  @Override
  public void onCompleted() {
    done.complete(null);
  }

  /** The responses received so far, in arrival order. */
  public List<T> values() {
    return values;
  }

  /**
   * Every response, once the stream completed within {@code seconds}; throws if it failed or timed
   * out.
   */
  public List<T> awaitValues(long seconds) throws Exception {
    done.get(seconds, TimeUnit.SECONDS);
    return values;
  }
}
