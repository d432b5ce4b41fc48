package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyCensusResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.Cipherd;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Usage limits and automatic rotation with two replicas sharing a real Vault: counts merge across
 * replicas through Vault, and a limit reached on both at once rotates the key exactly once.
 */
@Tag("vault")
@Timeout(180)
class AutoRotationVaultTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T12:00:00Z"));
  private VaultDevServer vault;
  private ReplicaServer a;
  private ReplicaServer b;

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    a = new ReplicaServer(vault, clock);
    b = new ReplicaServer(vault, clock);
  }

  @AfterEach
  void stop() throws Exception {
    a.close();
    b.close();
    vault.close();
  }

  @Test
  void maxEncryptionsPerVersion_reachedAcrossReplicas_passedByAtMostOneBlock_andRotatesOnce()
      throws Exception {
    a.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName("orders")
            .setPolicy(KeyPolicy.newBuilder().setMaxEncryptionsPerVersion(100))
            .build());
    List<String> ciphertexts = new ArrayList<>();
    // 60 on each replica: neither reaches 100 alone, together they do. A cap of 100 is a block of
    // one: each replica merges its last encryption through Vault before it makes the next.
    for (int i = 0; i < 60; i++) {
      ciphertexts.add(encrypt(a, "a" + i));
      ciphertexts.add(encrypt(b, "b" + i));
    }
    int rotations = 0;
    for (int i = 0; i < 3; i++) {
      rotations += race(a.services::maintainKeysNow, b.services::maintainKeysNow);
    }

    Key key = a.admin.getKey(GetKeyRequest.newBuilder().setKeyName("orders").build()).getKey();
    assertThat(key.getCurrentVersion())
        .as("rotated once, by the encryption past the cap")
        .isEqualTo(2);
    // Each replica may hold one unmerged encryption the other cannot see: 100 + (2 - 1) blocks.
    long v1 = key.getVersions(0).getUsage().getEncryptions();
    assertThat(v1).isBetween(100L, 101L);
    assertThat(key.getVersions(1).getUsage().getEncryptions()).isEqualTo(120 - v1);
    assertThat(ciphertexts.stream().filter(c -> versionOf(c) == 1)).hasSize((int) v1);
    assertThat(rotations).as("rotations left for maintenance").isZero();
    assertThat(decrypt(b, ciphertexts.get(0))).isEqualTo("a0");
  }

  @Test
  void maxEncryptionsPerVersion_concurrentCallsOnTwoReplicas_passItByAtMostOneBlock()
      throws Exception {
    a.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName("orders")
            .setPolicy(KeyPolicy.newBuilder().setMaxEncryptionsPerVersion(50))
            .build());
    ExecutorService threads = Executors.newFixedThreadPool(6);
    List<Future<List<String>>> calls = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    try {
      for (int t = 0; t < 6; t++) {
        ReplicaServer replica = t % 2 == 0 ? a : b;
        calls.add(
            threads.submit(
                () -> {
                  go.await();
                  List<String> made = new ArrayList<>();
                  for (int i = 0; i < 40; i++) {
                    made.add(encrypt(replica, "item"));
                  }
                  return made;
                }));
      }
      go.countDown();
      Map<Integer, Integer> perVersion = new TreeMap<>();
      for (Future<List<String>> call : calls) {
        for (String ciphertext : call.get()) {
          perVersion.merge(versionOf(ciphertext), 1, Integer::sum);
        }
      }
      a.services.maintainKeysNow();
      b.services.maintainKeysNow();

      // Two replicas, a block of one each (50 / 1024 rounds up to 1): at most 50 + 1 per version.
      assertThat(perVersion.values()).allMatch(n -> n <= 51);
      assertThat(perVersion.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(240);
      Key key = b.admin.getKey(GetKeyRequest.newBuilder().setKeyName("orders").build()).getKey();
      for (var version : key.getVersionsList()) {
        assertThat(version.getUsage().getEncryptions())
            .as("version %d's merged count", version.getVersion())
            .isEqualTo(perVersion.getOrDefault(version.getVersion(), 0).longValue());
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void autoRotatePeriod_passedOnBothReplicas_rotatesExactlyOnce() throws Exception {
    a.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName("sessions")
            .setPolicy(KeyPolicy.newBuilder().setAutoRotatePeriod(Durations.fromSeconds(3600)))
            .build());
    encrypt(a, "warm a");
    encrypt(b, "warm b");
    assertThat(race(a.services::maintainKeysNow, b.services::maintainKeysNow))
        .as("not yet an hour")
        .isZero();

    clock.advance(Duration.ofMinutes(61));
    int rotations = 0;
    for (int i = 0; i < 3; i++) {
      rotations += race(a.services::maintainKeysNow, b.services::maintainKeysNow);
    }

    assertThat(rotations).as("rotations made by either replica").isEqualTo(1);
    assertThat(
            a.admin
                .getKey(GetKeyRequest.newBuilder().setKeyName("sessions").build())
                .getKey()
                .getCurrentVersion())
        .isEqualTo(2);
    assertThat(versionOf(encrypt(b, "new"))).isEqualTo(2);
  }

  @Test
  void census_countsDecryptsAndRewrapsOfEveryReplica_andSaysHowFarTheMinimumCanRise()
      throws Exception {
    a.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("ledger").build());
    String old = encrypt(a, "v1 row");
    a.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("ledger").build());
    b.services.forgetKeys();
    decrypt(b, old);
    decrypt(a, old);
    a.crypto.reEncrypt(ReEncryptRequest.newBuilder().setCiphertext(old).build());
    race(a.services::maintainKeysNow, b.services::maintainKeysNow);

    GetKeyCensusResponse census =
        b.admin.getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("ledger").build());

    assertThat(census.getVersionsList()).extracting(v -> v.getVersion()).containsExactly(1, 2);
    assertThat(census.getVersions(0).getUsage().getDecryptions()).isEqualTo(3);
    assertThat(census.getVersions(0).getUsage().getRewraps()).isEqualTo(1);
    assertThat(census.getVersions(0).getInUse()).isTrue();
    assertThat(census.getSafeMinDecryptionVersion()).isEqualTo(1);

    clock.advance(Duration.ofDays(8));
    assertThat(
            b.admin
                .getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("ledger").build())
                .getSafeMinDecryptionVersion())
        .as("after a week without use of version 1")
        .isEqualTo(2);
  }

  /** Runs both at the same moment; returns the sum of what they return. */
  private static int race(Callable<Integer> first, Callable<Integer> second) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch go = new CountDownLatch(1);
      Future<Integer> one =
          threads.submit(
              () -> {
                go.await();
                return first.call();
              });
      Future<Integer> two =
          threads.submit(
              () -> {
                go.await();
                return second.call();
              });
      go.countDown();
      return one.get() + two.get();
    } finally {
      threads.shutdownNow();
    }
  }

  private static String encrypt(ReplicaServer replica, String plaintext) {
    String key = replica.lastKey();
    return replica
        .crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setPlaintext(ByteString.copyFromUtf8(plaintext))
                .build())
        .getCiphertext();
  }

  private static String decrypt(ReplicaServer replica, String ciphertext) {
    return replica
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
        .getPlaintext()
        .toStringUtf8();
  }

  private static int versionOf(String ciphertext) {
    return Integer.parseInt(
        ciphertext.substring(ciphertext.indexOf("/v") + 2, ciphertext.indexOf(':')));
  }

  /** One replica: its own Cipherd over its own Vault session, served in-process. */
  private static final class ReplicaServer implements AutoCloseable {
    final Cipherd services;
    final Server server;
    final ManagedChannel channel;
    final CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
    final KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin;

    ReplicaServer(VaultDevServer vault, Clock clock) throws Exception {
      services =
          Cipherd.builder(
                  VaultKeyStore.open(vault.config("cipherd/keys", TokenAuth.of(vault.rootToken()))))
              .subjectStore(new MemorySubjectStore())
              .clock(clock)
              .build();
      String name = InProcessServerBuilder.generateName();
      server =
          services.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
      channel = InProcessChannelBuilder.forName(name).directExecutor().build();
      crypto = CryptoServiceGrpc.newBlockingStub(channel);
      admin = KeyAdminServiceGrpc.newBlockingStub(channel);
    }

    /** The one key each test uses. */
    String lastKey() {
      return admin.listKeys(ListKeysRequest.getDefaultInstance()).getKeys(0).getKeyName();
    }

    @Override
    public void close() throws Exception {
      channel.shutdownNow();
      server.shutdownNow();
      services.close();
    }
  }
}
