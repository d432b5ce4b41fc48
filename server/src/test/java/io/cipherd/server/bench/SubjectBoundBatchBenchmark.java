package io.cipherd.server.bench;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.server.Cipherd;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What binding data to subjects costs per batch item, against plain gcm, through the whole server
 * in this JVM (the gRPC in-process transport, the same services, engine and pools, a subject store
 * in memory): EncryptBatch and DecryptBatch of 256 items of 100 bytes under one gcm key, plain and
 * bound to warm subjects: each item its own ({@code subjects} 256, the side-by-side's shape), or 16
 * subjects of 16 items each, in order (a batch of 16 people's records of 16 fields). Scored per
 * item; the plain methods do not depend on {@code subjects}. The side-by-side measures the same
 * shapes over real sockets; this one leaves out the network and h2load, so that its ratio holds on
 * a busy machine.
 *
 * <p>{@code make bench BENCH_ARGS='SubjectBoundBatchBenchmark'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class SubjectBoundBatchBenchmark {
  private static final int ITEMS = 256;
  private static final String KEY = "bench";

  /** How many subjects a batch's items belong to, in runs of equal length. */
  @Param({"256", "16"})
  public int subjects;

  private Path dataDir;
  private Cipherd cipherd;
  private Server server;
  private ManagedChannel channel;
  private CryptoServiceGrpc.CryptoServiceBlockingStub crypto;

  private EncryptBatchRequest plain;
  private EncryptBatchRequest subjectBound;
  private DecryptBatchRequest plainCiphertexts;
  private DecryptBatchRequest subjectCiphertexts;

  @Setup
  public void setUp() throws IOException {
    dataDir = Files.createTempDirectory("cipherd-bench");
    cipherd =
        Cipherd.builder(Pkcs12KeyStore.open(dataDir, "bench-password".toCharArray()))
            .subjectStore(new MemorySubjectStore())
            .limits(new RequestLimits(ITEMS))
            .build();
    String name = InProcessServerBuilder.generateName();
    server = cipherd.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
    cipherd.health().markServing();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    crypto = CryptoServiceGrpc.newBlockingStub(channel);
    KeyAdminServiceGrpc.newBlockingStub(channel)
        .createKey(CreateKeyRequest.newBuilder().setKeyName(KEY).build()); // gcm, 256 bits

    byte[] bytes = new byte[100];
    new SecureRandom().nextBytes(bytes);
    ByteString plaintext = ByteString.copyFrom(bytes);
    EncryptBatchRequest.Builder plainBuilder = EncryptBatchRequest.newBuilder().setKeyName(KEY);
    EncryptBatchRequest.Builder subjectBuilder = EncryptBatchRequest.newBuilder().setKeyName(KEY);
    for (int i = 0; i < ITEMS; i++) {
      EncryptBatchItem item =
          EncryptBatchItem.newBuilder().setReference("r" + i).setPlaintext(plaintext).build();
      plainBuilder.addItems(item);
      subjectBuilder.addItems(
          item.toBuilder().setSubject("bench-subject-" + i / (ITEMS / subjects)));
    }
    plain = plainBuilder.build();
    subjectBound = subjectBuilder.build();
    // Makes the subjects, so that every measured call finds them warm.
    plainCiphertexts = decryptRequest(encryptBatch(plain));
    subjectCiphertexts = decryptRequest(encryptBatch(subjectBound));
  }

  private static DecryptBatchRequest decryptRequest(EncryptBatchResponse encrypted) {
    DecryptBatchRequest.Builder request = DecryptBatchRequest.newBuilder();
    for (EncryptBatchResult result : encrypted.getResultsList()) {
      if (!result.hasCiphertext()) {
        throw new IllegalStateException("an item failed: " + result.getError().getMessage());
      }
      request.addItems(
          DecryptBatchItem.newBuilder()
              .setReference(result.getReference())
              .setCiphertext(result.getCiphertext()));
    }
    return request.build();
  }

  @TearDown
  public void tearDown() throws Exception {
    channel.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    cipherd.close();
    try (var files = Files.walk(dataDir)) {
      files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
    }
  }

  /** EncryptBatch-256, plain gcm. */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public EncryptBatchResponse encryptBatch() {
    return encryptBatch(plain);
  }

  /** EncryptBatch-256, each item under its own warm subject's key. */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public EncryptBatchResponse encryptBatchSubjects() {
    return encryptBatch(subjectBound);
  }

  /** DecryptBatch-256 of plain gcm ciphertexts. */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public DecryptBatchResponse decryptBatch() {
    return decryptBatch(plainCiphertexts);
  }

  /** DecryptBatch-256 of subject-bound ciphertexts, each of its own warm subject. */
  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public DecryptBatchResponse decryptBatchSubjects() {
    return decryptBatch(subjectCiphertexts);
  }

  private EncryptBatchResponse encryptBatch(EncryptBatchRequest request) {
    EncryptBatchResponse response = crypto.encryptBatch(request);
    if (response.getResultsCount() != ITEMS || !response.getResults(ITEMS - 1).hasCiphertext()) {
      throw new IllegalStateException("the batch did not encrypt every item");
    }
    return response;
  }

  private DecryptBatchResponse decryptBatch(DecryptBatchRequest request) {
    DecryptBatchResponse response = crypto.decryptBatch(request);
    if (response.getResultsCount() != ITEMS || !response.getResults(ITEMS - 1).hasPlaintext()) {
      throw new IllegalStateException("the batch did not decrypt every item");
    }
    return response;
  }
}
