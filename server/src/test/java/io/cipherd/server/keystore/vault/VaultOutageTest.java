package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.Cipherd;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.api.StatusMapper;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.cipherd.server.maintenance.KeyRefresher;
import io.cipherd.server.ops.Health;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Vault stopped under a running replica and started again: a server with file storage, so data
 * survives.
 */
@Tag("vault")
@Timeout(180)
class VaultOutageTest {
  @Test
  void
      vaultDown_cachedKeysKeepWorkingWithZeroVaultCalls_vaultOperationsFailFastAsUnavailable_thenRecover()
          throws Exception {
    try (VaultDevServer server = VaultDevServer.startWithFileStorage();
        Replica replica =
            new Replica(server.config("cipherd/keys", TokenAuth.of(server.rootToken())));
        Replica other =
            new Replica(server.config("cipherd/keys", TokenAuth.of(server.rootToken())));
        VaultErrorLog log = new VaultErrorLog()) {
      System.out.println(
          "Vault (file storage) started in " + server.lastStartTime().toMillis() + " ms");
      replica.keyRing.create("hot", KeyTemplate.of(CipherMode.GCM));
      ByteString before = replica.encrypt("hot", "before the outage");
      replica.decrypt(before);
      other.keyRing.create("cold", KeyTemplate.of(CipherMode.GCM)); // never used by `replica`

      server.stop();
      replica.store.resetCounts();

      for (int i = 0; i < 50; i++) {
        assertThat(replica.decrypt(replica.encrypt("hot", "during " + i))).isEqualTo("during " + i);
      }
      assertThat(replica.decrypt(before)).isEqualTo("before the outage");
      assertThat(replica.store.totalCalls()).as("the hot path never calls Vault").isZero();

      long started = System.nanoTime();
      assertThatThrownBy(() -> replica.keyRing.rotate("hot", KeyTemplate.defaults()))
          .isInstanceOf(KeyStoreUnavailableException.class)
          .hasMessage("the key store is unavailable; retry later")
          .satisfies(
              e ->
                  assertThat(StatusMapper.toStatus(e).getCode())
                      .isEqualTo(Status.Code.UNAVAILABLE));
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("fails fast")
          .isLessThan(Duration.ofSeconds(3));
      assertThatThrownBy(() -> replica.encrypt("cold", "needs Vault"))
          .isInstanceOf(KeyStoreUnavailableException.class)
          .hasMessage("the key store is unavailable; retry later");
      assertThat(String.join("\n", log.warnings()))
          .as("where, for the operator")
          .contains("Vault at " + server.address(), "cipherd/keys");
      assertThat(replica.keyRing.refreshCached())
          .as("the refresh fails and keeps the cache")
          .isEqualTo(1);
      assertThat(replica.decrypt(replica.encrypt("hot", "after a failed refresh")))
          .isEqualTo("after a failed refresh");

      server.restart();
      awaitVaultAnswers(replica);

      assertThat(replica.keyRing.rotate("hot", KeyTemplate.defaults()).currentVersion())
          .isEqualTo(2);
      assertThat(replica.versionOf(replica.encrypt("hot", "new version"))).isEqualTo(2);
      assertThat(replica.decrypt(before)).isEqualTo("before the outage");
      assertThat(replica.decrypt(replica.encrypt("cold", "back"))).isEqualTo("back");
      assertThat(replica.keyRing.refreshCached()).isZero();
    }
  }

  /**
   * What a Kubernetes replica meets: it started while Vault was up, other replicas took the traffic
   * (or made the keys), and then Vault went away. Every key it holds must serve from memory, not
   * only those it happened to use: a load balancer may send it any key's calls.
   */
  @Test
  void vaultDown_aReplicaServesKeysItNeverUsed_loadedAtStartAndByTheRefresher() throws Exception {
    try (VaultDevServer server = VaultDevServer.startWithFileStorage();
        Replica busy =
            new Replica(server.config("cipherd/keys", TokenAuth.of(server.rootToken())));
        Replica idle =
            new Replica(server.config("cipherd/keys", TokenAuth.of(server.rootToken())))) {
      busy.keyRing.create("before", KeyTemplate.of(CipherMode.GCM));
      ByteString v1 = busy.encrypt("before", "made with v1");
      busy.keyRing.rotate("before", KeyTemplate.defaults());
      ByteString v2 = busy.encrypt("before", "made with v2");

      // The idle replica starts as Main starts it: every key loaded before it is ready.
      try (KeyRefresher refresher =
          KeyRefresher.start(
              idle.keyRing.cache(), idle.store, new Health(), Duration.ofMillis(200))) {
        assertThat(idle.keyRing.isCached("before", 0)).as("loaded at start").isTrue();
        busy.keyRing.create("later", KeyTemplate.of(CipherMode.GCM));
        ByteString later = busy.encrypt("later", "made after the idle one started");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!idle.keyRing.isCached("later", 0)) {
          assertThat(System.nanoTime()).as("the refresher loads new keys").isLessThan(deadline);
          Thread.sleep(50);
        }
        refresher.close();
        server.stop();
        idle.store.resetCounts();

        assertThat(idle.decrypt(v1)).isEqualTo("made with v1");
        assertThat(idle.decrypt(v2)).isEqualTo("made with v2");
        assertThat(idle.decrypt(later)).isEqualTo("made after the idle one started");
        assertThat(idle.decrypt(idle.encrypt("before", "during"))).isEqualTo("during");
        assertThat(idle.versionOf(idle.encrypt("before", "current"))).isEqualTo(2);
        assertThat(idle.decrypt(idle.encrypt("later", "during"))).isEqualTo("during");
        assertThat(idle.store.totalCalls()).as("served from memory alone").isZero();
      }
    }
  }

  @Test
  void healthService_reportsTheKeyStoreNotServingWhileVaultIsDown_andServingAgainAfterItIsBack()
      throws Exception {
    try (VaultDevServer server = VaultDevServer.startWithFileStorage();
        Cipherd services =
            Cipherd.builder(
                    VaultKeyStore.open(
                        server.config("cipherd/keys", TokenAuth.of(server.rootToken()))))
                .subjectStore(new MemorySubjectStore())
                .limits(new RequestLimits(64))
                .blockingThreads(2)
                .blockingQueue(16)
                .build()) {
      String name = InProcessServerBuilder.generateName();
      Server grpc =
          services.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
      ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
      try {
        HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
        services.refreshKeysEvery(Duration.ofMillis(200));
        awaitKeyStoreHealth(health, ServingStatus.SERVING);

        System
            .gc(); // a gauge whose state only Micrometer holds (weakly) would read NaN from here on
        assertThat(services.metrics().scrape()).contains("cipherd_keystore_reachable 1.0");

        server.stop();
        awaitKeyStoreHealth(health, ServingStatus.NOT_SERVING);
        assertThat(services.metrics().scrape()).contains("cipherd_keystore_reachable 0.0");

        server.restart();
        awaitKeyStoreHealth(health, ServingStatus.SERVING);
        assertThat(services.metrics().scrape()).contains("cipherd_keystore_reachable 1.0");
      } finally {
        channel.shutdownNow();
        grpc.shutdownNow();
      }
    }
  }

  /** The store fails fast for a moment after Vault was unreachable; wait until that has passed. */
  private static void awaitVaultAnswers(Replica replica) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      try {
        replica.vault.listKeyNames();
        return;
      } catch (KeyStoreUnavailableException stillDown) {
        if (System.nanoTime() > deadline) {
          throw stillDown;
        }
        Thread.sleep(100);
      }
    }
  }

  private static void awaitKeyStoreHealth(
      HealthGrpc.HealthBlockingStub health, ServingStatus expected) throws InterruptedException {
    HealthCheckRequest request =
        HealthCheckRequest.newBuilder().setService(Health.KEY_STORE).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    ServingStatus status = null;
    while (System.nanoTime() < deadline) {
      status = health.check(request).getStatus();
      if (status == expected) {
        return;
      }
      Thread.sleep(100);
    }
    assertThat(status).isEqualTo(expected);
  }
}
