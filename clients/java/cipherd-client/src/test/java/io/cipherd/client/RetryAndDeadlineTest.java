package io.cipherd.client;

import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The builder's retry policy (grpc-java's service config) and default deadline, against a scripted
 * server on a real socket: it fails the first calls as told, or answers late. In addition to the
 * real jar's tests, since the real server cannot be told to fail on cue.
 */
class RetryAndDeadlineTest {
  private final AtomicInteger attempts = new AtomicInteger();
  private volatile int failuresLeft;
  private volatile Status failure = Status.UNAVAILABLE;
  private volatile long delayMillis;
  private Server server;

  private String start() throws Exception {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(
                new CryptoServiceGrpc.CryptoServiceImplBase() {
                  @Override
                  public void encrypt(EncryptRequest request, StreamObserver<EncryptResponse> out) {
                    attempts.incrementAndGet();
                    if (failuresLeft > 0) {
                      failuresLeft--;
                      out.onError(failure.withDescription("scripted").asRuntimeException());
                      return;
                    }
                    try {
                      Thread.sleep(delayMillis);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                    out.onNext(
                        EncryptResponse.newBuilder()
                            .setCiphertext("<demo/v1:gcm>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==")
                            .setKeyVersion(1)
                            .build());
                    out.onCompleted();
                  }
                })
            .build()
            .start();
    return "127.0.0.1:" + server.getPort();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void unavailableIsRetriedUpToMaxAttempts() throws Exception {
    String target = start();
    failuresLeft = 3;
    try (CipherdClient client = CipherdClient.builder(target).build()) {
      client.encrypt("demo", utf8("x"));
    }
    assertEquals(4, attempts.get(), "3 failures and the 4th attempt of RetryPolicy.DEFAULT");
    attempts.set(0);
    failuresLeft = 5;
    try (CipherdClient client = CipherdClient.builder(target).build()) {
      assertThrows(UnavailableException.class, () -> client.encrypt("demo", utf8("x")));
    }
    assertEquals(4, attempts.get());
  }

  @Test
  void noRetryPolicyAndNonRetryableCodesTryOnce() throws Exception {
    String target = start();
    failuresLeft = 1;
    try (CipherdClient client =
        CipherdClient.builder(target).retryPolicy(RetryPolicy.NONE).build()) {
      assertThrows(UnavailableException.class, () -> client.encrypt("demo", utf8("x")));
    }
    assertEquals(1, attempts.get());
    attempts.set(0);
    failuresLeft = 1;
    failure = Status.INVALID_ARGUMENT;
    try (CipherdClient client = CipherdClient.builder(target).build()) {
      assertThrows(InvalidArgumentException.class, () -> client.encrypt("demo", utf8("x")));
    }
    assertEquals(1, attempts.get());
  }

  @Test
  void theDefaultDeadlineEndsASlowUnaryCall() throws Exception {
    String target = start();
    delayMillis = 2000;
    try (CipherdClient client =
        CipherdClient.builder(target).defaultDeadline(Duration.ofMillis(200)).build()) {
      assertThrows(DeadlineExceededException.class, () -> client.encrypt("demo", utf8("x")));
    }
  }
}
