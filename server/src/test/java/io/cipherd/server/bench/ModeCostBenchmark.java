package io.cipherd.server.bench;

import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.ModeFamily;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one message in each AEAD mode through the server's own {@link ModeFamily} and pools,
 * key prepared once per version as the key ring does: what xgcm's per-message key derivation (two
 * AES blocks and a fresh GCM key schedule) adds over gcm, and what siv (Tink, two passes) costs.
 *
 * <p>{@code make bench BENCH_ARGS='ModeCostBenchmark -prof gc'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ModeCostBenchmark {
  @Param({"GCM", "XGCM", "CHACHA", "SIV"})
  public String mode;

  @Param({"100", "4096"})
  public int plaintextSize;

  private CipherPools pools;
  private ModeFamily family;
  private CipherMode chosen;
  private SecretKey key;
  private byte[] header;
  private byte[] context;
  private byte[] plaintext;
  private byte[] payload;
  private byte[] sealed;
  private int sealedLength;
  private byte[] opened;

  @Setup(Level.Trial)
  public void setUp() {
    pools = new CipherPools(CipherPoolConfig.DEFAULT);
    chosen = CipherMode.valueOf(mode);
    family = chosen.family();
    int bits = chosen.defaultKeySizeBits();
    key =
        chosen
            .family()
            .prepare(new SecretKeySpec(NonceSource.bytes(bits / 8), chosen.keyAlgorithm()));
    header = new EnvelopeHeader("bench", 1, chosen).asciiBytes();
    context = "users.email".getBytes(StandardCharsets.US_ASCII);
    plaintext = NonceSource.bytes(plaintextSize);
    payload = new byte[chosen.payloadLength(plaintextSize)];
    sealed = new byte[payload.length];
    sealedLength = family.seal(pools, key, header, Bytes.of(context), Bytes.of(plaintext), sealed);
    opened = new byte[sealed.length];
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pools.close();
  }

  @Benchmark
  public int encrypt() {
    // Slices made per call, as the server's hot path makes them.
    return family.seal(
        pools,
        key,
        header,
        new Bytes(context, 0, context.length),
        new Bytes(plaintext, 0, plaintextSize),
        payload);
  }

  @Benchmark
  public int decrypt() {
    return family.open(
        pools,
        key,
        header,
        new Bytes(context, 0, context.length),
        new Bytes(sealed, 0, sealedLength),
        opened);
  }
}
