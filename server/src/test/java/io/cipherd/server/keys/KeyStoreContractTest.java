package io.cipherd.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.fpe.FormatTemplate;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.legacy.IvConvention;
import io.cipherd.server.crypto.legacy.LegacyCipher;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.errors.ErrorKind;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link KeyStore} shares; each implementation's test extends this and supplies
 * a fresh, empty store. Methods are public so subclasses in other packages inherit them.
 */
public abstract class KeyStoreContractTest<S extends KeyStore & UsageStore & AuditStore> {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Nanosecond precision on purpose: a store must give back exactly the instant it was given. */
  protected static final Instant T0 = Instant.parse("2025-03-04T05:06:07.123456789Z");

  public static final KeyPolicy STRICT = new KeyPolicy(1, 1, true);

  protected S store;

  /** A new store with no keys; called before each test. */
  protected abstract S newStore() throws Exception;

  /**
   * Replaces {@link #store} with a fresh instance over the same keys, as a restart or another
   * replica would see them, so a test reads back what was persisted rather than what an instance
   * remembers. A store that keeps nothing outside the process stays as it is.
   */
  protected void reopenStore() throws Exception {}

  @BeforeEach
  public void openStore() throws Exception {
    store = newStore();
  }

  @AfterEach
  public void closeStore() throws Exception {
    if (store != null) {
      store.close();
    }
  }

  /** A version with fresh random bytes. */
  public static NewKeyVersion version(int number, CipherMode mode, int bits) {
    return version(number, mode, bits, false);
  }

  public static NewKeyVersion version(int number, CipherMode mode, int bits, boolean imported) {
    byte[] material = new byte[bits / 8];
    RANDOM.nextBytes(material);
    return new NewKeyVersion(
        new KeyVersionInfo(number, mode, bits, T0.plusSeconds(number), imported, null), material);
  }

  public static byte[] bytes(SecretKey key) {
    return key.getEncoded();
  }

  /**
   * Adds versions 2..{@code last} to {@code name} (GCM-256) in {@code store}, returning every
   * version's bytes, version 1 first.
   */
  public static List<byte[]> rotateTo(KeyStore store, String name, int last) {
    List<byte[]> all = new ArrayList<>();
    all.add(bytes(store.readMaterial(name, store.readKey(name).orElseThrow().version(1))));
    for (int v = 2; v <= last; v++) {
      NewKeyVersion next = version(v, CipherMode.GCM, 256);
      store.addVersion(name, v - 1, next);
      all.add(next.material());
    }
    return all;
  }

  @Test
  public void createKey_returnsVersionOneAndPolicy_andReadKeyAgrees() {
    NewKeyVersion first = version(1, CipherMode.GCM, 256);

    KeyMetadata created = store.createKey("payments", first, STRICT);

    assertThat(created.name()).isEqualTo("payments");
    assertThat(created.versions()).containsExactly(first.info());
    assertThat(created.policy()).isEqualTo(STRICT);
    assertThat(store.readKey("payments")).contains(created);
  }

  @Test
  public void createKey_existingName_throwsKeyAlreadyExists_andKeepsTheFirstKey() {
    NewKeyVersion original = version(1, CipherMode.GCM, 256);
    KeyMetadata created = store.createKey("payments", original, KeyPolicy.DEFAULT);

    assertThatThrownBy(() -> store.createKey("payments", version(1, CipherMode.CBC, 128), STRICT))
        .isInstanceOf(KeyAlreadyExistsException.class)
        .hasMessageContaining("payments");

    assertThat(store.readKey("payments")).contains(created);
    assertThat(bytes(store.readMaterial("payments", created.version(1))))
        .isEqualTo(original.material());
  }

  @Test
  public void createKey_firstVersionNotOne_isRejectedAndStoresNothing() {
    assertThatThrownBy(
            () -> store.createKey("payments", version(2, CipherMode.GCM, 256), KeyPolicy.DEFAULT))
        .isInstanceOf(IllegalArgumentException.class);

    assertThat(store.readKey("payments")).isEmpty();
    assertThat(store.listKeyNames()).isEmpty();
  }

  @Test
  public void createKey_callerWipesMaterialAfterwards_storedBytesUnchanged() {
    NewKeyVersion first = version(1, CipherMode.GCM, 256);
    byte[] expected = first.material().clone();
    KeyMetadata created = store.createKey("payments", first, KeyPolicy.DEFAULT);

    Arrays.fill(first.material(), (byte) 0);

    assertThat(bytes(store.readMaterial("payments", created.version(1)))).isEqualTo(expected);
  }

  @Test
  public void listKeyNames_emptyStore_isEmpty() {
    assertThat(store.listKeyNames()).isEmpty();
  }

  @Test
  public void listKeyNames_returnsEveryNameInAscendingOrder() {
    for (String name : List.of("zeta", "alpha", "m-1", "beta_2", "0num", "alpha2")) {
      store.createKey(name, version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    }

    assertThat(store.listKeyNames())
        .containsExactly("0num", "alpha", "alpha2", "beta_2", "m-1", "zeta");
  }

  @Test
  public void readKey_unknownName_isEmpty() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    assertThat(store.readKey("payment")).isEmpty();
  }

  @Test
  public void readKey_givesBackEachVersionsMetadataExactly() {
    NewKeyVersion v1 = version(1, CipherMode.CBC, 128, true);
    NewKeyVersion v2 = version(2, CipherMode.CHACHA, 256, false);
    NewKeyVersion v3 = version(3, CipherMode.ECB, 192, true);
    store.createKey("mixed", v1, STRICT);
    store.addVersion("mixed", 1, v2);
    store.addVersion("mixed", 2, v3);

    KeyMetadata read = store.readKey("mixed").orElseThrow();

    assertThat(read.versions()).containsExactly(v1.info(), v2.info(), v3.info());
    assertThat(read.policy()).isEqualTo(STRICT);
  }

  @Test
  public void addVersion_expectedCurrentVersion_addsTheNewestVersion() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), STRICT);
    NewKeyVersion v2 = version(2, CipherMode.CHACHA, 256);

    KeyMetadata updated = store.addVersion("payments", 1, v2);

    assertThat(updated.currentVersion()).isEqualTo(2);
    assertThat(updated.current()).isEqualTo(v2.info());
    assertThat(updated.policy()).isEqualTo(STRICT);
    assertThat(store.readKey("payments")).contains(updated);
  }

  @Test
  public void addVersion_staleExpectedVersion_storesNothing() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    NewKeyVersion winner = version(2, CipherMode.GCM, 256);
    KeyMetadata afterWinner = store.addVersion("payments", 1, winner);
    NewKeyVersion loser = version(2, CipherMode.CBC, 128);

    assertThatThrownBy(() -> store.addVersion("payments", 1, loser))
        .isInstanceOf(ConcurrentKeyUpdateException.class);

    assertThat(store.readKey("payments")).contains(afterWinner);
    assertThat(bytes(store.readMaterial("payments", afterWinner.version(2))))
        .isEqualTo(winner.material());
  }

  @Test
  public void addVersion_expectedVersionAheadOfCurrent_throwsConcurrentUpdateAndStoresNothing() {
    KeyMetadata created =
        store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    assertThatThrownBy(() -> store.addVersion("payments", 2, version(3, CipherMode.GCM, 256)))
        .isInstanceOf(ConcurrentKeyUpdateException.class);

    assertThat(store.readKey("payments")).contains(created);
  }

  @Test
  public void addVersion_numberOtherThanCurrentPlusOne_isRejectedAndStoresNothing() {
    KeyMetadata created =
        store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    assertThatThrownBy(() -> store.addVersion("payments", 1, version(3, CipherMode.GCM, 256)))
        .isInstanceOf(IllegalArgumentException.class);

    assertThat(store.readKey("payments")).contains(created);
    store.addVersion("payments", 1, version(2, CipherMode.GCM, 256)); // version 2 is still free
    assertThat(store.readKey("payments").orElseThrow().currentVersion()).isEqualTo(2);
  }

  @Test
  public void addVersion_unknownKey_throwsKeyNotFound() {
    assertThatThrownBy(() -> store.addVersion("nope", 1, version(2, CipherMode.GCM, 256)))
        .isInstanceOf(KeyNotFoundException.class)
        .hasMessageContaining("nope");

    assertThat(store.listKeyNames()).isEmpty();
  }

  @Test
  public void addVersion_afterPolicyUpdate_keepsTheNewPolicy() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.updatePolicy("payments", STRICT);

    KeyMetadata updated = store.addVersion("payments", 1, version(2, CipherMode.GCM, 256));

    assertThat(updated.policy()).isEqualTo(STRICT);
    assertThat(store.readKey("payments").orElseThrow().policy()).isEqualTo(STRICT);
  }

  @Test
  public void readMaterial_everyVersion_returnsTheStoredBytesAsAKeyForItsMode() {
    List<NewKeyVersion> versions =
        List.of(
            version(1, CipherMode.GCM, 128),
            version(2, CipherMode.CHACHA, 256),
            version(3, CipherMode.CBC, 192),
            version(4, CipherMode.CTR, 256),
            version(5, CipherMode.CFB, 128),
            version(6, CipherMode.OFB, 192),
            version(7, CipherMode.ECB, 256));
    store.createKey("mixed", versions.get(0), KeyPolicy.DEFAULT);
    for (int i = 1; i < versions.size(); i++) {
      store.addVersion("mixed", i, versions.get(i));
    }
    KeyMetadata metadata = store.readKey("mixed").orElseThrow();

    for (NewKeyVersion v : versions) {
      SecretKey key = store.readMaterial("mixed", metadata.version(v.info().version()));
      assertThat(key.getAlgorithm())
          .as("algorithm of v%d", v.info().version())
          .isEqualTo(v.info().mode().keyAlgorithm());
      assertThat(key.getEncoded()).as("bytes of v%d", v.info().version()).isEqualTo(v.material());
    }
  }

  @Test
  public void legacyVersions_keepTheirCipherIvConventionFixedIvAndBytes_acrossAReopen()
      throws Exception {
    List<NewKeyVersion> versions =
        List.of(
            legacy(1, LegacyCipher.AES_CBC, IvConvention.PREPENDED, null, 32),
            legacy(2, LegacyCipher.DES_CBC, IvConvention.FIXED, hex("0001020304050607"), 8),
            legacy(3, LegacyCipher.RC4, IvConvention.NONE, null, 256),
            legacy(4, LegacyCipher.BLOWFISH_CBC, IvConvention.SEPARATE, null, 7),
            legacy(5, LegacyCipher.MYSQL_AES_ECB, IvConvention.NONE, null, 16),
            legacy(
                6, LegacyCipher.AES_GCM, IvConvention.FIXED, hex("a0a1a2a3a4a5a6a7a8a9aaab"), 16),
            legacy(7, LegacyCipher.DESEDE_CBC, IvConvention.FIXED, hex("f0e1d2c3b4a59687"), 24));
    store.createKey("old-rows", versions.get(0), STRICT);
    for (int i = 1; i < versions.size(); i++) {
      store.addVersion("old-rows", i, versions.get(i));
    }

    reopenStore();

    KeyMetadata read = store.readKey("old-rows").orElseThrow();
    assertThat(read.versions())
        .containsExactlyElementsOf(versions.stream().map(NewKeyVersion::info).toList());
    assertThat(read.version(2).legacy().fixedIv()).isEqualTo(hex("0001020304050607"));
    for (NewKeyVersion v : versions) {
      SecretKey key = store.readMaterial("old-rows", read.version(v.info().version()));
      assertThat(key.getAlgorithm())
          .as("algorithm of v%d", v.info().version())
          .isEqualTo(v.info().legacy().cipher().keyAlgorithm());
      assertThat(key.getEncoded()).as("bytes of v%d", v.info().version()).isEqualTo(v.material());
    }
  }

  @Test
  public void formatPreservingVersions_keepTheirFormatAndBytes_acrossAReopen() throws Exception {
    StringBuilder wide = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      wide.appendCodePoint(0x1F000 + i);
    }
    List<NewKeyVersion> versions =
        List.of(
            ff1(1, FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER, true, 0), 32),
            ff1(2, FpeFormat.ofTemplate(FormatTemplate.PHONE_NUMBER, false, 3), 16),
            ff1(3, FpeFormat.ofAlphabet("0123456789abcdef;=[]", 2, false, 4), 24),
            ff1(4, FpeFormat.ofAlphabet(wide.toString(), 1, true, 0), 32));
    store.createKey("shapes", versions.get(0), STRICT);
    for (int i = 1; i < versions.size(); i++) {
      store.addVersion("shapes", i, versions.get(i));
    }

    reopenStore();

    KeyMetadata read = store.readKey("shapes").orElseThrow();
    assertThat(read.versions())
        .containsExactlyElementsOf(versions.stream().map(NewKeyVersion::info).toList());
    assertThat(read.version(4).fpe().alphabetText()).isEqualTo(wide.toString());
    for (NewKeyVersion v : versions) {
      SecretKey key = store.readMaterial("shapes", read.version(v.info().version()));
      assertThat(key.getEncoded()).as("bytes of v%d", v.info().version()).isEqualTo(v.material());
    }
  }

  @Test
  public void transitDerivedVersions_keepTheirKdfAndBytes_acrossAReopen() throws Exception {
    List<NewKeyVersion> versions =
        List.of(
            transitDerived(1, CipherMode.GCM, TransitKdf.HMAC_SHA256_COUNTER, 32),
            transitDerived(2, CipherMode.GCM, TransitKdf.HKDF_SHA256, 16),
            transitDerived(3, CipherMode.CHACHA, TransitKdf.HKDF_SHA256, 32),
            version(4, CipherMode.GCM, 256, true));
    store.createKey("from-transit", versions.get(0), STRICT);
    for (int i = 1; i < versions.size(); i++) {
      store.addVersion("from-transit", i, versions.get(i));
    }

    reopenStore();

    KeyMetadata read = store.readKey("from-transit").orElseThrow();
    assertThat(read.versions())
        .containsExactlyElementsOf(versions.stream().map(NewKeyVersion::info).toList());
    assertThat(read.version(1).transitKdf()).isEqualTo(TransitKdf.HMAC_SHA256_COUNTER);
    assertThat(read.version(4).transitKdf()).isNull();
    for (NewKeyVersion v : versions) {
      SecretKey key = store.readMaterial("from-transit", read.version(v.info().version()));
      assertThat(key.getEncoded()).as("bytes of v%d", v.info().version()).isEqualTo(v.material());
    }
  }

  @Test
  public void destroyedTransitDerivedVersion_keepsItsKdf_acrossAReopen() throws Exception {
    NewKeyVersion old = transitDerived(1, CipherMode.GCM, TransitKdf.HKDF_SHA256, 32);
    store.createKey("from-transit", old, STRICT);
    store.addVersion("from-transit", 1, version(2, CipherMode.GCM, 256, true));
    schedule("from-transit", 1);
    destroyDue("from-transit");

    reopenStore();

    KeyVersionInfo read = store.readKey("from-transit").orElseThrow().version(1);
    assertThat(read.withLifecycle(VersionLifecycle.ENABLED)).isEqualTo(old.info());
    assertThat(read.lifecycle().state()).isEqualTo(VersionLifecycle.State.DESTROYED);
  }

  /** A version of a derived Transit key with fresh random bytes. */
  private static NewKeyVersion transitDerived(
      int number, KeyType type, TransitKdf kdf, int keyBytes) {
    byte[] material = new byte[keyBytes];
    RANDOM.nextBytes(material);
    return new NewKeyVersion(
        KeyVersionInfo.transitDerived(number, type, keyBytes * 8, T0.plusSeconds(number), kdf),
        material);
  }

  /** A format-preserving version with fresh random bytes. */
  private static NewKeyVersion ff1(int number, FpeFormat format, int keyBytes) {
    byte[] material = new byte[keyBytes];
    RANDOM.nextBytes(material);
    return new NewKeyVersion(
        KeyVersionInfo.formatPreserving(
            number, keyBytes * 8, T0.plusSeconds(number), /* imported= */ true, format),
        material);
  }

  /** A legacy version with fresh random bytes. */
  private static NewKeyVersion legacy(
      int number, LegacyCipher cipher, IvConvention iv, byte[] fixedIv, int keyBytes) {
    byte[] material = new byte[keyBytes];
    RANDOM.nextBytes(material);
    return new NewKeyVersion(
        KeyVersionInfo.legacy(
            number, LegacyFormat.of(cipher, iv, fixedIv), keyBytes * 8, T0.plusSeconds(number)),
        material);
  }

  private static byte[] hex(String text) {
    return HexFormat.of().parseHex(text);
  }

  @Test
  public void readMaterial_unknownVersion_throwsKeyNotFound() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    KeyVersionInfo missing = version(2, CipherMode.GCM, 256).info();

    assertThatThrownBy(() -> store.readMaterial("payments", missing))
        .isInstanceOf(KeyNotFoundException.class)
        .hasMessageContaining("payments")
        .hasMessageContaining("2");
  }

  @Test
  public void readMaterial_unknownKey_throwsKeyNotFound() {
    KeyVersionInfo info = version(1, CipherMode.GCM, 256).info();

    assertThatThrownBy(() -> store.readMaterial("nope", info))
        .isInstanceOf(KeyNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  public void updatePolicy_replacesThePolicyAndKeepsEveryVersion() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    KeyMetadata rotated = store.addVersion("payments", 1, version(2, CipherMode.GCM, 256));
    KeyPolicy policy = new KeyPolicy(2, 2, false);

    KeyMetadata updated = store.updatePolicy("payments", policy);

    assertThat(updated.policy()).isEqualTo(policy);
    assertThat(updated.versions()).isEqualTo(rotated.versions());
    assertThat(store.readKey("payments")).contains(updated);
  }

  @Test
  public void updatePolicy_cancelDestructionOnUse_persistsAcrossAReopen() throws Exception {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    KeyPolicy policy = new KeyPolicy(0, 0, false, Duration.ZERO, 0, true);

    store.updatePolicy("payments", policy);
    reopenStore();

    assertThat(store.readKey("payments").orElseThrow().policy().cancelDestructionOnUse()).isTrue();
    assertThat(KeyPolicy.DEFAULT.cancelDestructionOnUse()).isFalse();
  }

  @Test
  public void usage_failuresAddUpWithTheOtherCounts_andPersistAcrossAReopen() throws Exception {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    Instant first = T0.plusSeconds(60);
    Instant later = T0.plusSeconds(120);

    store.addUsage("payments", Map.of(1, new VersionUsage(5, 2, 0, 0, first, 0)));
    store.addUsage("payments", Map.of(1, new VersionUsage(0, 0, 0, 0, later, 3)));
    reopenStore();

    VersionUsage usage = store.readUsage("payments").get(1);
    assertThat(usage.encryptions()).isEqualTo(5);
    assertThat(usage.decryptions()).isEqualTo(2);
    assertThat(usage.failures()).isEqualTo(3);
    assertThat(usage.lastUsed()).isEqualTo(later);
  }

  @Test
  public void updatePolicy_unknownKey_throwsKeyNotFoundAndCreatesNothing() {
    assertThatThrownBy(() -> store.updatePolicy("nope", STRICT))
        .isInstanceOf(KeyNotFoundException.class);

    assertThat(store.readKey("nope")).isEmpty();
  }

  @Test
  public void updatePolicy_ofOneKey_leavesOtherKeysPoliciesAlone() {
    store.createKey("a", version(1, CipherMode.GCM, 256), STRICT);
    store.createKey("b", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    store.updatePolicy("b", new KeyPolicy(1, 0, false));

    assertThat(store.readKey("a").orElseThrow().policy()).isEqualTo(STRICT);
  }

  @Test
  public void manyRotations_keepEveryVersionAndItsBytes() {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    List<byte[]> material = rotateTo(store, "payments", 40);

    KeyMetadata metadata = store.readKey("payments").orElseThrow();
    assertThat(metadata.currentVersion()).isEqualTo(40);
    for (int v = 1; v <= 40; v++) {
      assertThat(bytes(store.readMaterial("payments", metadata.version(v))))
          .as("v%d", v)
          .isEqualTo(material.get(v - 1));
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  public void concurrentAddVersion_exactlyOneWinnerPerExpectedVersion_noLostOrDuplicatedVersion()
      throws Exception {
    int threads = 8;
    int rounds = 12;
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    Map<Integer, byte[]> winners = new ConcurrentHashMap<>();
    Map<Integer, AtomicInteger> successes = new ConcurrentHashMap<>();
    AtomicInteger conflicts = new AtomicInteger();
    CyclicBarrier startOfRound = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int expected = 1; expected <= rounds; expected++) {
                    NewKeyVersion mine = version(expected + 1, CipherMode.GCM, 256);
                    startOfRound.await(); // every thread races for the same expected version
                    try {
                      store.addVersion("payments", expected, mine);
                      successes
                          .computeIfAbsent(expected, e -> new AtomicInteger())
                          .incrementAndGet();
                      winners.put(expected + 1, mine.material());
                    } catch (ConcurrentKeyUpdateException e) {
                      conflicts.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    for (int expected = 1; expected <= rounds; expected++) {
      assertThat(successes.get(expected)).as("winners expecting v%d", expected).hasValue(1);
    }
    assertThat(conflicts).hasValue((threads - 1) * rounds);
    KeyMetadata metadata = store.readKey("payments").orElseThrow();
    assertThat(metadata.currentVersion()).isEqualTo(rounds + 1);
    for (int v = 2; v <= rounds + 1; v++) {
      assertThat(bytes(store.readMaterial("payments", metadata.version(v))))
          .as("v%d", v)
          .isEqualTo(winners.get(v));
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  public void concurrentCreateKey_sameName_exactlyOneWins() throws Exception {
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<NewKeyVersion> attempts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      attempts.add(version(1, CipherMode.GCM, 256));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Boolean>> results = new ArrayList<>();
    try {
      for (NewKeyVersion attempt : attempts) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    store.createKey("payments", attempt, KeyPolicy.DEFAULT);
                    return true;
                  } catch (KeyAlreadyExistsException e) {
                    return false;
                  }
                }));
      }
      List<NewKeyVersion> won = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        if (results.get(t).get()) {
          won.add(attempts.get(t));
        }
      }

      assertThat(won).hasSize(1);
      KeyMetadata metadata = store.readKey("payments").orElseThrow();
      assertThat(metadata.currentVersion()).isEqualTo(1);
      assertThat(bytes(store.readMaterial("payments", metadata.version(1))))
          .isEqualTo(won.get(0).material());
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- Lifecycle: check-and-set of states and policy, then erasing destroyed versions' bytes.

  /** Key {@code name} with versions 1..{@code last} (GCM-256), returning each version's bytes. */
  protected List<byte[]> keyWithVersions(String name, int last) {
    store.createKey(name, version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    return rotateTo(store, name, last);
  }

  /** Schedules {@code versions} of {@code name} and writes it; returns what was stored. */
  protected KeyMetadata schedule(String name, Integer... versions) {
    KeyMetadata now = store.readKey(name).orElseThrow();
    return store.updateLifecycle(
        now,
        LifecycleRules.scheduleDestruction(
            now, List.of(versions), LifecycleRules.MIN_WINDOW, T0.plusSeconds(100)));
  }

  /** Writes what is due a year after {@link #T0}: every scheduled version destroyed. */
  protected KeyMetadata destroyDue(String name) {
    KeyMetadata now = store.readKey(name).orElseThrow();
    LifecycleRules.Due due = LifecycleRules.due(now, T0.plus(Duration.ofDays(365)));
    assertThat(due.changed()).isTrue();
    return store.updateLifecycle(now, due.key());
  }

  @Test
  public void updateLifecycle_keyAndVersionStates_persistAcrossAReopen() throws Exception {
    keyWithVersions("payments", 3);
    KeyMetadata scheduled = schedule("payments", 1, 2);
    KeyMetadata disabled = store.updateLifecycle(scheduled, LifecycleRules.disable(scheduled));

    reopenStore();

    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read).isEqualTo(disabled);
    assertThat(read.lifecycle()).isEqualTo(KeyLifecycle.DISABLED);
    assertThat(read.version(1).lifecycle())
        .isEqualTo(VersionLifecycle.scheduled(T0.plusSeconds(100).plus(LifecycleRules.MIN_WINDOW)));
    assertThat(read.version(3).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
  }

  @Test
  public void updateLifecycle_staleExpected_losesWithConcurrentUpdate_andChangesNothing()
      throws Exception {
    List<byte[]> material = keyWithVersions("payments", 3);
    KeyMetadata before = store.readKey("payments").orElseThrow();
    KeyMetadata won = store.updateLifecycle(before, LifecycleRules.disable(before));
    KeyMetadata loserNext =
        LifecycleRules.scheduleDestruction(
            before, List.of(1), LifecycleRules.MIN_WINDOW, T0.plusSeconds(5));

    assertThatThrownBy(() -> store.updateLifecycle(before, loserNext))
        .isInstanceOf(ConcurrentKeyUpdateException.class)
        .hasMessageContaining("payments");

    reopenStore();
    assertThat(store.readKey("payments")).contains(won);
    assertThat(bytes(store.readMaterial("payments", won.version(1)))).isEqualTo(material.get(0));
  }

  @Test
  public void addVersionAndUpdatePolicy_keepTheLifecycleStates() throws Exception {
    keyWithVersions("payments", 2);
    KeyMetadata scheduled = schedule("payments", 1);
    KeyMetadata disabled = store.updateLifecycle(scheduled, LifecycleRules.disable(scheduled));

    KeyMetadata rotated = store.addVersion("payments", 2, version(3, CipherMode.GCM, 256));
    KeyMetadata strict = store.updatePolicy("payments", STRICT);

    for (KeyMetadata returned : List.of(rotated, strict)) {
      assertThat(returned.lifecycle()).isEqualTo(KeyLifecycle.DISABLED);
      assertThat(returned.version(1).lifecycle()).isEqualTo(disabled.version(1).lifecycle());
    }
    reopenStore();
    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read).isEqualTo(strict);
    assertThat(read.version(3).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
  }

  @Test
  public void updateLifecycle_unknownKey_throwsKeyNotFound() {
    KeyMetadata ghost =
        new KeyMetadata("ghost", List.of(version(1, CipherMode.GCM, 256).info()), STRICT);

    assertThatThrownBy(() -> store.updateLifecycle(ghost, LifecycleRules.disable(ghost)))
        .isInstanceOf(KeyNotFoundException.class);
    assertThat(store.listKeyNames()).isEmpty();
  }

  // ---- Backups: the exportable flag, and a key restored whole.

  @Test
  public void setExportable_persistsAcrossAReopen_andNoOtherWriteClearsIt() throws Exception {
    keyWithVersions("payments", 2);
    KeyMetadata before = store.readKey("payments").orElseThrow();
    assertThat(before.exportable()).isFalse();

    assertThat(store.setExportable("payments").exportable()).isTrue();
    assertThat(store.setExportable("payments").exportable()).isTrue();
    store.addVersion("payments", 2, version(3, CipherMode.GCM, 256));
    store.updatePolicy("payments", STRICT);
    KeyMetadata now = store.readKey("payments").orElseThrow();
    // A writer that read the key before it was made exportable: its next says false.
    KeyMetadata stale = new KeyMetadata("payments", now.versions(), now.policy(), now.lifecycle());
    store.updateLifecycle(now, LifecycleRules.disable(stale));
    reopenStore();

    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read.exportable()).isTrue();
    assertThat(read.lifecycle()).isEqualTo(KeyLifecycle.DISABLED);
    assertThatThrownBy(() -> store.setExportable("missing"))
        .isInstanceOf(KeyNotFoundException.class);
  }

  @Test
  public void restoreKey_keepsEveryVersionStateScheduleByteAndTheFlag_acrossAReopen()
      throws Exception {
    Instant destroyed = T0.plusSeconds(500);
    Instant scheduled = T0.plus(Duration.ofDays(30));
    NewKeyVersion v2 = version(2, CipherMode.GCM, 256);
    NewKeyVersion v3 = version(3, CipherMode.GCM, 256);
    KeyMetadata key =
        new KeyMetadata(
            "restored",
            List.of(
                version(1, CipherMode.GCM, 256)
                    .info()
                    .withLifecycle(VersionLifecycle.destroyed(destroyed)),
                v2.info().withLifecycle(VersionLifecycle.scheduled(scheduled)),
                v3.info()),
            new KeyPolicy(2, 3, false),
            KeyLifecycle.DISABLED,
            /* exportable= */ true);
    byte[] second = v2.material().clone();
    byte[] third = v3.material().clone();

    assertThat(
            store.restoreKey(
                key,
                List.of(
                    new NewKeyVersion(key.version(2), v2.material()),
                    new NewKeyVersion(key.version(3), v3.material()))))
        .isEqualTo(key);
    reopenStore();

    KeyMetadata read = store.readKey("restored").orElseThrow();
    assertThat(read).isEqualTo(key);
    assertThatThrownBy(() -> store.readMaterial("restored", read.version(1)))
        .isInstanceOf(KeyUnavailableException.class);
    assertThat(bytes(store.readMaterial("restored", read.version(2)))).isEqualTo(second);
    assertThat(bytes(store.readMaterial("restored", read.version(3)))).isEqualTo(third);
    store.addVersion("restored", 3, version(4, CipherMode.GCM, 256));
    assertThat(store.readKey("restored").orElseThrow().currentVersion()).isEqualTo(4);
  }

  @Test
  public void restoreKey_existingName_throwsKeyAlreadyExists_andChangesNothing() throws Exception {
    List<byte[]> material = keyWithVersions("payments", 2);
    KeyMetadata before = store.readKey("payments").orElseThrow();
    NewKeyVersion other = version(1, CipherMode.GCM, 256);
    KeyMetadata restored =
        new KeyMetadata(
            "payments", List.of(other.info()), KeyPolicy.DEFAULT, KeyLifecycle.ENABLED, true);

    assertThatThrownBy(() -> store.restoreKey(restored, List.of(other)))
        .isInstanceOf(KeyAlreadyExistsException.class);
    reopenStore();

    assertThat(store.readKey("payments")).contains(before);
    assertThat(bytes(store.readMaterial("payments", before.version(1)))).isEqualTo(material.get(0));
  }

  @Test
  public void destroyedVersion_metadataStaysReadable_bytesAreGone_evenAfterAReopen()
      throws Exception {
    List<byte[]> material = keyWithVersions("payments", 3);
    KeyVersionInfo v1 = store.readKey("payments").orElseThrow().version(1);
    schedule("payments", 1);

    KeyMetadata destroyed = destroyDue("payments");
    reopenStore();

    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read).isEqualTo(destroyed);
    Instant destroyTime = T0.plusSeconds(100).plus(LifecycleRules.MIN_WINDOW);
    assertThat(read.version(1))
        .isEqualTo(v1.withLifecycle(VersionLifecycle.destroyed(destroyTime)));
    assertThatThrownBy(() -> store.readMaterial("payments", read.version(1)))
        .isInstanceOfSatisfying(
            KeyUnavailableException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.KEY_VERSION_DESTROYED));
    // Asking with the metadata from before the destruction changes nothing: the store's state
    // rules.
    assertThatThrownBy(() -> store.readMaterial("payments", v1))
        .isInstanceOf(KeyUnavailableException.class);
    assertThat(bytes(store.readMaterial("payments", read.version(2)))).isEqualTo(material.get(1));
    assertThat(bytes(store.readMaterial("payments", read.version(3)))).isEqualTo(material.get(2));
  }

  @Test
  public void destroyedLegacyVersion_keepsItsWholeMetadata_acrossAReopen() throws Exception {
    NewKeyVersion old =
        legacy(1, LegacyCipher.DES_CBC, IvConvention.FIXED, hex("0001020304050607"), 8);
    store.createKey("old-rows", old, STRICT);
    store.addVersion("old-rows", 1, version(2, CipherMode.GCM, 256, true));
    schedule("old-rows", 1);
    destroyDue("old-rows");

    reopenStore();

    KeyVersionInfo read = store.readKey("old-rows").orElseThrow().version(1);
    assertThat(read.withLifecycle(VersionLifecycle.ENABLED)).isEqualTo(old.info());
    assertThat(read.legacy().fixedIv()).isEqualTo(hex("0001020304050607"));
    assertThat(read.lifecycle().state()).isEqualTo(VersionLifecycle.State.DESTROYED);
  }

  @Test
  public void deletedKey_keepsItsNameTaken_andEveryVersionIsDestroyed() throws Exception {
    keyWithVersions("payments", 2);
    KeyMetadata now = store.readKey("payments").orElseThrow();
    store.updateLifecycle(now, LifecycleRules.scheduleDeletion(now, LifecycleRules.MIN_WINDOW, T0));
    KeyMetadata deleted = destroyDue("payments");

    reopenStore();

    assertThat(store.listKeyNames()).containsExactly("payments");
    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read).isEqualTo(deleted);
    assertThat(read.lifecycle().state()).isEqualTo(KeyLifecycle.State.DELETED);
    assertThat(read.versions())
        .allSatisfy(v -> assertThat(LifecycleChange.isDestroyed(v)).isTrue());
    assertThatThrownBy(
            () -> store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT))
        .isInstanceOf(KeyAlreadyExistsException.class);
    for (KeyVersionInfo v : read.versions()) {
      assertThatThrownBy(() -> store.readMaterial("payments", v))
          .isInstanceOf(KeyUnavailableException.class);
    }
  }

  @Test
  public void updateLifecycle_carriesAPolicyChange_inTheSameWrite() throws Exception {
    keyWithVersions("payments", 3);
    KeyMetadata now = store.readKey("payments").orElseThrow();
    KeyPolicy retired = new KeyPolicy(3, 0, false);
    KeyMetadata next =
        LifecycleRules.scheduleDestruction(
                now, List.of(1, 2), LifecycleRules.MIN_WINDOW, T0.plusSeconds(100))
            .withPolicy(retired);

    store.updateLifecycle(now, next);
    reopenStore();

    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read).isEqualTo(next);
    assertThat(read.policy().minDecryptionVersion()).isEqualTo(3);
  }

  @Test
  public void updateLifecycle_cannotBringADestroyedVersionBack() {
    keyWithVersions("payments", 2);
    schedule("payments", 1);
    KeyMetadata destroyed = destroyDue("payments");
    KeyMetadata revived =
        destroyed.withVersionsReplaced(
            List.of(destroyed.version(1).withLifecycle(VersionLifecycle.ENABLED)));

    assertThatThrownBy(() -> store.updateLifecycle(destroyed, revived))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.readKey("payments")).contains(destroyed);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  public void concurrentUpdateLifecycle_sameExpected_exactlyOneWins() throws Exception {
    int threads = 6;
    keyWithVersions("payments", 2);
    schedule("payments", 1);
    KeyMetadata scheduled = store.readKey("payments").orElseThrow();
    LifecycleRules.Due due = LifecycleRules.due(scheduled, T0.plus(Duration.ofDays(365)));
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger wins = new AtomicInteger();
    AtomicInteger losses = new AtomicInteger();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    store.updateLifecycle(scheduled, due.key());
                    wins.incrementAndGet();
                  } catch (ConcurrentKeyUpdateException e) {
                    losses.incrementAndGet();
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(wins).hasValue(1);
    assertThat(losses).hasValue(threads - 1);
    assertThat(store.readKey("payments")).contains(due.key());
  }

  @Test
  public void usage_addsUpEveryCounter_lookupsApart_andIsReadBackAfterAReopen() throws Exception {
    store.createKey("idx", version(1, CipherMode.GCM, 256), new KeyPolicy(1, 1, false));
    Instant used = T0.plusSeconds(10);
    Instant lookedUp = T0.plusSeconds(20);
    store.addUsage(
        "idx", Map.of(1, new VersionUsage(1, 2, 3, 4, used, 0, 5, /* lastLookup= */ null)));
    store.addUsage("idx", Map.of(1, new VersionUsage(0, 0, 0, 1, null, 0, 2, lookedUp)));
    reopenStore();

    VersionUsage usage = store.readUsage("idx").get(1);
    assertThat(usage).isEqualTo(new VersionUsage(1, 2, 3, 5, used, 0, 7, lookedUp));
  }
}
