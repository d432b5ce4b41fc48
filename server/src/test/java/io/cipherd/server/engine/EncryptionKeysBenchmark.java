package io.cipherd.server.engine;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import java.time.Clock;
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
 * What finding and counting each item's encryption key costs a batch of 256 items on one key (the
 * load test's EncryptBatch-256 and ReEncryptBatch-256), scored per item: the lease's lookup, the
 * reservation against the version's cap and the usage count, without the encryption itself. A gcm
 * key has its mode's default encryption limit (capped); an xgcm key has none.
 *
 * <p>{@code make bench BENCH_ARGS='EncryptionKeysBenchmark'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class EncryptionKeysBenchmark {
  static final int ITEMS = 256;

  Keys keys;

  @Setup(Level.Trial)
  public void setUp() {
    keys = Keys.over(new InMemoryKeyStore(), Clock.systemUTC());
    keys.create("capped", KeyTemplate.of(CipherMode.GCM));
    keys.create("uncapped", KeyTemplate.of(CipherMode.XGCM));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    keys.close();
  }

  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void cappedBatch(Blackhole blackhole) {
    batch("capped", blackhole);
  }

  @Benchmark
  @OperationsPerInvocation(ITEMS)
  public void uncappedBatch(Blackhole blackhole) {
    batch("uncapped", blackhole);
  }

  private void batch(String name, Blackhole blackhole) {
    EncryptionKeys lease = EncryptionKeys.perLease(keys.cache());
    for (int i = 0; i < ITEMS; i++) {
      UsableKey key = lease.forEncryption(name, 0);
      blackhole.consume(key);
    }
    lease.forget();
  }
}
