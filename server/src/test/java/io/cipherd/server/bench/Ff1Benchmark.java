package io.cipherd.server.bench;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.crypto.fpe.Ff1;
import io.cipherd.server.crypto.fpe.FormatTemplate;
import io.cipherd.server.crypto.fpe.FormattedCipher;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.fpe.FpeTweak;
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
 * What one format-preserving value costs next to sealing the same value with gcm, per format, as
 * the FormatPreservingService computes it: the tweak from a key name and a context, the value read
 * into its format, FF1 (cycle-walking for the card number that keeps six and four digits, whose
 * 100,000 values are below FF1's floor), the Luhn digit, the result written back. Each under an
 * AES-256 key. {@code gcm} is the server's pooled seal of the value's UTF-8 bytes with its header
 * as associated data.
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
  /** A format and a value of it. */
  @Param({"digits16", "card16", "card_last_four16", "alphanumeric20", "phone"})
  public String format;

  FpeFormat fpeFormat;
  String value;
  Ff1 ff1;
  byte[] context;
  SecretKey gcmKey;
  byte[] header;
  CipherPools pools;
  ArrayPayloadCipher payloadCipher;

  @Setup(Level.Trial)
  public void setUp() {
    switch (format) {
      case "digits16" -> {
        fpeFormat = FpeFormat.ofTemplate(FormatTemplate.DIGITS, false, 0);
        value = "4929123456781234";
      }
      case "card16" -> {
        fpeFormat = FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER, true, 0);
        value = "4929 1234 5678 1234";
      }
      case "card_last_four16" -> {
        fpeFormat = FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER_LAST_FOUR, false, 0);
        value = "4929 1234 5678 1234";
      }
      case "alphanumeric20" -> {
        fpeFormat = FpeFormat.ofTemplate(FormatTemplate.ALPHANUMERIC, false, 0);
        value = "Zq8LmN2pR4sT6vW8xY0a";
      }
      case "phone" -> {
        fpeFormat = FpeFormat.ofTemplate(FormatTemplate.PHONE_NUMBER, false, 0);
        value = "+44 20 7946 0958";
      }
      default -> throw new IllegalArgumentException(format);
    }
    ff1 = Ff1.withKey(NonceSource.bytes(32));
    context = "users.column".getBytes(StandardCharsets.UTF_8);
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
    return FormattedCipher.encrypt(fpeFormat, ff1, FpeTweak.of("bench", context), value, 1);
  }

  @Benchmark
  public byte[] gcm() {
    return payloadCipher.encrypt(
        CipherMode.GCM, gcmKey, header, null, value.getBytes(StandardCharsets.UTF_8));
  }
}
