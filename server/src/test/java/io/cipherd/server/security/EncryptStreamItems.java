package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One EncryptStream with key {@code payments} kept open across a test, an item sent and its answer
 * awaited at a time, so that a test can change what the server trusts between two items.
 */
final class EncryptStreamItems {
  private final BlockingQueue<EncryptStreamResponse> answers = new LinkedBlockingQueue<>();
  private final CompletableFuture<Status> end = new CompletableFuture<>();
  private final StreamObserver<EncryptStreamRequest> requests;

  EncryptStreamItems(ManagedChannel channel) {
    requests =
        CryptoServiceGrpc.newStub(channel)
            .encryptStream(
                new StreamObserver<>() {
                  @Override
                  public void onNext(EncryptStreamResponse value) {
                    answers.add(value);
                  }

                  @Override
                  public void onError(Throwable t) {
                    end.complete(Status.fromThrowable(t));
                  }

                  @Override
                  public void onCompleted() {
                    end.complete(Status.OK);
                  }
                });
  }

  /** Sends the item {@code reference} and returns its answer (within 10 s, or fails the test). */
  EncryptBatchResult send(String reference) throws Exception {
    requests.onNext(
        EncryptStreamRequest.newBuilder()
            .setKeyName("payments")
            .setReference(reference)
            .setPlaintext(ByteString.copyFromUtf8("card " + reference))
            .build());
    EncryptStreamResponse answer = answers.poll(10, TimeUnit.SECONDS);
    assertThat(answer).as("answer to item %s", reference).isNotNull();
    return answer.getResult();
  }

  /** How the stream ended, once the server ends it. */
  CompletableFuture<Status> end() {
    return end;
  }

  /** Half-closes the stream and returns how the server ended it (within 10 s). */
  Status.Code complete() throws Exception {
    requests.onCompleted();
    return end.get(10, TimeUnit.SECONDS).getCode();
  }
}
