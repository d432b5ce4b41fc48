package io.cipherd.server.bench;

import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.importjobs.BackupRecipient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What reading BackupKey's recipient costs ({@link BackupRecipient#parse}, which every identified
 * caller's audit record runs too), for an openssl PEM and for the hostile shapes at the length
 * limit and far past it; and the regex it replaced ({@link #OLD_PEM}, kept here as the baseline) on
 * a body of only 512 spaces, as it backtracked cubically (2,000 took it 9.5 s).
 *
 * <p>{@code make bench BENCH_ARGS='BackupRecipientBenchmark'}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BackupRecipientBenchmark {
  private static final String BEGIN = "-----BEGIN PUBLIC KEY-----";
  private static final String END = "-----END PUBLIC KEY-----";
  private static final int LIMIT = BackupRecipient.MAX_PEM_CHARS;
  private static final Pattern OLD_PEM =
      Pattern.compile(
          "\\A\\s*-----BEGIN PUBLIC KEY-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END PUBLIC KEY-----\\s*\\z");

  /** The recipient sent, by shape. */
  @State(Scope.Thread)
  public static class Recipient {
    @Param({
      "openssl-3072",
      "spaces-at-limit-no-end",
      "base64-at-limit-no-end",
      "spaces-at-limit-armoured",
      "spaces-4MiB-no-end"
    })
    public String shape;

    String pem;

    @Setup
    public void setUp() throws IOException {
      pem =
          switch (shape) {
            case "openssl-3072" -> opensslPem();
            case "spaces-at-limit-no-end" -> BEGIN + " ".repeat(LIMIT - BEGIN.length());
            case "base64-at-limit-no-end" -> BEGIN + "A".repeat(LIMIT - BEGIN.length());
            case "spaces-at-limit-armoured" ->
                BEGIN + " ".repeat(LIMIT - BEGIN.length() - END.length()) + END;
            case "spaces-4MiB-no-end" -> BEGIN + " ".repeat(4 << 20);
            default -> throw new IllegalArgumentException(shape);
          };
    }
  }

  /** 512 spaces after the BEGIN line, for the replaced regex. */
  @State(Scope.Thread)
  public static class Baseline {
    final String pem = BEGIN + " ".repeat(512);
  }

  @Benchmark
  public Object parse(Recipient recipient) {
    try {
      return BackupRecipient.parse(recipient.pem);
    } catch (InvalidArgumentException refused) {
      return refused;
    }
  }

  @Benchmark
  public boolean oldRegexOn512Spaces(Baseline baseline) {
    return OLD_PEM.matcher(baseline.pem).matches();
  }

  private static String opensslPem() throws IOException {
    try (InputStream in =
        BackupRecipientBenchmark.class.getResourceAsStream(
            "/io/cipherd/server/importjobs/openssl-rsa3072.pub.pem")) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }
}
