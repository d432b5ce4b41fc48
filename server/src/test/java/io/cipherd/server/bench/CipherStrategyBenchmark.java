package io.cipherd.server.bench;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.pool.CipherLease;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Where should an encrypt get its {@link Cipher}? Four strategies doing identical work per call —
 * fresh random IV from {@link NonceSource}, init with the key, the header as AAD for AEAD modes,
 * doFinal into a new payload array — differing only in how the Cipher object is obtained:
 *
 * <ul>
 *   <li>{@code newCipherPerCall}: {@code Cipher.getInstance} every call (the naive baseline);
 *   <li>{@code pooled}: the server's {@code ModeFamily.seal} over {@link CipherPools};
 *   <li>{@code pooledInBatch}: the same, with one pool lease per 256-item batch, scored per item;
 *   <li>{@code threadLocal}: one Cipher per thread and mode in a {@link ThreadLocal};
 *   <li>{@code bareCipher}: one Cipher held by the benchmark thread — the floor no strategy can
 *       beat.
 * </ul>
 *
 * <p>Run with {@code org.openjdk.jmh.Main CipherStrategyBenchmark} on the test classpath; add
 * {@code -p mode=cfb,ofb,ecb} for the other modes and {@code -prof gc} for allocation per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class CipherStrategyBenchmark {
  @Param({"gcm", "chacha", "cbc", "ctr"})
  public String mode;

  @Param({"16", "100", "1024", "8192"})
  public int payloadSize;

  CipherMode cipherMode;
  SecretKey key;
  byte[] header;
  byte[] plaintext;
  CipherPools pools;
  ArrayPayloadCipher payloadCipher;
  ThreadLocal<Cipher> threadCipher;

  @Setup(Level.Trial)
  public void setUp() {
    cipherMode = CipherMode.fromHeaderName(mode);
    if (cipherMode == null) {
      throw new IllegalArgumentException("unknown mode " + mode);
    }
    // 256-bit keys: the only size ChaCha20 takes, and the default size of new keys.
    key = new SecretKeySpec(NonceSource.bytes(32), cipherMode.keyAlgorithm());
    header = ("<bench/v1:" + mode + ">").getBytes(StandardCharsets.US_ASCII);
    plaintext = NonceSource.bytes(payloadSize);
    pools = new CipherPools(CipherPoolConfig.DEFAULT);
    payloadCipher = new ArrayPayloadCipher(pools);
    threadCipher = ThreadLocal.withInitial(() -> newCipher(cipherMode));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pools.close();
  }

  /** The one Cipher of a benchmark thread, for the floor. */
  @State(Scope.Thread)
  public static class ThreadCipher {
    Cipher cipher;

    @Setup(Level.Trial)
    public void setUp(CipherStrategyBenchmark benchmark) {
      cipher = newCipher(benchmark.cipherMode);
    }
  }

  @Benchmark
  public byte[] newCipherPerCall() throws GeneralSecurityException {
    return seal(Cipher.getInstance(cipherMode.transformation()));
  }

  @Benchmark
  public byte[] pooled() {
    return payloadCipher.encrypt(cipherMode, key, header, null, plaintext);
  }

  /**
   * Items per batch in {@link #pooledInBatch}: the batch size the load-test targets are set for.
   */
  static final int BATCH = 256;

  /**
   * The pooled path as batch RPCs use it: one {@link CipherLease} per batch, so the pool is touched
   * once per batch rather than once per item. Scored per item.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void pooledInBatch(Blackhole items) {
    try (CipherLease lease = new CipherLease(pools)) {
      ArrayPayloadCipher leased = new ArrayPayloadCipher(lease);
      for (int i = 0; i < BATCH; i++) {
        items.consume(leased.encrypt(cipherMode, key, header, null, plaintext));
      }
    }
  }

  @Benchmark
  public byte[] threadLocal() throws GeneralSecurityException {
    return seal(threadCipher.get());
  }

  @Benchmark
  public byte[] bareCipher(ThreadCipher thread) throws GeneralSecurityException {
    return seal(thread.cipher);
  }

  /** What {@code ModeFamily.seal} does once it holds a cipher, step for step. */
  private byte[] seal(Cipher cipher) throws GeneralSecurityException {
    int ivLength = cipherMode.ivLength();
    byte[] payload = new byte[cipherMode.payloadLength(plaintext.length)];
    NonceSource.fill(payload, 0, ivLength);
    cipher.init(Cipher.ENCRYPT_MODE, key, parameters(payload, ivLength));
    if (cipherMode.isAead()) {
      cipher.updateAAD(header);
    }
    cipher.doFinal(plaintext, 0, plaintext.length, payload, ivLength);
    return payload;
  }

  private AlgorithmParameterSpec parameters(byte[] payload, int ivLength) {
    return switch (cipherMode) {
      case GCM -> new GCMParameterSpec(cipherMode.tagLength() * 8, payload, 0, ivLength);
      case ECB -> null;
      default -> new IvParameterSpec(payload, 0, ivLength);
    };
  }

  private static Cipher newCipher(CipherMode mode) {
    try {
      return Cipher.getInstance(mode.transformation());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
