package io.cipherd.server.bench;

import io.cipherd.server.crypto.NonceSource;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one encryption's 12-byte nonce costs as the server draws it ({@link NonceSource}: the
 * thread's DRBG read 512 bytes at a time), to compare with {@code JceGcmFloorBenchmark.drbgNonce}
 * (one DRBG call per nonce) and with the cipher itself ({@code JceGcmFloorBenchmark.encrypt}): the
 * nonce must cost far less than the encryption it serves.
 *
 * <p>{@code make bench BENCH_ARGS='NonceSourceBenchmark|JceGcmFloorBenchmark -prof gc'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class NonceSourceBenchmark {
  final byte[] payload = new byte[128];

  /** One GCM nonce into the front of a payload buffer, as {@code PayloadCipher.encrypt} does. */
  @Benchmark
  public byte[] gcmNonce() {
    NonceSource.fill(payload, 0, 12);
    return payload;
  }
}
