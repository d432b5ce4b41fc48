package io.cipherd.server.keycache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.lifecycle.KeyAdmin;
import io.cipherd.server.usage.UsageLedger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The key cache: policy enforcement on use, store calls only on misses, refreshes, and writes
 * cached in store order.
 */
class KeyCacheTest {
  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final byte[] CONTEXT = "tenant=42".getBytes(StandardCharsets.UTF_8);

  private final InMemoryKeyStore memory = new InMemoryKeyStore();
  private final CountingKeyStore store = new CountingKeyStore(memory);
  private final Keys ring = Keys.over(store, Clock.fixed(NOW, ZoneOffset.UTC));

  @AfterEach
  void closePools() {
    ring.close();
  }

  private String encrypt(String name, int version, String plaintext) {
    return ring.encrypt(name, version, plaintext, CONTEXT);
  }

  private String decrypt(String ciphertext) {
    return ring.decrypt(ciphertext, CONTEXT);
  }

  private KeyMetadata createGcm(String name) {
    return ring.create(name, KeyTemplate.defaults());
  }

  /**
   * Stops a rotation after the store has its new version but before the ring caches the result,
   * runs {@code overlapping} meanwhile, then lets the rotation finish. Waits up to 300 ms for
   * {@code overlapping} before letting go: it may finish first, as it can in production when the
   * rotating thread is descheduled, or it may be made to wait for the rotation.
   */
  private void overlapWithRotation(String name, Callable<?> overlapping) throws Exception {
    CountDownLatch stored = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.afterNextAddVersion(
        () -> {
          stored.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<KeyMetadata> rotation =
          threads.submit(() -> ring.rotate(name, KeyTemplate.defaults()));
      assertThat(stored.await(5, TimeUnit.SECONDS)).isTrue();
      Future<?> other = threads.submit(overlapping);
      try {
        other.get(300, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        // Waiting for the rotation to finish: also correct.
      }
      release.countDown();
      rotation.get(5, TimeUnit.SECONDS);
      other.get(5, TimeUnit.SECONDS);
    } finally {
      release.countDown();
      threads.shutdownNow();
    }
  }

  @Test
  @Timeout(20)
  void policyUpdateOverlappingARotation_cachedKeyEndsWithTheNewPolicy() throws Exception {
    createGcm("k");
    String v1 = encrypt("k", 0, "old");

    overlapWithRotation("k", () -> ring.updatePolicy("k", new KeyPolicy(2, 0, false)));

    assertThat(memory.readKey("k").orElseThrow().policy().minDecryptionVersion()).isEqualTo(2);
    assertThat(ring.describe("k").policy().minDecryptionVersion()).isEqualTo(2);
    assertThatThrownBy(() -> decrypt(v1)).isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  @Timeout(20)
  void twoOverlappingRotations_cachedKeyEndsAtTheNewestVersion() throws Exception {
    createGcm("k");

    overlapWithRotation("k", () -> ring.rotate("k", KeyTemplate.defaults()));

    assertThat(memory.readKey("k").orElseThrow().currentVersion()).isEqualTo(3);
    assertThat(ring.describe("k").currentVersion()).isEqualTo(3);
    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(3);
  }

  @Test
  void forEncryption_ecbWithoutAllowEcbEncryption_isRefused_butEcbStillDecrypts() {
    ring.create(
        "legacy",
        KeyTemplate.of(CipherMode.ECB).allowingUnauthenticated(),
        new KeyPolicy(0, 0, true));
    String ciphertext = encrypt("legacy", 0, "old data");

    ring.updatePolicy("legacy", KeyPolicy.DEFAULT);

    assertThatThrownBy(() -> ring.forEncryption("legacy", 0))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("allow_ecb_encryption");
    assertThat(decrypt(ciphertext)).isEqualTo("old data");
  }

  @Test
  void forEncryption_explicitVersion_honoursMinEncryptionVersion() {
    createGcm("k");
    ring.rotate("k", KeyTemplate.defaults());
    ring.rotate("k", KeyTemplate.defaults());
    ring.updatePolicy("k", new KeyPolicy(0, 2, false));

    assertThatThrownBy(() -> ring.forEncryption("k", 1))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("min_encryption_version");
    assertThat(ring.forEncryption("k", 2).header().version()).isEqualTo(2);
    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(3);
  }

  @Test
  void forEncryption_explicitVersionBelowMinDecryptionVersion_isRefused() {
    createGcm("k");
    ring.rotate("k", KeyTemplate.defaults());
    ring.updatePolicy("k", new KeyPolicy(2, 0, false));

    assertThatThrownBy(() -> ring.forEncryption("k", 1))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  void forEncryption_pinnedVersionAtItsEncryptionLimit_isRefused_evenAfterRotation() {
    ring.create("k", KeyTemplate.of(CipherMode.GCM), limitOf(3));
    recordEncryptions("k", 1, 3);
    ring.rotate("k", KeyTemplate.defaults());
    store.resetCounts();

    assertThatThrownBy(() -> ring.forEncryption("k", 1))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("version 1 of key 'k' has reached its limit of 3 encryptions")
        .hasMessageContaining("encrypt with the key's current version");
    assertThat(store.totalCalls()).as("the refusal reads counts, not the store").isZero();
    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(2);
    assertThat(ring.forEncryption("k", 2).header().version()).isEqualTo(2);
    assertThat(store.calls("readMaterial")).as("v2's key bytes").isEqualTo(1);
    assertThat(store.calls("addUsage"))
        .as("a cap of 3 holds one unmerged reservation at a time: the second merges the first")
        .isEqualTo(1);
  }

  @Test
  void forEncryption_currentVersionAtItsLimitBeforeAutomaticRotation_isRefused() {
    ring.create("k", KeyTemplate.of(CipherMode.GCM), limitOf(3));
    recordEncryptions("k", 1, 2);
    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(1);

    recordEncryptions("k", 1, 1);

    assertThatThrownBy(() -> ring.forEncryption("k", 0))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("limit of 3 encryptions (max_encryptions_per_version)");
    assertThat(ring.admin().rotateIfDue("k")).isEqualTo(2);
    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(2);
  }

  @Test
  void forEncryption_smallCap_countsWhatOtherReplicasMergedBeforeReservingMore() {
    ring.create("k", KeyTemplate.of(CipherMode.GCM), limitOf(10));
    recordEncryptions("k", 1, 3);
    UsageLedger otherReplica = new UsageLedger(memory, Clock.fixed(NOW, ZoneOffset.UTC));
    for (int i = 0; i < 7; i++) {
      assertThat(otherReplica.reserveEncryption("k", 1, Long.MAX_VALUE)).isTrue();
    }
    otherReplica.merge();

    assertThatThrownBy(() -> ring.forEncryption("k", 1))
        .as("a cap of 10 is a block of 1: the 3 here are merged first, and the store has 10")
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("limit of 10 encryptions");
    assertThat(memory.readUsage("k").get(1).encryptions()).isEqualTo(10);
  }

  @Test
  void forEncryption_largeCap_reservesABlockBetweenMerges_thenMerges() {
    ring.create("k", KeyTemplate.of(CipherMode.GCM), limitOf(4 * UsageLedger.BLOCKS_PER_LIMIT));
    store.resetCounts();

    for (int i = 0; i < 4; i++) {
      ring.forEncryption("k", 0);
    }
    assertThat(store.calls("addUsage")).as("a block of 4 held unmerged").isZero();
    ring.forEncryption("k", 0);

    assertThat(store.calls("addUsage")).as("the fifth merged the block first").isEqualTo(1);
    assertThat(memory.readUsage("k").get(1).encryptions()).isEqualTo(4);
  }

  @Test
  void forEncryption_currentVersionAtItsCap_rotatesByPolicy_andUsesTheNewVersion() {
    ring.cache().rotateWhenCapped(ring.admin()::rotateIfDue);
    ring.create("k", KeyTemplate.of(CipherMode.GCM), limitOf(3));

    List<Integer> versions = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      versions.add(ring.forEncryption("k", 0).header().version());
    }

    assertThat(versions).containsExactly(1, 1, 1, 2, 2, 2, 3);
    assertThatThrownBy(() -> ring.forEncryption("k", 1))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("version 1 of key 'k' has reached its limit of 3");
  }

  @Test
  void unusedEncryption_givesItsReservationBack() {
    ring.create("k", KeyTemplate.of(CipherMode.GCM), limitOf(1));
    UsableKey key = ring.forEncryption("k", 0);

    ring.cache().unusedEncryption(key);

    assertThat(ring.forEncryption("k", 0).header().version()).isEqualTo(1);
    assertThatThrownBy(() -> ring.forEncryption("k", 0))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  void forEncryption_gcmWithoutALimitSet_isCappedAtTheRandomNonceBound() {
    createGcm("k");
    memory.addUsage(
        "k", Map.of(1, new VersionUsage(CipherMode.GCM.encryptionLimit(), 0, 0, 0, NOW)));
    recordEncryptions("k", 1, 1);
    ring.usage().merge();

    assertThatThrownBy(() -> ring.forEncryption("k", 0))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("random 96-bit nonces");
  }

  private static KeyPolicy limitOf(long maxEncryptionsPerVersion) {
    return new KeyPolicy(0, 0, false, Duration.ZERO, maxEncryptionsPerVersion);
  }

  /** Counts encryptions as the crypto engine's usage observer does after each one. */
  private void recordEncryptions(String name, int version, int times) {
    for (int i = 0; i < times; i++) {
      // As an encryption reserves itself, against no limit and past the counting store.
      assertThat(ring.usage().reserveEncryption(name, version, Long.MAX_VALUE)).isTrue();
    }
  }

  @Test
  void forEncryption_unknownVersionOrKey_throwsKeyNotFound_negativeVersionIsInvalid() {
    createGcm("k");

    assertThatThrownBy(() -> ring.forEncryption("k", 2)).isInstanceOf(KeyNotFoundException.class);
    assertThatThrownBy(() -> ring.forEncryption("nope", 0))
        .isInstanceOf(KeyNotFoundException.class);
    assertThatThrownBy(() -> ring.forEncryption("k", -1))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void
      unknownVersionOrKey_costsOneStoreReadPerKeyPerTtl_andAVersionAddedElsewhereIsUsableAfterIt() {
    SettableClock clock = new SettableClock(NOW);
    KeyCache cache = new KeyCache(store, new UsageLedger(store, clock), clock);
    createGcm("k");
    cache.forEncryption("k", 0);
    store.resetCounts();

    for (int i = 0; i < 100; i++) {
      int version = 999 - i;
      assertThatThrownBy(
              () -> cache.forDecryption(new EnvelopeHeader("k", version, CipherMode.GCM)))
          .isInstanceOf(KeyNotFoundException.class);
      assertThatThrownBy(() -> cache.describe("ghost")).isInstanceOf(KeyNotFoundException.class);
    }
    assertThat(store.calls("readKey")).as("one read of k, one of ghost").isEqualTo(2);
    assertThat(cache.isCached("k", 999)).as("the answer is in memory").isTrue();

    Keys otherReplica = Keys.over(memory, Clock.fixed(NOW, ZoneOffset.UTC));
    otherReplica.rotate("k", KeyTemplate.defaults());
    otherReplica.create("ghost", KeyTemplate.defaults());
    assertThatThrownBy(() -> cache.forDecryption(new EnvelopeHeader("k", 2, CipherMode.GCM)))
        .as("within the TTL")
        .isInstanceOf(KeyNotFoundException.class);
    assertThat(store.calls("readKey")).isEqualTo(2);

    clock.advance(KeyCache.NOT_FOUND_TTL);

    assertThat(cache.forDecryption(new EnvelopeHeader("k", 2, CipherMode.GCM)).header().version())
        .isEqualTo(2);
    assertThat(cache.describe("ghost").currentVersion()).isEqualTo(1);
  }

  @Test
  void unknownKey_createdThroughThisCache_isUsableAtOnce() {
    SettableClock clock = new SettableClock(NOW);
    UsageLedger usage = new UsageLedger(store, clock);
    KeyCache cache = new KeyCache(store, usage, clock);
    KeyAdmin admin = new KeyAdmin(store, cache, clock, usage);
    assertThatThrownBy(() -> cache.forEncryption("new", 0))
        .isInstanceOf(KeyNotFoundException.class);
    assertThatThrownBy(() -> cache.forEncryption("new", 2))
        .isInstanceOf(KeyNotFoundException.class);

    admin.create("new", KeyTemplate.defaults());
    assertThat(cache.forEncryption("new", 0).header().version()).isEqualTo(1);
    assertThatThrownBy(() -> cache.forEncryption("new", 2))
        .isInstanceOf(KeyNotFoundException.class);
    admin.rotate("new", KeyTemplate.defaults());

    assertThat(cache.forEncryption("new", 2).header().version()).isEqualTo(2);
  }

  @Test
  void forDecryption_headerModeDifferentFromTheVersionsMode_failsAsDecryptionFailure() {
    createGcm("k");
    String gcm = encrypt("k", 0, "data");
    String relabelled = gcm.replace("<k/v1:gcm>", "<k/v1:ctr>"); // a well-formed ctr envelope

    assertThatThrownBy(() -> decrypt(relabelled)).isInstanceOf(DecryptionFailedException.class);
    assertThatThrownBy(() -> ring.forDecryption(new EnvelopeHeader("k", 1, CipherMode.CHACHA)))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @Test
  void forDecryption_unknownVersion_throwsKeyNotFound() {
    createGcm("k");

    assertThatThrownBy(() -> ring.forDecryption(new EnvelopeHeader("k", 2, CipherMode.GCM)))
        .isInstanceOf(KeyNotFoundException.class);
  }

  @Test
  void cachedKey_encryptAndDecrypt_makeNoStoreCalls() {
    createGcm("k");
    String warmup = encrypt("k", 0, "warm up");
    decrypt(warmup);
    store.resetCounts();

    for (int i = 0; i < 100; i++) {
      assertThat(decrypt(encrypt("k", 0, "message " + i))).isEqualTo("message " + i);
    }

    assertThat(store.totalCalls()).isZero();
    assertThat(ring.isCached("k", 0)).isTrue();
    assertThat(ring.isCached("k", 1)).isTrue();
  }

  @Test
  void firstUseAfterCreate_readsOnlyTheKeyBytesOnce() {
    createGcm("k");
    store.resetCounts();
    assertThat(ring.isCached("k", 0)).isFalse();

    decrypt(encrypt("k", 0, "x"));
    decrypt(encrypt("k", 0, "y"));

    assertThat(store.calls("readMaterial")).isEqualTo(1);
    assertThat(store.calls("readUsage")).as("the cap's totals, before the first").isEqualTo(1);
    assertThat(store.totalCalls()).isEqualTo(2); // the metadata was remembered from the create
  }

  @Test
  void uncachedKey_isLoadedFromTheStoreOnFirstUse() {
    memory.createKey(
        "k",
        new NewKeyVersion(KeyVersionInfo.generated(1, CipherMode.GCM, 256, NOW), new byte[32]),
        KeyPolicy.DEFAULT); // written by someone else, e.g. before a restart

    assertThat(decrypt(encrypt("k", 0, "hello"))).isEqualTo("hello");
    assertThat(store.calls("readKey")).isEqualTo(1);
    assertThat(store.calls("readMaterial")).isEqualTo(1);
  }

  @Test
  void refreshCached_seesARotationByAnotherReplica_andKeepsLoadedVersions() {
    createGcm("k");
    String v1 = encrypt("k", 0, "before");
    Keys otherReplica = Keys.over(memory, Clock.fixed(NOW, ZoneOffset.UTC));
    otherReplica.rotate("k", KeyTemplate.defaults());
    otherReplica.updatePolicy("k", new KeyPolicy(0, 2, false));
    assertThat(ring.describe("k").currentVersion()).isEqualTo(1); // cached, not yet refreshed

    assertThat(ring.refreshCached()).isZero();

    assertThat(ring.describe("k").currentVersion()).isEqualTo(2);
    assertThat(ring.describe("k").policy()).isEqualTo(new KeyPolicy(0, 2, false));
    assertThat(ParsedEnvelope.parse(encrypt("k", 0, "after")).header().version()).isEqualTo(2);
    store.resetCounts();
    assertThat(decrypt(v1)).isEqualTo("before");
    assertThat(store.totalCalls()).isZero(); // version 1 stayed loaded through the refresh
  }

  @Test
  void refreshCached_readsOnlyTheKeysInTheCache() {
    createGcm("a");
    createGcm("b");
    memory.createKey(
        "not-cached",
        new NewKeyVersion(KeyVersionInfo.generated(1, CipherMode.GCM, 256, NOW), new byte[32]),
        KeyPolicy.DEFAULT);
    store.resetCounts();

    ring.refreshCached();

    assertThat(store.calls("readKey")).isEqualTo(2);
    assertThat(store.totalCalls()).isEqualTo(2);
  }

  @Test
  void forDecryption_versionNewerThanTheCachedMetadata_isFetchedFromTheStoreOnDemand() {
    createGcm("k");
    encrypt("k", 0, "warm up");
    Keys otherReplica = Keys.over(memory, Clock.fixed(NOW, ZoneOffset.UTC));
    otherReplica.rotate("k", KeyTemplate.defaults());
    UsableKey v2 = otherReplica.forEncryption("k", 0);
    String fromOther =
        new ParsedEnvelope(
                v2.header(),
                ring.cipher()
                    .encrypt(
                        v2.header(),
                        v2.secret(),
                        CONTEXT,
                        "rotated elsewhere".getBytes(StandardCharsets.UTF_8)))
            .format();
    store.resetCounts();

    assertThat(ring.isCached("k", 2))
        .as("an unseen version needs the store, so the blocking pool")
        .isFalse();
    assertThat(decrypt(fromOther)).isEqualTo("rotated elsewhere");
    assertThat(store.calls("readKey")).isEqualTo(1);
    assertThat(store.calls("readMaterial")).isEqualTo(1);
    assertThat(ring.isCached("k", 2)).isTrue();
    assertThatThrownBy(() -> ring.forDecryption(new EnvelopeHeader("k", 3, CipherMode.GCM)))
        .isInstanceOf(KeyNotFoundException.class);
  }

  @Test
  void preload_loadsKeysThisReplicaNeverUsed_soTheyServeWithNoStoreCall_andCountsNoCacheRequest() {
    Keys otherReplica = Keys.over(memory, Clock.fixed(NOW, ZoneOffset.UTC));
    otherReplica.create("a", KeyTemplate.defaults());
    String v1 = otherReplica.encrypt("a", 0, "made with v1", CONTEXT);
    otherReplica.rotate("a", KeyTemplate.defaults());
    otherReplica.create("b", KeyTemplate.defaults());
    String fromB = otherReplica.encrypt("b", 0, "made with b", CONTEXT);
    assertThat(ring.isCached("a", 0)).isFalse();

    assertThat(ring.cache().preload(List.of("a", "b", "deleted-meanwhile")))
        .as("a's two versions and b's one")
        .isEqualTo(3);
    assertThat(ring.cache().cacheHits() + ring.cache().cacheMisses())
        .as("a preload is not a cache request")
        .isZero();
    assertThat(ring.isCached("a", 0)).isTrue();
    assertThat(ring.isCached("a", 1)).isTrue();
    assertThat(ring.isCached("b", 0)).isTrue();

    store.resetCounts();
    assertThat(ring.cache().preload(memory.listKeyNames())).as("all in memory already").isZero();
    assertThat(store.totalCalls()).isZero();
    assertThat(decrypt(v1)).isEqualTo("made with v1");
    assertThat(decrypt(fromB)).isEqualTo("made with b");
    assertThat(decrypt(encrypt("a", 0, "with v2"))).isEqualTo("with v2");
    assertThat(store.totalCalls()).as("served from memory alone").isZero();
  }
}
