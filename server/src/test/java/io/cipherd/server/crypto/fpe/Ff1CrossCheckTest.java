package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Ff1} against an FF1 implementation nobody here wrote, on random inputs: Capital One's
 * {@code github.com/capitalone/fpe} (Go), run by {@code src/test/go/ff1crosscheck}, which draws
 * radices from 2 to 62, lengths from the shortest FF1 accepts to 48 numerals longer, every AES key
 * size and tweaks of 0 to 32 bytes from a seed this test picks anew each run (printed, to replay a
 * failure with {@code go run . -seed N}).
 */
class Ff1CrossCheckTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final int CASES = 1000;

  /** How Go's math/big writes numerals, the alphabet the cases are written in. */
  private static final String GO_NUMERALS =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  @Test
  void agreesWithCapitalOnesFf1OnRandomInputs() throws Exception {
    long seed = System.nanoTime();
    JsonArray cases = casesFromGo(seed);
    assertThat(cases).as("cases printed by ff1crosscheck, seed %d", seed).hasSize(CASES);
    int[] radices = new int[63];
    for (JsonElement element : cases) {
      JsonObject c = element.getAsJsonObject();
      int radix = c.get("radix").getAsInt();
      radices[radix]++;
      FpeAlphabet alphabet = FpeAlphabet.of(GO_NUMERALS.substring(0, radix));
      Ff1 ff1 = Ff1.withKey(HEX.parseHex(c.get("key_hex").getAsString()));
      byte[] tweak = HEX.parseHex(c.get("tweak_hex").getAsString());
      String plaintext = c.get("plaintext").getAsString();
      String ciphertext = c.get("ciphertext").getAsString();

      assertThat(alphabet.write(ff1.encrypt(radix, tweak, alphabet.numerals(plaintext))))
          .as("seed %d, radix %d, %d numerals", seed, radix, plaintext.length())
          .isEqualTo(ciphertext);
      assertThat(alphabet.write(ff1.decrypt(radix, tweak, alphabet.numerals(ciphertext))))
          .isEqualTo(plaintext);
    }
    long radicesSeen = Arrays.stream(radices).filter(n -> n > 0).count();
    assertThat(radicesSeen).as("distinct radices among %d cases", CASES).isGreaterThan(50);
  }

  private static JsonArray casesFromGo(long seed) throws IOException, InterruptedException {
    String dir = System.getProperty("cipherd.ff1CrossCheck");
    assertThat(dir).as("system property cipherd.ff1CrossCheck (set by surefire)").isNotNull();
    Process go =
        new ProcessBuilder(
                List.of("go", "run", ".", "-cases", String.valueOf(CASES), "-seed", "" + seed))
            .directory(Path.of(dir).toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    go.getOutputStream().close();
    String out = new String(go.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(go.waitFor(5, TimeUnit.MINUTES)).as("go run finished").isTrue();
    assertThat(go.exitValue()).as("go run ./ff1crosscheck, seed %d", seed).isZero();
    return JsonParser.parseString(out).getAsJsonArray();
  }
}
