package io.cipherd.server.cli;

import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.vault.KekMigration;
import io.cipherd.server.keystore.vault.VaultKeyStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code cipherd kek migrate [--vault-* options] [--kek* options]}: wraps, in place, every key
 * version and the audit key the Vault store keeps raw ({@link KekMigration}); prints counts, never
 * material; exits 0 when everything is wrapped.
 */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Wraps every key version and the audit key that Vault keeps unwrapped with the KEK, in place:",
      "resumable and idempotent, servers keep serving. Then start servers with --kek-require-wrapped."
    })
public final class KekMigrateCommand implements Callable<Integer> {
  @Mixin VaultOptions vault;

  @Mixin KekOptions kek;

  @Override
  public Integer call() {
    KekConfig config = kek.toConfig();
    if (!config.enabled()) {
      throw new IllegalArgumentException("cipherd kek migrate needs --kek (transit, pkcs11, ...)");
    }
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (VaultKeyStore store = VaultKeyStore.open(vault.toConfig(), config)) {
      store.kekMigration().run(out);
    }
    return 0;
  }
}
