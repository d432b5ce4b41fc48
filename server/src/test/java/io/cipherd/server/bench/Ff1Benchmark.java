package io.cipherd.server.bench;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.crypto.fpe.Ff1;
import io.cipherd.server.crypto.fpe.FpeAlphabet;
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
 * What one FF1 value costs next to sealing the same value with gcm, per format: a 16-digit card
 * number, a 10-digit national number, a 24-character alphanumeric reference, each under an AES-256
 * key with a 32-byte tweak (the size of the tweak cipherd derives from a context). {@code ff1}
 * includes reading the value into numerals and writing the result back; {@code gcm} is the server's
 * pooled seal of the value's UTF-8 bytes with its header as associated data.
 *
 * <p>Run with {@code make bench BENCH_ARGS='Ff1Benchmark -prof gc'}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class Ff1Benchmark {
  @Param({"digits:16", "digits:10", "alphanumeric:24"})
  public String format;

  FpeAlphabet alphabet;
  String value;
  Ff1 ff1;
  byte[] tweak;
  SecretKey gcmKey;
  byte[] header;
  CipherPools pools;
  ArrayPayloadCipher payloadCipher;

  @Setup(Level.Trial)
  public void setUp() {
    String[] parts = format.split(":");
    alphabet = parts[0].equals("digits") ? FpeAlphabet.DIGITS : FpeAlphabet.ALPHANUMERIC;
    int length = Integer.parseInt(parts[1]);
    byte[] random = NonceSource.bytes(length);
    int[] numerals = new int[length];
    for (int i = 0; i < length; i++) {
      numerals[i] = (random[i] & 0xff) % alphabet.radix();
    }
    value = alphabet.write(numerals);
    ff1 = Ff1.withKey(NonceSource.bytes(32));
    tweak = NonceSource.bytes(32);
    gcmKey = new SecretKeySpec(NonceSource.bytes(32), "AES");
    header = "<bench/v1:gcm>".getBytes(StandardCharsets.US_ASCII);
    pools = new CipherPools(CipherPoolConfig.DEFAULT);
    payloadCipher = new ArrayPayloadCipher(pools);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pools.close();
  }

  @Benchmark
  public String ff1() {
    return alphabet.write(ff1.encrypt(alphabet.radix(), tweak, alphabet.numerals(value)));
  }

  @Benchmark
  public byte[] gcm() {
    return payloadCipher.encrypt(
        CipherMode.GCM, gcmKey, header, null, value.getBytes(StandardCharsets.UTF_8));
  }
}
