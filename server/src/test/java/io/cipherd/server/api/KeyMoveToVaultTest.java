package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.keystore.vault.VaultDevServer;
import io.cipherd.server.keystore.vault.VaultKeyStore;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The move issue 33 asks for: a key created in the embedded store, data encrypted under each of its
 * versions, the key backed up, restored into the real Vault of {@code make test-vault} (a dev
 * server built from Vault's Go module) by a server whose keys live there, and the old ciphertexts
 * decrypted there; then a second server on the same Vault, which never saw the restore, decrypts
 * them too.
 */
@Tag("vault")
@Timeout(180)
class KeyMoveToVaultTest {
  @TempDir Path embeddedDir;
  private VaultDevServer vault;
  private InProcessCipherd embedded;
  private InProcessCipherd inVault;

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    embedded = InProcessCipherd.start(embeddedDir);
    inVault =
        InProcessCipherd.on(
            VaultKeyStore.open(vault.config("cipherd/keys")),
            builder -> builder.allowPlaintextKeyImport(false));
  }

  @AfterEach
  void stop() throws Exception {
    if (inVault != null) {
      inVault.close();
    }
    if (embedded != null) {
      embedded.close();
    }
    if (vault != null) {
      vault.close();
    }
  }

  @Test
  void keyMovedFromTheEmbeddedStoreToVault_decryptsItsOldData_thereAndOnAnotherReplica()
      throws Exception {
    for (Mode mode : List.of(Mode.MODE_GCM, Mode.MODE_SIV)) {
      String name = "moved-" + mode.name().substring(5).toLowerCase(Locale.ROOT);
      embedded.admin.createKey(
          CreateKeyRequest.newBuilder().setKeyName(name).setMode(mode).setExportable(true).build());
      List<String> plaintexts = new ArrayList<>();
      List<String> ciphertexts = new ArrayList<>();
      for (int version = 1; version <= 4; version++) {
        if (version > 1) {
          embedded.rotate(name);
        }
        plaintexts.add("order " + version + " of " + name);
        ciphertexts.add(embedded.encrypt(name, plaintexts.get(version - 1), "shop=7"));
      }
      embedded.admin.scheduleKeyVersionDestruction(
          ScheduleKeyVersionDestructionRequest.newBuilder()
              .setKeyName(name)
              .addVersions(2)
              .build());
      // Version 1 destroyed (as its schedule falling due does it, through the store).
      KeyMetadata now = embedded.store.readKey(name).orElseThrow();
      embedded.store.updateLifecycle(
          now,
          now.withVersionsReplaced(
              List.of(
                  now.version(1)
                      .withLifecycle(
                          VersionLifecycle.destroyed(Instant.parse("2026-11-01T00:00:00Z"))))));
      embedded.services.forgetKeys();
      Key before = describe(embedded, name);
      OfflineRestore recipient = OfflineRestore.withNewKey(3072);

      Key restored =
          recipient.restore(inVault.admin, recipient.backup(embedded.admin, name)).getKey();

      assertThat(withoutUsage(restored)).isEqualTo(withoutUsage(before));
      assertThat(restored.getVersions(0).getState())
          .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTROYED);
      assertThat(restored.getVersions(1).getState())
          .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED);
      try (InProcessCipherd replica =
          InProcessCipherd.on(VaultKeyStore.open(vault.config("cipherd/keys")), b -> b)) {
        assertThat(withoutUsage(describe(replica, name))).isEqualTo(withoutUsage(before));
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            "KEY_VERSION_DESTROYED",
            () -> replica.decrypt(ciphertexts.get(0), "shop=7"));
        for (int version = 3; version <= 4; version++) {
          String ciphertext = ciphertexts.get(version - 1);
          assertThat(inVault.decrypt(ciphertext, "shop=7"))
              .as("version %d's ciphertext in Vault", version)
              .isEqualTo(plaintexts.get(version - 1));
          assertThat(replica.decrypt(ciphertext, "shop=7"))
              .as("and on a replica that never saw the restore")
              .isEqualTo(plaintexts.get(version - 1));
        }
      }
    }
  }

  private static Key describe(InProcessCipherd server, String name) {
    return server.admin.getKey(GetKeyRequest.newBuilder().setKeyName(name).build()).getKey();
  }

  private static Key withoutUsage(Key key) {
    Key.Builder builder = key.toBuilder();
    for (KeyVersion.Builder version : builder.getVersionsBuilderList()) {
      version.clearUsage();
    }
    return builder.build();
  }
}
