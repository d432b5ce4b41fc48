package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every throwable closes its call, streams included: an Error escaping an item (items answer their
 * own exceptions) ends the stream with a status instead of leaving it open (adversarial review,
 * finding 3).
 */
class ItemStreamErrorTest {
  private final Keys keys = Keys.over(new InMemoryKeyStore());
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final ItemStreams streams = new ItemStreams(Duration.ofMinutes(1));
  private final CryptoEngine engine =
      new CryptoEngine(keys.cache(), pools, Authorizer.ALLOW_ALL, CryptoObserver.NONE);

  @AfterEach
  void close() {
    streams.close();
    pools.close();
    keys.close();
  }

  @Test
  void errorInAnItem_endsTheStream_withInternal() {
    StreamRecorder<String> answers = new StreamRecorder<>();
    ItemStream<String, String> stream =
        new ItemStream<>(
            engine,
            Runnable::run,
            streams,
            new StreamItemKind<>() {
              @Override
              public String method() {
                return "EncryptStream";
              }

              @Override
              public String answer(CryptoEngine engine, String request, ParsedRequest parsed) {
                if (request.equals("boom")) {
                  // An Error, not an exception (an OutOfMemoryError would abort the test runner if
                  // it escaped).
                  throw new StackOverflowError();
                }
                return "answer to " + request;
              }
            },
            new ReadyCall<>(answers));

    stream.onNext("first");
    stream.onNext("boom");
    stream.onNext("after");

    assertThat(answers.values()).containsExactly("answer to first");
    assertThatThrownBy(() -> answers.awaitValues(1))
        .isInstanceOfSatisfying(
            ExecutionException.class,
            e ->
                assertThat(Status.fromThrowable(e.getCause()).getCode())
                    .isEqualTo(Status.Code.INTERNAL));
    assertThat(streams.open("EncryptStream")).isZero();
  }
}
