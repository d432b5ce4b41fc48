package io.cipherd.server.subjectkeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.subjects.CountingSubjectStore;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRef;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/**
 * {@link SubjectKeys} over a {@link MemorySubjectStore} with a wrapping that needs no key store:
 * the hash, the cache and its TTL across two replicas, erasure, renewal and the creation rate.
 */
class SubjectKeysTest {
  private static final byte[] AUDIT_KEY = new byte[32];

  /** Wraps by prefixing the key's hex with the version: enough to tell keys apart, no crypto. */
  private static final class FakeWrapping implements SubjectKeyWrapping {
    final AtomicInteger unwraps = new AtomicInteger();
    int version = 1;

    @Override
    public Wrapped wrap(String keyName, SubjectRef ref, byte[] key) {
      return new Wrapped("v" + version + ":" + HexFormat.of().formatHex(key), version);
    }

    @Override
    public byte[] unwrap(String wrapped, SubjectRef ref) {
      unwraps.incrementAndGet();
      return HexFormat.of().parseHex(wrapped.substring(wrapped.indexOf(':') + 1));
    }
  }

  private final MemorySubjectStore store = new MemorySubjectStore();
  private final FakeWrapping wrapping = new FakeWrapping();

  private SubjectKeys replica(Duration ttl, int rate) {
    return new SubjectKeys(
        store,
        () -> new SubjectHasher(AUDIT_KEY),
        new SubjectKeysConfig(100, ttl, rate),
        Clock.systemUTC());
  }

  private static SubjectKey key(Map<SubjectHash, Object> resolved, SubjectHash subject) {
    Object r = resolved.get(subject);
    assertThat(r).isInstanceOf(SubjectKey.class);
    return (SubjectKey) r;
  }

  @Test
  void hash_isTheSameForEveryReplicaOfTheKeyStore_andDiffersPerSubject() {
    SubjectHasher one = new SubjectHasher(AUDIT_KEY);
    SubjectHasher two = new SubjectHasher(AUDIT_KEY.clone());
    byte[] otherKey = new byte[32];
    otherKey[0] = 1;

    assertThat(one.hash("subject", "user-1")).isEqualTo(two.hash("subject", "user-1"));
    assertThat(one.hash("subject", "user-1")).isNotEqualTo(one.hash("subject", "user-2"));
    assertThat(new SubjectHasher(otherKey).hash("subject", "user-1"))
        .isNotEqualTo(one.hash("subject", "user-1"));
  }

  @Test
  void hash_refusesEmptyAndOverlongIds_withoutEchoingThem() {
    SubjectHasher hasher = new SubjectHasher(AUDIT_KEY);
    assertThatThrownBy(() -> hasher.hash("subject", ""))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessage("subject is empty");
    // 86 three-byte characters: 258 bytes of UTF-8, 86 chars.
    assertThatThrownBy(() -> hasher.hash("subject", "€".repeat(86)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("256 bytes")
        .hasMessageNotContaining("€");
    assertThat(hasher.hash("subject", "€".repeat(85))).isNotNull();
    // A lone surrogate is not UTF-8; a pair is (4 bytes), and hashes as its encoder's bytes.
    assertThatThrownBy(() -> hasher.hash("subject", "user-\uD800"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessage("subject is not valid UTF-8");
    assertThat(hasher.hash("subject", "user-\uD83D\uDE00"))
        .isEqualTo(hasher.hash("user-\uD83D\uDE00".getBytes(StandardCharsets.UTF_8)))
        .isNotEqualTo(hasher.hash("subject", "user-"));
    assertThat(hasher.hash("subject", "a".repeat(256))).isNotNull();
    assertThatThrownBy(() -> hasher.hash("subject", "a".repeat(257)))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void aBatchOfNewSubjects_isOneFindAndOneCreate_andTheSameKeysNextTime() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    List<SubjectHash> subjects = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      subjects.add(keys.hash("subject", "user-" + i));
    }
    Map<SubjectHash, Object> first = keys.forEncryption("users", subjects, false, "app", wrapping);
    Map<SubjectHash, Object> again = keys.forEncryption("users", subjects, false, "app", wrapping);

    assertThat(store.countByWrapVersion("users")).isEqualTo(Map.of(1, 50L));
    for (SubjectHash subject : subjects) {
      assertThat(key(again, subject).ref()).isEqualTo(key(first, subject).ref());
    }
    // Cached: nothing was unwrapped.
    assertThat(wrapping.unwraps).hasValue(0);
  }

  @Test
  void anotherReplicasErasure_reachesABatchUnderWayAtItsEnd_andTheNextBatchAtOnce()
      throws Exception {
    SubjectKeys here = replica(Duration.ofMinutes(1), 0);
    SubjectKeys there = replica(Duration.ofMillis(300), 0);
    SubjectHash ada = here.hash("subject", "ada");
    SubjectRef ref =
        key(here.forEncryption("users", List.of(ada), false, "app", wrapping), ada).ref();

    SubjectKey lastInBatch =
        SubjectClock.batch(
            () -> {
              there.forDecryption("users", ref, wrapping);
              here.erase("users", List.of(ada));
              sleep(400); // past there's TTL, within the batch
              return there.forDecryption("users", ref, wrapping);
            });

    assertThat(lastInBatch.ref()).isEqualTo(ref);
    assertThatThrownBy(() -> SubjectClock.batch(() -> there.forDecryption("users", ref, wrapping)))
        .isInstanceOf(SubjectErasedException.class);
  }

  @Test
  void aBatchThatWaitsForTheStore_judgesItsLaterItemsWhenTheStoreAnswered() throws Exception {
    SubjectKeys here = replica(Duration.ofMinutes(1), 0);
    CountingSubjectStore slow = new CountingSubjectStore(store);
    SubjectKeys there =
        new SubjectKeys(
            slow,
            () -> new SubjectHasher(AUDIT_KEY),
            new SubjectKeysConfig(100, Duration.ofMillis(300), 0),
            Clock.systemUTC());
    SubjectHash ada = here.hash("subject", "ada");
    SubjectHash bob = here.hash("subject", "bob");
    Map<SubjectHash, Object> created =
        here.forEncryption("users", List.of(ada, bob), false, "app", wrapping);
    SubjectRef adaRef = key(created, ada).ref();
    SubjectRef bobRef = key(created, bob).ref();

    assertThatThrownBy(
            () ->
                SubjectClock.batch(
                    () -> {
                      there.forDecryption("users", adaRef, wrapping);
                      here.erase("users", List.of(ada));
                      slow.latency(Duration.ofMillis(400)); // past there's TTL: a stall
                      // Bob is not cached there: his row is read, and the batch waits for it.
                      there.forDecryption("users", bobRef, wrapping);
                      return there.forDecryption("users", adaRef, wrapping);
                    }))
        .isInstanceOf(SubjectErasedException.class);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void anErasure_isHonouredAtOnceHere_andByAnotherReplicaWithinItsTtl() throws Exception {
    SubjectKeys here = replica(Duration.ofMinutes(1), 0);
    SubjectKeys there = replica(Duration.ofMillis(300), 0);
    SubjectHash ada = here.hash("subject", "ada");
    SubjectRef ref =
        key(here.forEncryption("users", List.of(ada), false, "app", wrapping), ada).ref();
    there.forDecryption("users", ref, wrapping);

    List<SubjectErasure> erased = here.erase("users", List.of(ada));

    assertThat(erased.get(0).outcome()).isEqualTo(SubjectErasure.Outcome.ERASED);
    assertThatThrownBy(() -> here.forDecryption("users", ref, wrapping))
        .isInstanceOf(SubjectErasedException.class);
    // The other replica may use its cached key until its TTL ends, and not after.
    Thread.sleep(400);
    assertThatThrownBy(() -> there.forDecryption("users", ref, wrapping))
        .isInstanceOf(SubjectErasedException.class);
    assertThat(here.forEncryption("users", List.of(ada), false, "app", wrapping).get(ada))
        .isInstanceOf(SubjectErasedException.class);
    SubjectKey renewed = key(here.forEncryption("users", List.of(ada), true, "app", wrapping), ada);
    assertThat(renewed.ref()).isNotEqualTo(ref);
    // The old data stays erased.
    assertThatThrownBy(() -> here.forDecryption("users", ref, wrapping))
        .isInstanceOf(SubjectErasedException.class);
  }

  @Test
  void aKeyTheCacheDropsForAge_staysWhole_forTheCallStillHoldingIt() throws Exception {
    // A batch holds its subjects' keys for all its items. The cache used to overwrite a key it
    // dropped for size or age, so a batch's later items were sealed under zeros (and a cold
    // Decrypt failed now and then); only an erasure may overwrite a key in use.
    SubjectKeys keys = replica(Duration.ofMillis(1), 0);
    SubjectHash ada = keys.hash("subject", "ada");
    SubjectKey held = key(keys.forEncryption("users", List.of(ada), false, "app", wrapping), ada);
    byte[] before = held.secretFor(CipherMode.GCM, true).getEncoded();

    Thread.sleep(20);
    for (int i = 0; i < 200; i++) {
      keys.forEncryption(
          "users", List.of(keys.hash("subject", "user-" + i)), false, "app", wrapping);
    }
    SubjectKey again = key(keys.forEncryption("users", List.of(ada), false, "app", wrapping), ada);
    Thread.sleep(200); // Caffeine tells its listeners on another thread

    assertThat(wrapping.unwraps.get()).as("ada's key was dropped and read again").isPositive();
    assertThat(again).isNotSameAs(held);
    assertThat(held.secretFor(CipherMode.GCM, true).getEncoded())
        .isEqualTo(before)
        .isNotEqualTo(new byte[SubjectKey.LENGTH]);
  }

  @Test
  void aKeyHeldAcrossAnErasure_refusesToSeal_ratherThanSealUnderOverwrittenBytes() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    SubjectHash ada = keys.hash("subject", "ada");
    SubjectKey held = key(keys.forEncryption("users", List.of(ada), false, "app", wrapping), ada);
    held.secretFor(CipherMode.GCM, true);

    keys.erase("users", List.of(ada));

    assertThatThrownBy(() -> held.secretFor(CipherMode.GCM, true))
        .isInstanceOf(SubjectErasedException.class);
    assertThatThrownBy(() -> held.secretFor(CipherMode.CHACHA, false))
        .isInstanceOf(SubjectErasedException.class);
  }

  /** Seals one message under {@code key} through its kept cipher, over a pool of new ciphers. */
  private static void sealOnce(SubjectKey key) {
    CipherMode mode = CipherMode.GCM;
    SecretKey secret = key.secretFor(mode, true);
    CipherSource pool =
        new CipherSource() {
          @Override
          public Cipher borrow(CipherMode m, SecretKey k) {
            try {
              return Cipher.getInstance(m.transformation());
            } catch (GeneralSecurityException e) {
              throw new IllegalStateException(e);
            }
          }

          @Override
          public void release(CipherMode m, SecretKey k, Cipher cipher) {}

          @Override
          public void invalidate(CipherMode m, Cipher cipher) {}
        };
    byte[] out = new byte[mode.payloadLength(1)];
    mode.family()
        .seal(
            key.ciphers(pool, secret),
            secret,
            new byte[0],
            Bytes.of(new byte[0]),
            Bytes.of(new byte[1]),
            out);
  }

  private static double keptCiphers(MeterRegistry registry) {
    return registry.get("cipherd_subject_kept_ciphers").gauge().value();
  }

  @Test
  void aSubjectsKeptCipher_isGivenBack_whenItIsErased_orLeavesTheCache() throws Exception {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    MeterRegistry registry = new SimpleMeterRegistry();
    keys.bindTo(registry);
    SubjectHash ada = keys.hash("subject", "ada");
    SubjectHash bob = keys.hash("subject", "bob");
    sealOnce(key(keys.forEncryption("users", List.of(ada), false, "app", wrapping), ada));
    sealOnce(key(keys.forEncryption("users", List.of(bob), false, "app", wrapping), bob));
    assertThat(keptCiphers(registry)).isEqualTo(2);

    keys.erase("users", List.of(ada));
    assertThat(keptCiphers(registry)).as("erasure gives its place back at once").isEqualTo(1);

    keys.forgetKey("users");
    // Caffeine tells its removal listener on another thread.
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (keptCiphers(registry) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(keptCiphers(registry)).as("a key out of the cache keeps no cipher").isZero();
  }

  /**
   * Warm lookups read the key cache quietly and one in {@link SubjectKeys#READ_SAMPLE} through it:
   * the hits it reports are right on average (each sampled read counts for the quiet ones), and a
   * miss is counted every time.
   */
  @Test
  void warmLookups_readQuietly_butTheHitCountIsRightOnAverage_andEveryMissCounts() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    MeterRegistry registry = new SimpleMeterRegistry();
    keys.bindTo(registry);
    SubjectHash ada = keys.hash("subject", "ada");
    SubjectRef ref =
        key(keys.forEncryption("users", List.of(ada), false, "app", wrapping), ada).ref();
    double hitsBefore = gets(registry, "hit");
    double missesBefore = gets(registry, "miss");

    int lookups = 16_000;
    for (int i = 0; i < lookups; i++) {
      assertThat(keys.forDecryption("users", ref, wrapping).ref()).isEqualTo(ref);
    }
    assertThatThrownBy(() -> keys.forDecryption("users", SubjectRef.of(new byte[16]), wrapping))
        .isInstanceOf(DecryptionFailedException.class);

    // Each sampled read counts READ_SAMPLE hits with probability 1/READ_SAMPLE: the standard
    // deviation over 16,000 lookups is about 490, and the bounds are eight of them either side.
    assertThat(gets(registry, "hit") - hitsBefore).isBetween(12_000.0, 20_000.0);
    assertThat(gets(registry, "miss") - missesBefore).isEqualTo(1.0);
  }

  private static double gets(MeterRegistry registry, String result) {
    return registry
        .get("cache.gets")
        .tag("cache", "subject_keys")
        .tag("result", result)
        .functionCounter()
        .count();
  }

  /**
   * What lets an encryption for subjects run on the transport thread: every id's key cached, and
   * servable for the margin beyond now, so the call cannot turn cold midway.
   */
  @Test
  void warmForEncryption_onlyOnceEveryIdsKeyIsCached_andStaysServableForTheMargin() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    assertThat(keys.warmForEncryption("users", List.of("ada"))).isFalse();
    keys.forEncryptionByIds("users", List.of("ada", "bob"), false, "app", wrapping, null);

    assertThat(keys.warmForEncryption("users", List.of("ada", "bob", "ada"))).isTrue();
    assertThat(keys.warmForEncryption("users", List.of("ada", "cyd"))).isFalse();
    assertThat(keys.warmForEncryption("orders", List.of("ada"))).isFalse();
    keys.erase("users", List.of(keys.hash("subject", "bob")));
    assertThat(keys.warmForEncryption("users", List.of("bob"))).isFalse();

    SubjectKeys brief = replica(SubjectKeys.WARM_MARGIN.dividedBy(2), 0);
    brief.forEncryptionByIds("users", List.of("ada"), false, "app", wrapping, null);
    assertThat(brief.warmForEncryption("users", List.of("ada")))
        .as("a key that expires within the margin is not warm")
        .isFalse();
  }

  /** What {@link SubjectKeys#forEncryptionByIds} finds for one id: its key or its error. */
  private Object byId(SubjectKeys keys, String keyName, String id, boolean renewErased) {
    return keys.forEncryptionByIds(keyName, List.of(id), renewErased, "app", wrapping, null)[0];
  }

  @Test
  void anUnknownRef_orOneUnderAnotherKey_isADecryptionFailure() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    SubjectHash ada = keys.hash("subject", "ada");
    SubjectRef ref =
        key(keys.forEncryption("users", List.of(ada), false, "app", wrapping), ada).ref();

    assertThatThrownBy(() -> keys.forDecryption("orders", ref, wrapping))
        .isInstanceOf(DecryptionFailedException.class);
    assertThatThrownBy(() -> keys.forDecryption("users", SubjectRef.of(new byte[16]), wrapping))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @Test
  void newSubjects_pastTheCallersRate_areRefused_perCaller_existingOnesServed() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 2); // a burst of 20
    List<SubjectHash> subjects = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      subjects.add(keys.hash("subject", "user-" + i));
    }
    Map<SubjectHash, Object> resolved =
        keys.forEncryption("users", subjects, false, "app", wrapping);

    long created = resolved.values().stream().filter(SubjectKey.class::isInstance).count();
    long refused =
        resolved.values().stream().filter(SubjectQuotaExceededException.class::isInstance).count();
    assertThat(created).isEqualTo(20);
    assertThat(refused).isEqualTo(10);
    // Another caller has its own budget; the first one's existing subjects still work.
    assertThat(
            keys.forEncryption("users", subjects.subList(20, 25), false, "other", wrapping)
                .values())
        .allMatch(SubjectKey.class::isInstance);
    assertThat(
            keys.forEncryption("users", subjects.subList(0, 20), false, "app", wrapping).values())
        .allMatch(SubjectKey.class::isInstance);
  }

  @Test
  void aWarmSubject_isFoundByItsId_untilItsKeyLeavesTheCache() {
    SubjectKeys keys = replica(Duration.ofMinutes(1), 0);
    Object[] first =
        keys.forEncryptionByIds(
            "users", List.of("ada", "bob", "ada", ""), false, "app", wrapping, null);

    assertThat(first).hasSize(4);
    assertThat(first[3]).isInstanceOf(InvalidArgumentException.class);
    SubjectKey ada = (SubjectKey) first[0];
    SubjectKey bob = (SubjectKey) first[1];
    assertThat(first[2]).as("an id given twice, one key").isSameAs(ada);
    assertThat(ada.subjectHash()).isEqualTo(keys.hash("subject", "ada"));
    // The same keys by id, in the ids' order, under the same named key only.
    Object[] again =
        keys.forEncryptionByIds("users", List.of("bob", "ada"), false, "app", wrapping, null);
    assertThat(again).containsExactly(bob, ada);
    SubjectKey adaElsewhere = (SubjectKey) byId(keys, "orders", "ada", false);
    assertThat(adaElsewhere.ref()).isNotEqualTo(ada.ref());

    // Erased through this replica: the id finds no key, at once.
    keys.erase("users", List.of(keys.hash("subject", "ada")));
    assertThat(byId(keys, "users", "ada", false)).isInstanceOf(SubjectErasedException.class);
    Object renewed = byId(keys, "users", "ada", true);
    assertThat(((SubjectKey) renewed).ref()).isNotEqualTo(ada.ref());

    // The key's versions changed: bob's key is unwrapped again, not served by id.
    keys.forgetKey("users");
    int unwraps = wrapping.unwraps.get();
    SubjectKey bobAfter = (SubjectKey) byId(keys, "users", "bob", false);
    assertThat(bobAfter).isNotSameAs(bob);
    assertThat(bobAfter.ref()).isEqualTo(bob.ref());
    assertThat(wrapping.unwraps.get()).isEqualTo(unwraps + 1);
  }

  @Test
  void aKeyUnwrappedLate_isServedOnlyForTheTtlFromTheStoresAnswer() throws Exception {
    // Another replica's erasure is honoured within the TTL of when this replica last read the
    // subject's row, however late it first unwrapped the key: a key cached with a TTL of its own
    // would have served nearly two TTLs after the row said "live".
    Duration ttl = Duration.ofMillis(600);
    SubjectKeys here = replica(Duration.ofMinutes(1), 0);
    SubjectKeys there = replica(ttl, 0);
    SubjectHash ada = here.hash("subject", "ada");
    SubjectRef ref =
        key(here.forEncryption("users", List.of(ada), false, "app", wrapping), ada).ref();
    long read = System.nanoTime();
    there.prefetch(List.of(ref));
    Thread.sleep(ttl.toMillis() / 2);
    there.forDecryption("users", ref, wrapping);

    here.erase("users", List.of(ada));
    long sinceRead = System.nanoTime() - read;
    Thread.sleep(Math.max(0, ttl.toNanos() - sinceRead) / 1_000_000 + 100);

    assertThatThrownBy(() -> there.forDecryption("users", ref, wrapping))
        .isInstanceOf(SubjectErasedException.class);
  }
}
