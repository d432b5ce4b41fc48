package io.cipherd.server.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.lifecycle.KeyAdmin;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Per-replica counting, merging through a shared store, and rotation by policy, without a network.
 */
class UsageLedgerTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T12:00:00Z"));
  private final InMemoryKeyStore store = new InMemoryKeyStore();

  @Test
  void concurrentCounts_mergeWithoutLoss_andAddUpAcrossReplicas() throws Exception {
    UsageLedger one = new UsageLedger(store, clock);
    UsageLedger two = new UsageLedger(store, clock);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    for (int t = 0; t < 4; t++) {
      UsageLedger ledger = t % 2 == 0 ? one : two;
      threads.execute(
          () -> {
            for (int i = 0; i < 10_000; i++) {
              ledger.record("k", 1, UsageLedger.Use.ENCRYPT);
              if (i % 1000 == 0) {
                ledger.merge(); // merging while others count must lose nothing
              }
            }
          });
    }
    threads.shutdown();
    assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    one.record("k", 1, UsageLedger.Use.DECRYPT);
    two.record("k", 2, UsageLedger.Use.REWRAP);
    one.merge();
    two.merge();

    Map<Integer, VersionUsage> merged = store.readUsage("k");
    assertThat(merged.get(1).encryptions()).isEqualTo(40_000);
    assertThat(merged.get(1).decryptions()).isEqualTo(1);
    assertThat(merged.get(2).rewraps()).isEqualTo(1);
    assertThat(merged.get(2).lastUsed()).isEqualTo(clock.instant());
    assertThat(two.usage("k")).as("the replica that merged last sees the totals").isEqualTo(merged);
  }

  @Test
  void failures_countOnEachReplica_setTheLastUse_andAddUpThroughTheStore() {
    UsageLedger one = new UsageLedger(store, clock);
    UsageLedger two = new UsageLedger(store, clock);
    one.record("k", 2, UsageLedger.Use.FAILURE);
    clock.advance(Duration.ofMinutes(1));
    two.record("k", 2, UsageLedger.Use.FAILURE, 2);

    assertThat(one.usage("k").get(2).failures()).isEqualTo(1);
    assertThat(one.usage("k").get(2).isEmpty()).isFalse();
    one.merge();
    two.merge();

    VersionUsage merged = store.readUsage("k").get(2);
    assertThat(merged.failures()).isEqualTo(3);
    assertThat(merged.decryptions()).isZero();
    assertThat(merged.lastUsed()).isEqualTo(clock.instant());
    assertThat(two.usage("k").get(2)).isEqualTo(merged);
  }

  @Test
  void failedMerge_keepsTheCountsForTheNextOne() {
    AtomicBoolean down = new AtomicBoolean(true);
    UsageStore flaky =
        new UsageStore() {
          @Override
          public Map<Integer, VersionUsage> readUsage(String name) {
            if (down.get()) {
              throw new KeyStoreUnavailableException("down", null);
            }
            return store.readUsage(name);
          }

          @Override
          public Map<Integer, VersionUsage> addUsage(
              String name, Map<Integer, VersionUsage> delta) {
            if (down.get()) {
              throw new KeyStoreUnavailableException("down", null);
            }
            return store.addUsage(name, delta);
          }
        };
    UsageLedger ledger = new UsageLedger(flaky, clock);
    ledger.record("k", 1, UsageLedger.Use.ENCRYPT);

    assertThat(ledger.merge()).isEqualTo(1);
    down.set(false);
    assertThat(ledger.merge()).isZero();
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(1);
  }

  @Test
  void limitReachedOnTwoReplicas_rotatesOnce() {
    UsageLedger one = new UsageLedger(store, clock);
    UsageLedger two = new UsageLedger(store, clock);
    KeyCache cacheOne = new KeyCache(store, one);
    KeyCache cacheTwo = new KeyCache(store, two);
    KeyAdmin adminOne = new KeyAdmin(store, cacheOne, clock, one);
    KeyAdmin adminTwo = new KeyAdmin(store, cacheTwo, clock, two);
    adminOne.create(
        "k", KeyTemplate.of(CipherMode.GCM), new KeyPolicy(0, 0, false, Duration.ZERO, 10));
    for (int i = 0; i < 6; i++) {
      one.record("k", 1, UsageLedger.Use.ENCRYPT);
      two.record("k", 1, UsageLedger.Use.ENCRYPT);
    }
    one.merge();
    two.merge();
    one.merge(); // now both have read the merged total of 12

    assertThat(adminOne.rotateIfDue("k") + adminTwo.rotateIfDue("k"))
        .as("new version numbers made")
        .isEqualTo(2);
    assertThat(store.readKey("k").orElseThrow().currentVersion()).isEqualTo(2);
    assertThat(adminTwo.rotateIfDue("k")).as("version 2 has made no encryptions").isZero();
    assertThat(cacheTwo.forEncryption("k", 0).header().version()).isEqualTo(2);
  }

  @Test
  void policyLimits_defaultOnlyForRandom96BitNonces_andAgeRotation() {
    KeyPolicy none = KeyPolicy.DEFAULT;
    assertThat(none.encryptionLimit(CipherMode.GCM)).isEqualTo(1L << 30);
    assertThat(none.encryptionLimit(CipherMode.CHACHA)).isEqualTo(1L << 30);
    assertThat(none.encryptionLimit(CipherMode.XGCM)).isZero();
    assertThat(none.encryptionLimit(CipherMode.SIV)).isZero();
    KeyVersionInfo v1 = KeyVersionInfo.generated(1, CipherMode.XGCM, 256, clock.instant());
    assertThat(none.rotationReason(v1, Long.MAX_VALUE, clock.instant().plus(Duration.ofDays(9999))))
        .isNull();
    KeyPolicy daily = new KeyPolicy(0, 0, false, Duration.ofDays(1), 0);
    assertThat(daily.rotationReason(v1, 0, clock.instant().plus(Duration.ofHours(23)))).isNull();
    assertThat(daily.rotationReason(v1, 0, clock.instant().plus(Duration.ofDays(1))))
        .contains("older than");
  }

  @Test
  void indexLookups_areCountedApart_andNeitherSetLastUsedNorMakeAVersionInUse() {
    UsageLedger one = new UsageLedger(store, clock);
    UsageLedger two = new UsageLedger(store, clock);
    one.record("idx", 1, UsageLedger.Use.INDEX);
    Instant indexed = clock.instant();
    clock.advance(Duration.ofDays(8));
    one.record("idx", 1, UsageLedger.Use.INDEX_LOOKUP, 3);
    two.record("idx", 1, UsageLedger.Use.INDEX_LOOKUP);
    one.merge();
    two.merge();

    VersionUsage merged = store.readUsage("idx").get(1);
    assertThat(merged.indexes()).isEqualTo(1);
    assertThat(merged.indexLookups()).isEqualTo(4);
    assertThat(merged.lastUsed()).isEqualTo(indexed);
    assertThat(merged.lastLookup()).isEqualTo(clock.instant());
    assertThat(merged.isEmpty()).isFalse();
  }

  @Test
  void reserveEncryption_concurrentOnOneReplica_grantsExactlyTheLimit_andCountsThem()
      throws Exception {
    UsageLedger ledger = new UsageLedger(store, clock);
    ExecutorService threads = Executors.newFixedThreadPool(6);
    AtomicInteger granted = new AtomicInteger();
    for (int t = 0; t < 6; t++) {
      threads.execute(
          () -> {
            for (int i = 0; i < 5_000; i++) {
              if (ledger.reserveEncryption("k", 1, 20_000)) {
                granted.incrementAndGet();
              }
            }
          });
    }
    threads.shutdown();
    assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    assertThat(granted.get()).isEqualTo(20_000);
    ledger.merge();
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(20_000);
  }

  @Test
  void reserveEncryption_twoReplicas_passTheCapByAtMostOneBlock() throws Exception {
    long limit = 100 * UsageLedger.BLOCKS_PER_LIMIT; // a block of 100
    UsageLedger one = new UsageLedger(store, clock, 100);
    UsageLedger two = new UsageLedger(store, clock, 100);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    AtomicLong granted = new AtomicLong();
    for (int t = 0; t < 4; t++) {
      UsageLedger ledger = t % 2 == 0 ? one : two;
      threads.execute(
          () -> {
            while (ledger.reserveEncryption("k", 1, limit)) {
              granted.incrementAndGet();
            }
          });
    }
    threads.shutdown();
    assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    one.merge();
    two.merge();

    assertThat(granted.get()).isBetween(limit, limit + one.capBlock(limit));
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(granted.get());
  }

  @Test
  void capBlock_isTheOptionAtMost_aSixtyFourthOfTheLimit_andAtLeastOne() {
    UsageLedger ledger = new UsageLedger(store, clock, UsageLedger.DEFAULT_CAP_BLOCK);
    assertThat(ledger.capBlock(3)).isEqualTo(1);
    assertThat(ledger.capBlock(1L << 20)).isEqualTo(1L << 14);
    assertThat(new UsageLedger(store, clock, 100).capBlock(1L << 20)).isEqualTo(100);
    assertThat(ledger.capBlock(CipherMode.GCM.encryptionLimit())).isEqualTo(1L << 24);
  }

  @Test
  void encryptionBlock_aRunLargerThanABlock_isCountedOnce_exactly() {
    long limit = 1_000_000;
    UsageLedger ledger = new UsageLedger(store, clock);
    // A lease's first encryption reserves alone (KeyCache.forEncryption); the rest from blocks.
    assertThat(ledger.reserveEncryption("k", 1, limit)).isTrue();
    EncryptionBlock block = ledger.encryptionBlock("k", 1, limit);
    for (int i = 0; i < 299; i++) {
      assertThat(block.take()).isTrue();
    }
    // Five blocks reserved against the cap; four full ones counted as they were settled.
    assertThat(ledger.encryptions("k", 1)).isEqualTo(1 + 5 * UsageLedger.ENCRYPTION_BLOCK);
    assertThat(ledger.usage("k").get(1).encryptions()).isEqualTo(1 + 4 * 64);

    block.settle();

    assertThat(ledger.encryptions("k", 1)).isEqualTo(300);
    assertThat(ledger.usage("k").get(1).encryptions()).isEqualTo(300);
    assertThat(ledger.usage("k").get(1).lastUsed()).isEqualTo(clock.instant());
    ledger.merge();
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(300);
    assertThat(ledger.encryptions("k", 1)).isEqualTo(300);
    block.settle(); // a second settling counts nothing more
    assertThat(ledger.usage("k").get(1).encryptions()).isEqualTo(300);
  }

  @Test
  void encryptionBlock_givenBackAndUnusedEncryptions_countNoMore_acrossAMerge() {
    long limit = 1_000_000;
    UsageLedger ledger = new UsageLedger(store, clock);
    assertThat(ledger.reserveEncryption("k", 1, limit)).isTrue();
    EncryptionBlock block = ledger.encryptionBlock("k", 1, limit);
    for (int i = 0; i < 100; i++) {
      assertThat(block.take()).isTrue();
    }
    block.giveBack(); // an item that made no ciphertext
    ledger.merge(); // mid-run: the held block is neither lost nor merged twice
    assertThat(ledger.encryptions("k", 1)).isEqualTo(1 + 2 * 64);

    block.settle(); // the run stops midway: 28 reserved and unused go back

    assertThat(ledger.encryptions("k", 1)).isEqualTo(100);
    ledger.merge();
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(100);
    assertThat(ledger.encryptions("k", 1)).isEqualTo(100);
  }

  @Test
  void encryptionBlock_withoutALimit_countsOnlyWhenSettled() {
    UsageLedger ledger = new UsageLedger(store, clock);
    EncryptionBlock block = ledger.encryptionBlock("k", 1, 0);
    for (int i = 0; i < 1_000; i++) {
      assertThat(block.take()).isTrue();
    }
    block.giveBack();
    assertThat(ledger.usage("k")).isEmpty();

    block.settle();

    assertThat(ledger.usage("k").get(1).encryptions()).isEqualTo(999);
    assertThat(ledger.encryptions("k", 1)).isEqualTo(999);
  }

  @Test
  void encryptionBlocks_concurrentRunsUpToTheLimit_grantExactlyIt_andCountThem() throws Exception {
    long limit = 64 * 64 * 4; // a merge block of 256: two blocks held at most
    UsageLedger ledger = new UsageLedger(store, clock);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    AtomicLong granted = new AtomicLong();
    AtomicLong fromBlocks = new AtomicLong();
    for (int t = 0; t < 4; t++) {
      threads.execute(
          () -> {
            boolean refused = false;
            while (!refused) {
              // One run of 256 items, as a batch: each tenth item fails and gives its encryption
              // back.
              if (!ledger.reserveEncryption("k", 1, limit)) {
                break;
              }
              granted.incrementAndGet();
              EncryptionBlock block = ledger.encryptionBlock("k", 1, limit);
              for (int i = 1; i < 256; i++) {
                if (block.take()) {
                  fromBlocks.incrementAndGet();
                  if (i % 10 == 0) {
                    block.giveBack();
                    fromBlocks.decrementAndGet();
                  } else {
                    granted.incrementAndGet();
                  }
                } else if (ledger.reserveEncryption("k", 1, limit)) {
                  if (i % 10 == 0) {
                    ledger.releaseEncryption("k", 1);
                  } else {
                    granted.incrementAndGet();
                  }
                } else {
                  refused = true;
                  break;
                }
              }
              block.settle();
            }
          });
    }
    threads.shutdown();
    assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

    assertThat(granted.get()).isEqualTo(limit);
    assertThat(ledger.encryptions("k", 1)).isEqualTo(limit);
    assertThat(ledger.usage("k").get(1).encryptions()).isEqualTo(limit);
    assertThat(ledger.reserveEncryption("k", 1, limit)).isFalse();
    ledger.merge();
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(limit);
    // Far from the limit the runs took blocks; within 64 x the blocks held, one at a time.
    assertThat(fromBlocks.get()).isBetween(1L, limit - 64 * 64);
  }

  @Test
  void reserveEncryption_atTheLimit_waitsForABlockHeldElsewhere_andGetsWhatItDidNotUse()
      throws Exception {
    long limit = 64 * 64 * 4;
    UsageLedger ledger = new UsageLedger(store, clock);
    assertThat(ledger.reserveEncryption("k", 1, limit)).isTrue();
    EncryptionBlock held = ledger.encryptionBlock("k", 1, limit);
    assertThat(held.take()).isTrue(); // a batch holds a block and has used one of it
    long others = 0;
    while (ledger.encryptions("k", 1) < limit) {
      assertThat(ledger.reserveEncryption("k", 1, limit)).isTrue();
      others++;
    }
    // At the limit, with 63 of the block unused: a call waits rather than being refused.
    ExecutorService threads = Executors.newSingleThreadExecutor();
    try {
      var waiting = threads.submit(() -> ledger.reserveEncryption("k", 1, limit));
      Thread.sleep(50);
      assertThat(waiting.isDone()).isFalse();
      held.settle(); // the batch ends: 63 given back
      assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      threads.shutdownNow();
    }
    long made = 1 + 1 + others + 1;
    assertThat(ledger.encryptions("k", 1)).isEqualTo(made);
    assertThat(ledger.usage("k").get(1).encryptions()).isEqualTo(made);
    for (long i = made; i < limit; i++) {
      assertThat(ledger.reserveEncryption("k", 1, limit)).isTrue();
    }
    assertThat(ledger.reserveEncryption("k", 1, limit)).isFalse(); // nothing held: at once
    ledger.merge();
    assertThat(store.readUsage("k").get(1).encryptions()).isEqualTo(limit);
  }
}
