package io.cipherd.server.cli;

import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.vault.KekRewrap;
import io.cipherd.server.keystore.vault.VaultKeyStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code cipherd kek rewrap [--vault-* options] [--kek* options] [--kek-also-unwrap ID]}: rewraps
 * every wrapped key version and the audit key to the KEK's newest version, from an older version of
 * the same Transit key or from the KEKs {@code --kek-also-unwrap} names ({@link KekRewrap}); prints
 * counts, never material; exits 0 when done (raw material is counted, left to migrate). Its own
 * command, not a {@code migrate} option: migrate turns raw material into wrapped, rewrap changes
 * which KEK (or KEK version) wrapped it, and each prints what it alone does.
 */
@Command(
    name = "rewrap",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Rewraps every wrapped key version and the audit key with the KEK at its",
      "newest version: after `vault write -f transit/keys/<key>/rotate`, or to move",
      "from the KEKs --kek-also-unwrap names to --kek. Resumable and idempotent;",
      "servers keep serving (docs/security.md)."
    })
public final class KekRewrapCommand implements Callable<Integer> {
  @Mixin VaultOptions vault;

  @Mixin KekOptions kek;

  @Override
  public Integer call() {
    KekConfig config = kek.toConfig();
    if (!config.enabled()) {
      throw new IllegalArgumentException("cipherd kek rewrap needs --kek (transit, pkcs11, ...)");
    }
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (VaultKeyStore store = VaultKeyStore.open(vault.toConfig(), config)) {
      store.kekRewrap().run(out);
    }
    return 0;
  }
}
