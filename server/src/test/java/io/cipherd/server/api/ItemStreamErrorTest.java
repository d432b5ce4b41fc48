package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every throwable closes its call, streams included: an Error escaping an item (items answer their
 * own exceptions) ends the stream with a status instead of leaving it open (adversarial review, finding 3).
 */
class ItemStreamErrorTest {
  private final Keys keys = Keys.over(new InMemoryKeyStore());
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final ItemStreams streams = new ItemStreams(Duration.ofMinutes(1));
  private final CryptoEngine engine = new CryptoEngine(keys.cache(), pools, Authorizer.ALLOW_ALL, CryptoObserver.NONE);

  @AfterEach
  void close() {
    streams.close();
    pools.close();
    keys.close();
  }

  @Test
  void errorInAnItem_endsTheStream_withInternal() {
    RecordingResponses responses = new RecordingResponses();
    ItemStream<String, String> stream = new ItemStream<>(engine, Runnable::run, streams, new ItemStream.Items<>() {
      @Override
      public String method() {
        return "EncryptStream";
      }

      @Override
      public boolean fromMemory(CryptoEngine engine, String request) {
        return true;
      }

      @Override
      public String answer(CryptoEngine engine, String request) {
        if (request.equals("boom")) {
          // An Error, not an exception (an OutOfMemoryError would abort the test runner if it escaped).
          throw new StackOverflowError();
        }
        return "answer to " + request;
      }
    }, responses);

    stream.onNext("first");
    stream.onNext("boom");
    stream.onNext("after");

    assertThat(responses.values).containsExactly("answer to first");
    assertThat(responses.error).isNotNull();
    assertThat(Status.fromThrowable(responses.error).getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(streams.open("EncryptStream")).isZero();
  }

  /** The server side of a call, recording what the stream sends. */
  private static final class RecordingResponses extends ServerCallStreamObserver<String> {
    final List<String> values = new ArrayList<>();
    Throwable error;

    @Override
    public void onNext(String value) {
      values.add(value);
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onCompleted() {}

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {}

    @Override
    public void setCompression(String compression) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {}

    @Override
    public void request(int count) {}

    @Override
    public void setMessageCompression(boolean enable) {}

    @Override
    public void disableAutoInboundFlowControl() {}

    @Override
    public void disableAutoRequest() {}
  }
}
