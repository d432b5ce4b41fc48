package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.api.v1.Mode;
import io.cipherd.server.HprofHeap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is left of an imported key version in the server's heap once it is destroyed: {@link
 * DestroyedKeyHeapProbe} runs a server in a JVM of its own with a 256 MiB heap, imports a version
 * per mode family, uses it on every path that prepares or caches it, destroys it, and dumps its
 * heap; this test searches the dumps for the imported bytes and for what each mode derives from
 * them (the AES-SIV halves and CMAC subkeys, XAES-256-GCM's L and K1, the HMAC pads, ChaCha20's key
 * as the little-endian words of its state), and names the objects holding each copy.
 *
 * <p>While the versions serve, cipherd's own objects hold them (the search must find them there, or
 * it proves nothing); once they are destroyed, no live object holds any of those bytes. Unreachable
 * copies may still be in memory until the next collection (the {@code destroyed-all} dump shows
 * them), and a collection frees their memory without zeroing it.
 */
@Timeout(300)
class DestroyedKeyHeapTest {
  private static final int DEPTH = 5;

  @TempDir Path dir;

  @Test
  void destroyedImportedVersions_leaveNoLiveCopyOfTheirBytesOrSubkeys() throws Exception {
    Path out = Files.createDirectories(dir.resolve("out"));
    runProbe(out);
    Map<String, byte[]> needles = needles(Files.readAllBytes(out.resolve("keys.bin")));

    Map<String, Map<String, Integer>> inUse = search(out.resolve("in-use.hprof"), needles);
    Map<String, Map<String, Integer>> garbage = search(out.resolve("destroyed-all.hprof"), needles);
    Map<String, Map<String, Integer>> destroyed = search(out.resolve("destroyed.hprof"), needles);
    System.out.printf("%-24s %8s %16s %10s%n", "bytes", "in use", "destroyed (all)", "destroyed");
    for (String needle : needles.keySet()) {
      System.out.printf(
          "%-24s %8d %16d %10d%n",
          needle,
          total(inUse.get(needle)),
          total(garbage.get(needle)),
          total(destroyed.get(needle)));
    }
    report("in use", inUse);
    report("destroyed, unreachable objects included", garbage);
    report("destroyed", destroyed);

    for (String key : List.of("gcm", "chacha", "cbc", "siv", "xgcm", "hmac", "ff1")) {
      assertThat(String.join("\n", holdersOf(inUse, key)))
          .as("the search finds %s's bytes where cipherd keeps them while it serves", key)
          .contains("byte[" + DestroyedKeyHeapProbe.bytesOf(keyMode(key)) + "] <- " + WIPEABLE);
    }
    assertThat(String.join("\n", holdersOf(inUse, "gcm")))
        .as("and in a pooled cipher's key schedule")
        .contains("int[60] <- com.sun.crypto.provider.AESCrypt");
    assertThat(String.join("\n", holdersOf(inUse, "xgcm K1")))
        .as("and what a mode derives")
        .contains("io.cipherd.server.crypto.XaesGcm$XaesKey");
    assertThat(String.join("\n", holdersOf(inUse, "siv cmac K1")))
        .contains("com.google.crypto.tink.subtle.PrfAesCmac");
    for (String needle : List.of("siv s2v half", "siv ctr half", "hmac ipad", "hmac opad")) {
      assertThat(String.join("\n", holdersOf(inUse, needle)))
          .as("an idle thread's cipher or Mac holding %s", needle)
          .doesNotContain("javax.crypto.Cipher")
          .doesNotContain("javax.crypto.Mac");
    }
    for (String needle : needles.keySet()) {
      assertThat(holdersOf(destroyed, needle))
          .as("live objects holding %s after its version was destroyed", needle)
          .allMatch(chain -> chain.endsWith(HprofHeap.UNREFERENCED));
    }
  }

  private static final String WIPEABLE = "io.cipherd.server.keys.WipeableSecretKey";

  private static Mode keyMode(String key) {
    return DestroyedKeyHeapProbe.KEYS.stream()
        .filter(e -> e.getKey().equals(key))
        .findFirst()
        .orElseThrow()
        .getValue();
  }

  private static List<String> holdersOf(Map<String, Map<String, Integer>> found, String needle) {
    return new ArrayList<>(found.get(needle).keySet());
  }

  private static int total(Map<String, Integer> holders) {
    return holders.values().stream().mapToInt(Integer::intValue).sum();
  }

  private static void report(String title, Map<String, Map<String, Integer>> found) {
    System.out.println("holders, " + title + ":");
    found.forEach(
        (needle, holders) ->
            holders.forEach(
                (chain, n) -> System.out.printf("  %-20s %3d x %s%n", needle, n, chain)));
  }

  private static Map<String, Map<String, Integer>> search(Path dump, Map<String, byte[]> needles)
      throws Exception {
    HprofHeap heap = HprofHeap.read(dump);
    Map<String, Map<String, Integer>> found = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> needle : needles.entrySet()) {
      found.put(needle.getKey(), heap.holderCounts(needle.getValue(), DEPTH));
    }
    return found;
  }

  private void runProbe(Path out) throws Exception {
    Path log = dir.resolve("probe.log");
    Process probe =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                DestroyedKeyHeapProbe.class.getName(),
                out.toString(),
                dir.resolve("data").toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!probe.waitFor(240, TimeUnit.SECONDS)) {
      probe.destroyForcibly();
      throw new AssertionError("the probe did not finish: " + tail(log));
    }
    assertThat(probe.exitValue()).as("probe exit (log: %s)", tail(log)).isZero();
  }

  private static String tail(Path log) throws Exception {
    String text = Files.readString(log);
    return text.substring(Math.max(0, text.length() - 4000));
  }

  /** Each imported key's bytes, and what its mode derives from them, by name. */
  private static Map<String, byte[]> needles(byte[] all) throws Exception {
    Map<String, byte[]> needles = new LinkedHashMap<>();
    int offset = 0;
    for (Map.Entry<String, Mode> key : DestroyedKeyHeapProbe.KEYS) {
      byte[] bytes =
          Arrays.copyOfRange(all, offset, offset + DestroyedKeyHeapProbe.bytesOf(key.getValue()));
      offset += bytes.length;
      String name = key.getKey();
      needles.put(name, bytes);
      switch (key.getValue()) {
        case MODE_CHACHA -> needles.put(name + " state words", littleEndianWords(bytes));
        case MODE_SIV -> {
          byte[] s2v = Arrays.copyOf(bytes, 32);
          needles.put(name + " s2v half", s2v);
          needles.put(name + " ctr half", Arrays.copyOfRange(bytes, 32, 64));
          byte[] l = aesZeroBlock(s2v);
          needles.put(name + " cmac L", l);
          needles.put(name + " cmac K1", dbl(l));
          needles.put(name + " cmac K2", dbl(dbl(l)));
        }
        case MODE_XGCM -> {
          byte[] l = aesZeroBlock(bytes);
          needles.put(name + " L", l);
          needles.put(name + " K1", dbl(l));
        }
        case MODE_HMAC -> {
          needles.put(name + " ipad", pad(bytes, 0x36));
          needles.put(name + " opad", pad(bytes, 0x5c));
        }
        default -> {}
      }
    }
    return needles;
  }

  private static byte[] littleEndianWords(byte[] key) {
    byte[] swapped = new byte[key.length];
    for (int i = 0; i < key.length; i += 4) {
      for (int j = 0; j < 4; j++) {
        swapped[i + j] = key[i + 3 - j];
      }
    }
    return swapped;
  }

  private static byte[] aesZeroBlock(byte[] key) throws Exception {
    Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
    ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
    return ecb.doFinal(new byte[16]);
  }

  /** Doubling in GF(2^128), as CMAC derives its subkeys. */
  private static byte[] dbl(byte[] block) {
    byte[] out = new byte[16];
    int carry = 0;
    for (int i = 15; i >= 0; i--) {
      int b = block[i] & 0xff;
      out[i] = (byte) ((b << 1) | carry);
      carry = b >>> 7;
    }
    if ((block[0] & 0x80) != 0) {
      out[15] ^= (byte) 0x87;
    }
    return out;
  }

  /** HMAC's inner or outer pad: the key, zero-padded to SHA-256's 64-byte block, XOR {@code b}. */
  private static byte[] pad(byte[] key, int b) {
    byte[] block = Arrays.copyOf(key, 64);
    for (int i = 0; i < block.length; i++) {
      block[i] ^= (byte) b;
    }
    return block;
  }
}
