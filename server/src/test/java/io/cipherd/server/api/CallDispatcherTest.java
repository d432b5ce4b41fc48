package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every throwable closes its call. An OutOfMemoryError on the blocking pool once left a call
 * unanswered until its deadline (adversarial review, finding 3), because only RuntimeException was
 * caught.
 */
class CallDispatcherTest {
  private final ExecutorService blocking = Executors.newSingleThreadExecutor();
  private final CallDispatcher dispatcher = new CallDispatcher(blocking);

  @AfterEach
  void stop() {
    blocking.shutdownNow();
  }

  @Test
  void outOfMemoryError_onTheBlockingPool_closesTheCall_withResourceExhausted() throws Exception {
    Status status =
        answer(
            /* fromMemory= */ false,
            () -> {
              throw new OutOfMemoryError("Java heap space");
            });
    assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(status.getDescription()).doesNotContain("heap");
  }

  @Test
  void otherError_inPlace_closesTheCall_withInternal() throws Exception {
    Status status =
        answer(
            /* fromMemory= */ true,
            () -> {
              throw new StackOverflowError();
            });
    assertThat(status.getCode()).isEqualTo(Status.Code.INTERNAL);
  }

  private Status answer(boolean fromMemory, Supplier<String> work) throws Exception {
    CompletableFuture<Status> closed = new CompletableFuture<>();
    dispatcher.unary(
        fromMemory,
        new StreamObserver<String>() {
          @Override
          public void onNext(String value) {
            closed.complete(Status.OK);
          }

          @Override
          public void onError(Throwable t) {
            closed.complete(Status.fromThrowable(t));
          }

          @Override
          public void onCompleted() {}
        },
        work);
    return closed.get(5, TimeUnit.SECONDS);
  }
}
