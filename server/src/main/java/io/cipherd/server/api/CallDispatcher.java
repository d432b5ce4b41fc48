package io.cipherd.server.api;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Decides where a unary call's work runs. The server uses a direct executor, so calls start on a
 * transport thread: work that needs only cached keys (sub-microsecond crypto) finishes there, and
 * work that may block on the key store moves to a bounded pool so it never stalls an event loop.
 */
final class CallDispatcher {
  private final Executor blocking;

  /**
   * {@code blocking} must carry the call's gRPC Context (caller identity, deadline) and request id
   * to its threads, as {@code logging.CallContextExecutor.propagating} does.
   */
  CallDispatcher(Executor blocking) {
    this.blocking = blocking;
  }

  /**
   * Answers the call with {@code work}'s result, in place if {@code fromMemory}, else on the
   * blocking pool.
   */
  <T> void unary(boolean fromMemory, StreamObserver<T> observer, Supplier<T> work) {
    if (fromMemory) {
      complete(observer, work);
    } else {
      unaryOnBlockingPool(observer, work);
    }
  }

  /**
   * Answers the call with {@code work}'s result on the blocking pool: for work that may reach the
   * key store.
   */
  <T> void unaryOnBlockingPool(StreamObserver<T> observer, Supplier<T> work) {
    try {
      blocking.execute(() -> complete(observer, work));
    } catch (RejectedExecutionException e) {
      closeWithError(observer, e);
    }
  }

  /** The pool for work that may block. */
  Executor blocking() {
    return blocking;
  }

  private static <T> void complete(StreamObserver<T> observer, Supplier<T> work) {
    T result;
    try {
      result = work.get();
    } catch (Throwable e) {
      // Every throwable, not just RuntimeException: an Error (OutOfMemoryError, StackOverflowError)
      // thrown on the blocking pool would otherwise leave the call unanswered until its deadline.
      closeWithError(observer, e);
      return;
    }
    try {
      observer.onNext(result);
      observer.onCompleted();
    } catch (StatusRuntimeException cancelled) {
      // The client went away; there is nobody left to answer.
    }
  }

  static void closeWithError(StreamObserver<?> observer, Throwable error) {
    try {
      observer.onError(StatusMapper.toException(error));
    } catch (StatusRuntimeException cancelled) {
      // The client went away; there is nobody left to answer.
    }
  }
}
