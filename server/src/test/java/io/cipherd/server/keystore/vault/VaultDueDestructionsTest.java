package io.cipherd.server.keystore.vault;

import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.maintenance.DueDestructions;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two replicas, each with its own Vault session, sweeping the due destructions at the same moment:
 * one lifecycle write wins, Vault destroys the KV version's data once, one more write clears the
 * version from the list of those being destroyed, and both see it destroyed.
 */
@Tag("vault")
@Timeout(120)
class VaultDueDestructionsTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final String PREFIX = "cipherd/two-replicas";
  @RegisterExtension static final VaultDevServer vault = VaultDevServer.perClass();

  private static VaultKeyStore replica() {
    return VaultKeyStore.open(vault.config(PREFIX));
  }

  private static JsonObject apiData(String path) throws Exception {
    return Json.parse(vault.api("GET", path, null)).asObject().get("data").asObject();
  }

  private static int lifecycleWrites() throws Exception {
    return apiData("secret/metadata/" + PREFIX + "/_lifecycle/payments")
        .get("current_version")
        .asInt();
  }

  @Test
  void twoReplicasSweepingAtOnce_oneWins_vaultDestroysTheData_bothReadItDestroyed()
      throws Exception {
    SettableClock clock = new SettableClock(START);
    try (VaultKeyStore a = replica();
        VaultKeyStore b = replica()) {
      NewKeyVersion v1 = version(1, CipherMode.GCM, 256);
      a.createKey("payments", v1, KeyPolicy.DEFAULT);
      KeyMetadata rotated = a.addVersion("payments", 1, version(2, CipherMode.CHACHA, 256));
      a.updateLifecycle(
          rotated,
          LifecycleRules.scheduleDestruction(
              rotated, List.of(1), LifecycleRules.MIN_WINDOW, clock.instant()));
      assertThat(b.readKey("payments").orElseThrow().version(1).lifecycle().state())
          .isEqualTo(VersionLifecycle.State.DESTRUCTION_SCHEDULED);
      assertThat(lifecycleWrites()).isEqualTo(1);
      clock.advance(Duration.ofDays(2));
      SimpleMeterRegistry registryA = new SimpleMeterRegistry();
      SimpleMeterRegistry registryB = new SimpleMeterRegistry();
      List<DueDestructions> sweepers =
          List.of(
              new DueDestructions(a, clock, name -> {}, registryA),
              new DueDestructions(b, clock, name -> {}, registryB));

      List<Integer> destroyed = sweepAtOnce(sweepers);

      assertThat(destroyed).containsExactlyInAnyOrder(1, 0);
      assertThat(lifecycleWrites())
          .as("exactly one lifecycle write won, and one cleared its destroying list")
          .isEqualTo(3);
      assertThat(counted(registryA) + counted(registryB)).isEqualTo(1.0);
      JsonObject kvVersion1 =
          apiData("secret/metadata/" + PREFIX + "/payments")
              .get("versions")
              .asObject()
              .get("1")
              .asObject();
      assertThat(kvVersion1.get("destroyed").asBoolean()).isTrue();
      assertThatThrownBy(
              () -> vault.api("GET", "secret/data/" + PREFIX + "/payments?version=1", null))
          .as("the data of a destroyed KV version is gone")
          .hasMessageContaining("answered 404")
          .hasMessageContaining("\"data\":null");
      KeyVersionInfo expected =
          v1.info()
              .withLifecycle(VersionLifecycle.destroyed(START.plus(LifecycleRules.MIN_WINDOW)));
      for (VaultKeyStore replica : List.of(a, b)) {
        KeyMetadata read = replica.readKey("payments").orElseThrow();
        assertThat(read.version(1)).isEqualTo(expected);
        assertThat(read.version(2).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
        assertThatThrownBy(() -> replica.readMaterial("payments", read.version(1)))
            .isInstanceOfSatisfying(
                KeyUnavailableException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.KEY_VERSION_DESTROYED));
        assertThat(replica.readMaterial("payments", read.version(2)).getEncoded()).hasSize(32);
      }

      assertThat(sweepAtOnce(sweepers)).as("a second sweep").containsExactly(0, 0);
      assertThat(lifecycleWrites()).isEqualTo(3);
      assertThat(counted(registryA) + counted(registryB)).isEqualTo(1.0);
    }
  }

  private static double counted(SimpleMeterRegistry registry) {
    return registry.get(DueDestructions.DESTROYED_METER).counter().count();
  }

  private static List<Integer> sweepAtOnce(List<DueDestructions> sweepers) throws Exception {
    CyclicBarrier start = new CyclicBarrier(sweepers.size());
    ExecutorService pool = Executors.newFixedThreadPool(sweepers.size());
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (DueDestructions sweeper : sweepers) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  return sweeper.sweep();
                }));
      }
      List<Integer> results = new ArrayList<>();
      for (Future<Integer> f : done) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
