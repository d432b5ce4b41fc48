package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.metrics.CryptoMetrics;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The server's own work per call and per batch item, without gRPC or Netty: the crypto service from
 * parsed request to built response, on the real engine, key ring, cipher pools and metrics. With
 * {@code -prof gc}, {@code gc.alloc.rate.norm} is what cipherd allocates per Encrypt call and per
 * batch or stream item (batch and stream benchmarks are scored per item); subtract {@code
 * bench.JceGcmFloorBenchmark} to see what is ours rather than the JDK's. In this package because
 * the service's constructor is package-private.
 *
 * <p>{@code make bench BENCH_ARGS='CryptoCallsBenchmark -prof gc'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class CryptoCallsBenchmark {
  /** The batch size of the load-test targets. */
  static final int ITEMS = 256;

  CipherPools pools;
  ItemStreams streams;
  CryptoServiceImpl service;
  EncryptRequest encrypt;
  EncryptBatchRequest encryptBatch;
  byte[] reEncryptBatchBytes;
  byte[] decryptBatchBytes;
  EncryptStreamRequest[] encryptStream;
  ReEncryptStreamRequest[] reEncryptStream;
  Sink sink;

  @Setup(Level.Trial)
  public void setUp(Blackhole blackhole) {
    Keys keyRing = Keys.over(new InMemoryKeyStore(), Clock.systemUTC());
    keyRing.create("demo", KeyTemplate.of(CipherMode.GCM));
    pools = new CipherPools(CipherPoolConfig.DEFAULT);
    streams = new ItemStreams(Duration.ofSeconds(60));
    CryptoEngine engine =
        new CryptoEngine(
            keyRing.cache(),
            pools,
            Authorizer.ALLOW_ALL,
            new CryptoMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), false));
    service =
        new CryptoServiceImpl(
            engine,
            new CallDispatcher(Runnable::run),
            new RequestLimits(1000),
            new PlaintextLimit(4 * 1024 * 1024),
            streams);
    sink = new Sink(blackhole);

    byte[] plaintext = new byte[100];
    Arrays.fill(plaintext, (byte) 'D');
    encrypt =
        EncryptRequest.newBuilder()
            .setKeyName("demo")
            .setPlaintext(ByteString.copyFrom(plaintext))
            .build();
    EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName("demo");
    for (int i = 0; i < ITEMS; i++) {
      batch
          .addItemsBuilder()
          .setReference(Integer.toString(i))
          .setPlaintext(ByteString.copyFrom(plaintext));
    }
    encryptBatch = reparsed(batch.build());
    // v1 ciphertexts rewrapped to v2, as after a rotation.
    ReEncryptBatchRequest.Builder rewrap = ReEncryptBatchRequest.newBuilder();
    DecryptBatchRequest.Builder decrypt = DecryptBatchRequest.newBuilder();
    EncryptBatchResponse v1 =
        new BatchItems(engine, new PlaintextLimit(4 * 1024 * 1024)).encrypt(encryptBatch);
    for (EncryptBatchResult result : v1.getResultsList()) {
      rewrap
          .addItemsBuilder()
          .setReference(result.getReference())
          .setCiphertextBytes(result.getCiphertextBytes());
      decrypt
          .addItemsBuilder()
          .setReference(result.getReference())
          .setCiphertextBytes(result.getCiphertextBytes());
    }
    decryptBatchBytes = decrypt.build().toByteArray();
    encryptStream = new EncryptStreamRequest[ITEMS];
    reEncryptStream = new ReEncryptStreamRequest[ITEMS];
    for (int i = 0; i < ITEMS; i++) {
      encryptStream[i] =
          reparsed(
              EncryptStreamRequest.newBuilder()
                  .setReference(Integer.toString(i))
                  .setKeyName("demo")
                  .setPlaintext(ByteString.copyFrom(plaintext))
                  .build());
      reEncryptStream[i] =
          reparsed(
              ReEncryptStreamRequest.newBuilder()
                  .setReference(Integer.toString(i))
                  .setCiphertextBytes(v1.getResults(i).getCiphertextBytes())
                  .build());
    }
    keyRing.rotate("demo", KeyTemplate.defaults());
    reEncryptBatchBytes = rewrap.build().toByteArray();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    streams.close();
    pools.close();
  }

  @Benchmark
  public void encrypt() {
    service.encrypt(encrypt, sink.typed());
  }

  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void encryptBatch() {
    service.encryptBatch(encryptBatch, sink.typed());
  }

  /**
   * Rewraps a freshly parsed copy of the same request each time, as gRPC hands the service a new
   * message per call: its ciphertexts arrive as Strings, and what the service derives from them
   * (e.g. {@code getCiphertextBytes()}, memoised per message) is paid per call. Subtract {@link
   * #reEncryptBatchParseOnly} for the service's own share.
   */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void reEncryptBatch() throws InvalidProtocolBufferException {
    service.reEncryptBatch(ReEncryptBatchRequest.parseFrom(reEncryptBatchBytes), sink.typed());
  }

  /**
   * One EncryptStream of {@value #ITEMS} items through the real {@link ItemStream}, opened and
   * completed each time, on a call that is always ready: the stream's own work per item, its share
   * of opening the stream included.
   */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void encryptStream() {
    StreamObserver<EncryptStreamRequest> requests = service.encryptStream(sink.call());
    for (EncryptStreamRequest request : encryptStream) {
      requests.onNext(request);
    }
    requests.onCompleted();
  }

  /**
   * As {@link #encryptStream}, rewrapping v1 ciphertexts to v2 (two key versions per item, which is
   * where keeping a cipher per key matters). The requests are parsed once, so unlike {@link
   * #reEncryptBatch} no per-call parse is included.
   */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void reEncryptStream() {
    StreamObserver<ReEncryptStreamRequest> requests = service.reEncryptStream(sink.call());
    for (ReEncryptStreamRequest request : reEncryptStream) {
      requests.onNext(request);
    }
    requests.onCompleted();
  }

  /** As {@link #reEncryptBatch}, decrypting: a freshly parsed request per call. */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void decryptBatch() throws InvalidProtocolBufferException {
    service.decryptBatch(DecryptBatchRequest.parseFrom(decryptBatchBytes), sink.typed());
  }

  /** Only the parse of {@link #reEncryptBatch}'s request: protobuf's share, per item. */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public Object reEncryptBatchParseOnly() throws InvalidProtocolBufferException {
    return ReEncryptBatchRequest.parseFrom(reEncryptBatchBytes);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Message> T reparsed(T message) {
    try {
      return (T) message.getParserForType().parseFrom(message.toByteArray());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Swallows responses into the blackhole; fails loudly on an error, which would skew the figures.
   */
  static final class Sink implements StreamObserver<Object> {
    private final Blackhole blackhole;

    Sink(Blackhole blackhole) {
      this.blackhole = blackhole;
    }

    @SuppressWarnings("unchecked")
    <T> StreamObserver<T> typed() {
      return (StreamObserver<T>) (StreamObserver<?>) this;
    }

    /** A stream call that is always ready and never cancelled, answering into this sink. */
    <T> ServerCallStreamObserver<T> call() {
      return new ReadyCall<T>(this);
    }

    @Override
    public void onNext(Object value) {
      blackhole.consume(value);
    }

    @Override
    public void onError(Throwable t) {
      throw new IllegalStateException("call failed", t);
    }

    @Override
    public void onCompleted() {}
  }
}
