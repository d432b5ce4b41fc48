package io.cipherd.server.keystore.vault;

import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.VersionLifecycle;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two replicas, each with its own Vault session, applying one lifecycle transition from the same
 * read at the same moment, round after round, on a real Vault: the lifecycle secret's check-and-set
 * lets exactly one write per transition through, the other gets {@code CONCURRENT_UPDATE}, and
 * Vault takes one write per transition, and after a destruction one more, clearing the version from
 * the list of those being destroyed once Vault destroyed its data. Each round schedules a version,
 * then destroys it.
 */
@Tag("vault")
@Timeout(180)
class VaultLifecycleRaceTest {
  private static final String PREFIX = "cipherd/lifecycle-race";
  private static final String KEY = "payments";
  private static final int ROUNDS = 20;
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  @RegisterExtension static final VaultDevServer vault = VaultDevServer.perClass();

  @Test
  void eachTransitionRacedByTwoReplicas_hasExactlyOneWinner_andOneWinningVaultWrite()
      throws Exception {
    try (VaultKeyStore a = replica();
        VaultKeyStore b = replica()) {
      a.createKey(KEY, version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
      for (int v = 2; v <= ROUNDS + 1; v++) {
        a.addVersion(KEY, v - 1, version(v, CipherMode.GCM, 256));
      }
      Map<String, Integer> outcomes = new TreeMap<>();
      Instant now = START;
      for (int v = 1; v <= ROUNDS; v++) {
        int version = v;
        Instant scheduledAt = now;
        race(
            a,
            b,
            key ->
                LifecycleRules.scheduleDestruction(
                    key, List.of(version), LifecycleRules.MIN_WINDOW, scheduledAt),
            "schedule v" + v,
            /* writes= */ 1,
            outcomes);
        now = now.plus(LifecycleRules.MIN_WINDOW);
        Instant dueAt = now;
        race(
            a,
            b,
            key -> LifecycleRules.due(key, dueAt).key(),
            "destroy v" + v,
            /* writes= */ 2,
            outcomes);

        JsonObject kv = apiData("secret/metadata/" + PREFIX + "/" + KEY).get("versions").asObject();
        assertThat(kv.get(Integer.toString(v)).asObject().get("destroyed").asBoolean())
            .as("KV version %d destroyed by the winner", v)
            .isTrue();
        assertThat(vault.exists("secret/data/" + PREFIX + "/" + KEY + "?version=" + v))
            .as("KV version %d's data", v)
            .isFalse();
      }
      System.out.println("lifecycle races on Vault, " + 2 * ROUNDS + " transitions: " + outcomes);
      assertThat(outcomes)
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("winner", 2 * ROUNDS, "loser CONCURRENT_UPDATE", 2 * ROUNDS));
      JsonObject kv = apiData("secret/metadata/" + PREFIX + "/" + KEY).get("versions").asObject();
      assertThat(kv.get(Integer.toString(ROUNDS + 1)).asObject().get("destroyed").asBoolean())
          .isFalse();
      for (VaultKeyStore replica : List.of(a, b)) {
        KeyMetadata read = replica.readKey(KEY).orElseThrow();
        assertThat(read.versions()).hasSize(ROUNDS + 1);
        assertThat(read.version(ROUNDS + 1).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
        assertThat(read.version(ROUNDS).lifecycle().state())
            .isEqualTo(VersionLifecycle.State.DESTROYED);
      }
    }
  }

  /**
   * Both replicas read the key, compute {@code transition} of what they read, and write it at the
   * same moment; asserts one wins and Vault's lifecycle secret took {@code writes} writes (the
   * winner's, and for a destruction the one clearing its list), and tallies the outcomes.
   */
  private void race(
      VaultKeyStore a,
      VaultKeyStore b,
      UnaryOperator<KeyMetadata> transition,
      String what,
      int writes,
      Map<String, Integer> outcomes)
      throws Exception {
    int writesBefore = lifecycleWrites();
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<String> results = new ArrayList<>();
    try {
      List<Future<String>> done = new ArrayList<>();
      for (VaultKeyStore replica : List.of(a, b)) {
        done.add(
            pool.submit(
                () -> {
                  KeyMetadata before = replica.readKey(KEY).orElseThrow();
                  KeyMetadata next = transition.apply(before);
                  start.await();
                  try {
                    replica.updateLifecycle(before, next);
                    return "winner";
                  } catch (CipherdException e) {
                    return "loser " + e.kind().name();
                  }
                }));
      }
      for (Future<String> f : done) {
        results.add(f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    results.forEach(r -> outcomes.merge(r, 1, Integer::sum));
    assertThat(results).as(what).containsOnlyOnce("winner");
    assertThat(lifecycleWrites() - writesBefore).as("Vault writes for " + what).isEqualTo(writes);
  }

  private static VaultKeyStore replica() {
    return VaultKeyStore.open(vault.config(PREFIX));
  }

  private static JsonObject apiData(String path) throws Exception {
    return Json.parse(vault.api("GET", path, null)).asObject().get("data").asObject();
  }

  private static int lifecycleWrites() throws Exception {
    String path = "secret/metadata/" + PREFIX + "/_lifecycle/" + KEY;
    return vault.exists(path) ? apiData(path).get("current_version").asInt() : 0;
  }
}
