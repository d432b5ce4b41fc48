package io.cipherd.client;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** A future stub's ListenableFuture as a CompletableFuture failing with a CipherdException. */
final class Futures {
  private Futures() {}

  static <R, T> CompletableFuture<T> of(ListenableFuture<R> call, Function<R, T> convert) {
    CompletableFuture<T> result =
        new CompletableFuture<>() {
          @Override
          public boolean cancel(boolean mayInterruptIfRunning) {
            call.cancel(mayInterruptIfRunning);
            return super.cancel(mayInterruptIfRunning);
          }
        };
    com.google.common.util.concurrent.Futures.addCallback(
        call,
        new FutureCallback<R>() {
          @Override
          public void onSuccess(R response) {
            try {
              result.complete(convert.apply(response));
            } catch (RuntimeException e) {
              result.completeExceptionally(e);
            }
          }

          @Override
          public void onFailure(Throwable failure) {
            result.completeExceptionally(Errors.fromGrpc(failure));
          }
        },
        MoreExecutors.directExecutor());
    return result;
  }
}
