package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.logging.LogFormat;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * max_encryptions_per_version is a cap whatever the call shape, on a real server over a real
 * socket: no version ever makes more ciphertexts than its cap, a batch or stream past it goes on
 * under the versions its key rotates to, and a pinned version past it refuses each item.
 */
@Timeout(120)
class EncryptionCapSocketTest {
  private static final int CAP = 3;

  @TempDir Path dataDir;
  private CipherdServer server;
  private ManagedChannel channel;
  private CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
  private KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin;

  @BeforeEach
  void start() throws Exception {
    ServerConfig config =
        ServerConfig.builder()
            .port(0)
            .dataDir(dataDir)
            .keyStorePassword(TestServers.PASSWORD)
            .limits(new RequestLimits(1_000))
            .shutdownGrace(Duration.ofSeconds(2))
            .build();
    server =
        TestServers.start(
            config,
            new ObservabilityConfig(0, LogFormat.TEXT, false),
            TestServers.services(config).build());
    channel = TestServers.channel(server);
    crypto = CryptoServiceGrpc.newBlockingStub(channel);
    admin = KeyAdminServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.close();
  }

  @Test
  void oneBatchOf1000_makesExactlyTheCapUnderEachVersion_andNoItemIsLost() {
    createCapped("orders", CAP);

    List<EncryptBatchResult> results = crypto.encryptBatch(batch("orders", 1_000)).getResultsList();

    assertThat(results).hasSize(1_000).allMatch(EncryptBatchResult::hasCiphertext);
    Map<Integer, Integer> perVersion = perVersion(ciphertexts(results));
    assertThat(perVersion.get(1)).as("ciphertexts under v1").isEqualTo(CAP);
    assertThat(perVersion.values()).allMatch(n -> n <= CAP);
    assertThat(perVersion.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(1_000);
  }

  @Test
  void sixConcurrentBatches_neverPassTheCapOfAnyVersion() throws Exception {
    createCapped("orders", CAP);

    List<String> all = new ArrayList<>();
    for (List<EncryptBatchResult> results :
        concurrently(6, () -> crypto.encryptBatch(batch("orders", 30)).getResultsList())) {
      assertThat(results).hasSize(30).allMatch(EncryptBatchResult::hasCiphertext);
      all.addAll(ciphertexts(results));
    }

    Map<Integer, Integer> perVersion = perVersion(all);
    assertThat(perVersion.get(1)).isEqualTo(CAP);
    assertThat(perVersion.values()).allMatch(n -> n <= CAP);
    assertThat(all).hasSize(180).doesNotHaveDuplicates();
  }

  @Test
  void anEncryptStream_neverPassesTheCapOfAnyVersion() throws Exception {
    createCapped("orders", CAP);
    StreamRecorder<EncryptStreamResponse> responses = new StreamRecorder<>();
    StreamObserver<EncryptStreamRequest> requests =
        CryptoServiceGrpc.newStub(channel).encryptStream(responses);
    for (int i = 0; i < 100; i++) {
      requests.onNext(
          EncryptStreamRequest.newBuilder()
              .setReference("r" + i)
              .setKeyName("orders")
              .setPlaintext(ByteString.copyFromUtf8("item " + i))
              .build());
    }
    requests.onCompleted();

    List<EncryptBatchResult> results =
        responses.awaitValues(60).stream().map(EncryptStreamResponse::getResult).toList();

    assertThat(results).hasSize(100).allMatch(EncryptBatchResult::hasCiphertext);
    Map<Integer, Integer> perVersion = perVersion(ciphertexts(results));
    assertThat(perVersion.get(1)).isEqualTo(CAP);
    assertThat(perVersion.values()).allMatch(n -> n <= CAP);
  }

  @Test
  void concurrentUnaryCalls_pinnedToAVersion_getExactlyItsCap_andTheRestAreRefusedOneByOne()
      throws Exception {
    createCapped("orders", 50);
    admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("orders").build());

    List<Integer> madePerThread =
        concurrently(
            8,
            () -> {
              int made = 0;
              for (int i = 0; i < 20; i++) {
                try {
                  crypto.encrypt(
                      EncryptRequest.newBuilder()
                          .setKeyName("orders")
                          .setKeyVersion(1)
                          .setPlaintext(ByteString.copyFromUtf8("pinned"))
                          .build());
                  made++;
                } catch (StatusRuntimeException e) {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                  assertThat(reason(e)).isEqualTo("POLICY_DENIED");
                  assertThat(e.getStatus().getDescription())
                      .contains("version 1 of key 'orders' has reached its limit of 50");
                }
              }
              return made;
            });

    assertThat(madePerThread.stream().mapToInt(Integer::intValue).sum()).isEqualTo(50);
    assertThat(
            admin
                .getKey(GetKeyRequest.newBuilder().setKeyName("orders").build())
                .getKey()
                .getCurrentVersion())
        .as("a pinned version at its cap rotates nothing")
        .isEqualTo(2);
  }

  @Test
  void concurrentUnaryCalls_onTheCurrentVersion_rotateAtTheCap_andNeverPassIt() throws Exception {
    createCapped("orders", 5);

    List<String> all = new ArrayList<>();
    for (List<String> made :
        concurrently(
            8,
            () -> {
              List<String> mine = new ArrayList<>();
              for (int i = 0; i < 10; i++) {
                mine.add(
                    crypto
                        .encrypt(
                            EncryptRequest.newBuilder()
                                .setKeyName("orders")
                                .setPlaintext(ByteString.copyFromUtf8("current"))
                                .build())
                        .getCiphertext());
              }
              return mine;
            })) {
      all.addAll(made);
    }

    Map<Integer, Integer> perVersion = perVersion(all);
    assertThat(all).hasSize(80);
    assertThat(perVersion.values()).allMatch(n -> n <= 5);
    assertThat(perVersion).hasSize(16);
  }

  @Test
  void aPinnedVersionAtItsCap_refusesAgain_afterARestart() {
    createCapped("orders", CAP);
    assertThat(perVersion(ciphertexts(crypto.encryptBatch(batch("orders", CAP)).getResultsList())))
        .containsExactly(Map.entry(1, CAP));
    admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("orders").build());
    channel.shutdownNow();
    server.close();

    assertThatThrownBy(
            () -> {
              start();
              crypto.encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("orders")
                      .setKeyVersion(1)
                      .setPlaintext(ByteString.copyFromUtf8("after restart"))
                      .build());
            })
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("has reached its limit of 3");
  }

  private void createCapped(String name, long cap) {
    admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName(name)
            .setPolicy(KeyPolicy.newBuilder().setMaxEncryptionsPerVersion(cap))
            .build());
  }

  private static EncryptBatchRequest batch(String key, int items) {
    EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName(key);
    for (int i = 0; i < items; i++) {
      batch.addItems(
          EncryptBatchItem.newBuilder()
              .setReference("r" + i)
              .setPlaintext(ByteString.copyFromUtf8("item " + i)));
    }
    return batch.build();
  }

  private static List<String> ciphertexts(List<EncryptBatchResult> results) {
    return results.stream().map(EncryptBatchResult::getCiphertext).toList();
  }

  /** How many ciphertexts each version made. */
  private static Map<Integer, Integer> perVersion(List<String> ciphertexts) {
    Map<Integer, Integer> counts = new TreeMap<>();
    for (String ciphertext : ciphertexts) {
      int version =
          Integer.parseInt(
              ciphertext.substring(ciphertext.indexOf("/v") + 2, ciphertext.indexOf(':')));
      counts.merge(version, 1, Integer::sum);
    }
    return counts;
  }

  private static String reason(StatusRuntimeException e) throws Exception {
    for (Any detail : StatusProto.fromThrowable(e).getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        return detail.unpack(ErrorInfo.class).getReason();
      }
    }
    return "";
  }

  /** Runs {@code calls} copies of {@code call} at once; their results. */
  private static <T> List<T> concurrently(int calls, Callable<T> call) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(calls);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        futures.add(
            threads.submit(
                () -> {
                  go.await();
                  return call.call();
                }));
      }
      go.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get());
      }
      return results;
    } finally {
      threads.shutdownNow();
    }
  }
}
