package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditHeads;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What one anchor write costs, as the audit trail's anchor thread makes it (check-and-set on the
 * head it wrote last): a loop over the PKCS12 store in a temp directory, a real Vault with
 * in-memory storage and one with file storage. Prints the figures; not a test. Run with {@code cd
 * server && ./mvnw -q test-compile exec:exec -Dexec.args="-cp %classpath
 * io.cipherd.server.keystore.vault.AuditHeadWriteCost 500"}.
 */
public final class AuditHeadWriteCost {
  private AuditHeadWriteCost() {}

  public static void main(String[] args) throws Exception {
    int writes = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    Path dir = Files.createTempDirectory("anchor-cost");
    try (Pkcs12KeyStore store = Pkcs12KeyStore.open(dir, "anchor-cost".toCharArray())) {
      report("pkcs12 (" + dir + ")", measure(store, writes));
    }
    try (VaultDevServer vault = VaultDevServer.startDev();
        VaultKeyStore store = VaultKeyStore.open(vault.config("cipherd/cost"))) {
      report("vault dev (inmem storage)", measure(store, writes));
    }
    try (VaultDevServer vault = VaultDevServer.startWithFileStorage();
        VaultKeyStore store = VaultKeyStore.open(vault.config("cipherd/cost"))) {
      report("vault (file storage)", measure(store, writes));
    }
  }

  /** Each write's nanoseconds, after 50 unmeasured ones. */
  private static long[] measure(AuditStore store, int writes) {
    String trail = "cost-host:/var/log/cipherd/audit.log";
    AuditHead last = store.readAuditHead(trail).orElse(null);
    long seq = last == null ? 1 : last.seq() + 1;
    for (int i = 0; i < 50; i++, seq++) {
      last = write(store, last, AuditHeads.at(trail, seq));
    }
    long[] nanos = new long[writes];
    for (int i = 0; i < writes; i++, seq++) {
      long start = System.nanoTime();
      last = write(store, last, AuditHeads.at(trail, seq));
      nanos[i] = System.nanoTime() - start;
    }
    return nanos;
  }

  private static AuditHead write(AuditStore store, AuditHead expected, AuditHead next) {
    if (!store.writeAuditHead(expected, next)) {
      throw new IllegalStateException("check-and-set failed with no other writer");
    }
    return next;
  }

  private static void report(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(sorted).average().orElse(0) / 1e6;
    System.out.printf(
        "%-28s writes=%d mean=%.3f ms p50=%.3f ms p90=%.3f ms p99=%.3f ms max=%.3f ms%n",
        what,
        sorted.length,
        mean,
        sorted[sorted.length / 2] / 1e6,
        sorted[(int) (sorted.length * 0.9)] / 1e6,
        sorted[(int) (sorted.length * 0.99)] / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }
}
