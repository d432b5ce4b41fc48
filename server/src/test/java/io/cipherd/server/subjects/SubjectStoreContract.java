package io.cipherd.server.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SubjectStore} does, whatever holds its rows: each implementation's test extends
 * this and says how to make an empty store, a second store on the same database (another replica),
 * and, where it can, how many statements reached the database.
 */
public abstract class SubjectStoreContract {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Instant T0 = Instant.ofEpochMilli(1_700_000_000_000L);
  private static final String KEY = "users";

  protected SubjectStore store;

  /** A new, empty store. */
  protected abstract SubjectStore newStore() throws Exception;

  /**
   * Another store on the database of the last {@link #newStore()}, as a second replica has (its own
   * pool); a store in memory returns itself.
   */
  protected abstract SubjectStore sameDatabase() throws Exception;

  /** Statements the stores of this test have run so far, or -1 where nothing counts them. */
  protected long statements() {
    return -1;
  }

  /** Closes what {@link #newStore()} and {@link #sameDatabase()} opened. */
  protected void closeAll() throws Exception {
    store.close();
  }

  @BeforeEach
  void open() throws Exception {
    store = newStore();
  }

  @AfterEach
  void close() throws Exception {
    closeAll();
  }

  @Test
  void find_unknownSubject_isAbsent() {
    assertThat(store.find(KEY, List.of(hash()))).isEmpty();
    assertThat(store.find(KEY, List.of())).isEmpty();
  }

  @Test
  void find_returnsLiveRowOfEachSubject_underItsKeyOnly() {
    SubjectRecord a = live(hash(), 1);
    SubjectRecord b = live(hash(), 2);
    SubjectRecord other = live("orders", a.subjectHash(), 1);
    store.createIfAbsent(List.of(a, b, other));

    Map<SubjectHash, SubjectRecord> found =
        store.find(KEY, List.of(a.subjectHash(), b.subjectHash(), hash()));

    assertThat(found).hasSize(2);
    assertSame(found.get(a.subjectHash()), a);
    assertSame(found.get(b.subjectHash()), b);
    assertSame(store.find("orders", List.of(a.subjectHash())).get(a.subjectHash()), other);
  }

  @Test
  void find_liveRowWinsOverTombstone() {
    SubjectHash subject = hash();
    SubjectRecord first = live(subject, 1);
    store.createIfAbsent(List.of(first));
    store.erase(KEY, List.of(subject), T0.plusSeconds(10));
    SubjectRecord second = live(subject, 1);
    store.createIfAbsent(List.of(second));

    SubjectRecord found = store.find(KEY, List.of(subject)).get(subject);

    assertSame(found, second);
    assertThat(found.isErased()).isFalse();
  }

  @Test
  void find_erasedSubject_givesLatestTombstone() {
    SubjectHash subject = hash();
    SubjectRecord first = live(subject, 1);
    store.createIfAbsent(List.of(first));
    store.erase(KEY, List.of(subject), T0.plusSeconds(10));
    SubjectRecord second = live(subject, 1);
    store.createIfAbsent(List.of(second));
    store.erase(KEY, List.of(subject), T0.plusSeconds(20));

    SubjectRecord found = store.find(KEY, List.of(subject)).get(subject);

    assertThat(found.ref()).isEqualTo(second.ref());
    assertThat(found.erased()).isEqualTo(T0.plusSeconds(20));
    assertThat(found.wrappedKey()).isNull();
    assertThat(found.wrapVersion()).isZero();
  }

  @Test
  void findByRef_returnsLiveAndErasedRows_unknownAbsent() {
    SubjectRecord a = live(hash(), 1);
    SubjectRecord b = live(hash(), 1);
    store.createIfAbsent(List.of(a, b));
    store.erase(KEY, List.of(b.subjectHash()), T0.plusSeconds(5));
    SubjectRef unknown = SubjectRef.random(RANDOM);

    Map<SubjectRef, SubjectRecord> found = store.findByRef(List.of(a.ref(), b.ref(), unknown));

    assertThat(found).containsOnlyKeys(a.ref(), b.ref());
    assertSame(found.get(a.ref()), a);
    assertThat(found.get(b.ref()).erased()).isEqualTo(T0.plusSeconds(5));
    assertThat(found.get(b.ref()).wrappedKey()).isNull();
    assertThat(store.findByRef(List.of())).isEmpty();
  }

  @Test
  void createIfAbsent_subjectWithLiveRow_returnsThatRow_andStoresNothing() {
    SubjectRecord first = live(hash(), 1);
    store.createIfAbsent(List.of(first));
    SubjectRecord loser = live(first.subjectHash(), 2);
    SubjectRecord fresh = live(hash(), 1);

    Map<SubjectHash, SubjectRecord> live = store.createIfAbsent(List.of(loser, fresh));

    assertSame(live.get(first.subjectHash()), first);
    assertSame(live.get(fresh.subjectHash()), fresh);
    assertThat(store.findByRef(List.of(loser.ref()))).isEmpty();
  }

  @Test
  void createIfAbsent_sameSubjectTwiceInOneCall_storesTheFirst() {
    SubjectHash subject = hash();
    SubjectRecord first = live(subject, 1);
    SubjectRecord second = live(subject, 1);

    Map<SubjectHash, SubjectRecord> live = store.createIfAbsent(List.of(first, second));

    assertSame(live.get(subject), first);
    assertThat(store.findByRef(List.of(second.ref()))).isEmpty();
  }

  @Test
  void createIfAbsent_twoReplicasAtOnce_endWithOneRowPerSubject_bothGetIt() throws Exception {
    SubjectStore other = sameDatabase();
    List<SubjectHash> subjects = IntStream.range(0, 200).mapToObj(i -> hash()).toList();
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Map<SubjectHash, SubjectRecord>>> results = new ArrayList<>();
      for (SubjectStore replica : List.of(store, other)) {
        // The second replica's batch names the subjects in the other order, as another caller's
        // batch would: the two inserts must not deadlock.
        List<SubjectRecord> rows = new ArrayList<>(subjects.stream().map(s -> live(s, 1)).toList());
        if (replica == other) {
          Collections.reverse(rows);
        }
        results.add(
            threads.submit(
                () -> {
                  start.await();
                  return replica.createIfAbsent(rows);
                }));
      }
      Map<SubjectHash, SubjectRecord> one = results.get(0).get();
      Map<SubjectHash, SubjectRecord> two = results.get(1).get();

      for (SubjectHash subject : subjects) {
        assertThat(one.get(subject).ref())
            .as("subject %s", subject)
            .isEqualTo(two.get(subject).ref());
      }
      assertThat(store.countByWrapVersion(KEY)).isEqualTo(Map.of(1, 200L));
      assertThat(other.find(KEY, subjects)).hasSize(200);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void erase_reportsEachSubjectsOutcome_inTheOrderGiven() {
    SubjectRecord earlier = live(hash(), 1);
    SubjectRecord b = live(hash(), 1);
    SubjectRecord d = live(hash(), 2);
    store.createIfAbsent(List.of(earlier, b, d));
    store.erase(KEY, List.of(earlier.subjectHash()), T0.plusSeconds(1));
    SubjectHash unknown = hash();
    Instant now = T0.plusSeconds(60);

    List<SubjectErasure> results =
        store.erase(
            KEY, List.of(b.subjectHash(), unknown, earlier.subjectHash(), d.subjectHash()), now);

    assertThat(results)
        .extracting(SubjectErasure::subjectHash)
        .containsExactly(b.subjectHash(), unknown, earlier.subjectHash(), d.subjectHash());
    assertThat(results)
        .extracting(SubjectErasure::outcome)
        .containsExactly(
            SubjectErasure.Outcome.ERASED,
            SubjectErasure.Outcome.NOT_FOUND,
            SubjectErasure.Outcome.ALREADY_ERASED,
            SubjectErasure.Outcome.ERASED);
    assertThat(results)
        .extracting(SubjectErasure::erased)
        .containsExactly(now, null, T0.plusSeconds(1), now);
    assertThat(results.get(0).refs()).containsExactly(b.ref());
    assertThat(results.get(1).refs()).isEmpty();
    assertThat(results.get(2).refs()).isEmpty();
    assertThat(results.get(3).refs()).containsExactly(d.ref());
    SubjectRecord tombstone = store.findByRef(List.of(b.ref())).get(b.ref());
    assertThat(tombstone.wrappedKey()).isNull();
    assertThat(tombstone.wrapVersion()).isZero();
    assertThat(tombstone.erased()).isEqualTo(now);
    assertThat(tombstone.created()).isEqualTo(b.created());
  }

  @Test
  void erase_underOneKey_leavesTheSameSubjectUnderAnotherKey() {
    SubjectHash subject = hash();
    store.createIfAbsent(List.of(live(subject, 1), live("orders", subject, 1)));

    store.erase(KEY, List.of(subject), T0);

    assertThat(store.find(KEY, List.of(subject)).get(subject).isErased()).isTrue();
    assertThat(store.find("orders", List.of(subject)).get(subject).isErased()).isFalse();
  }

  @Test
  void erase_thenCreate_makesANewLiveRow_andTheTombstoneStays() {
    SubjectRecord old = live(hash(), 1);
    store.createIfAbsent(List.of(old));
    store.erase(KEY, List.of(old.subjectHash()), T0.plusSeconds(1));
    SubjectRecord renewed = live(old.subjectHash(), 3);

    Map<SubjectHash, SubjectRecord> live = store.createIfAbsent(List.of(renewed));

    assertSame(live.get(old.subjectHash()), renewed);
    assertThat(store.findByRef(List.of(old.ref())).get(old.ref()).isErased()).isTrue();
    assertThat(store.countByWrapVersion(KEY)).isEqualTo(Map.of(3, 1L));
  }

  @Test
  void countByWrapVersion_countsLiveRowsOfOneKey() {
    SubjectRecord erased = live(hash(), 1);
    store.createIfAbsent(
        List.of(
            live(hash(), 1), live(hash(), 1), live(hash(), 2), erased, live("orders", hash(), 1)));
    store.erase(KEY, List.of(erased.subjectHash()), T0);

    assertThat(store.countByWrapVersion(KEY)).isEqualTo(Map.of(1, 2L, 2, 1L));
    assertThat(store.countByWrapVersion("orders")).isEqualTo(Map.of(1, 1L));
    assertThat(store.countByWrapVersion("none")).isEmpty();
  }

  @Test
  void wrappedBelow_pagesLiveRowsBelowAVersion_inReferenceOrder() {
    List<SubjectRecord> old =
        IntStream.range(0, 25).mapToObj(i -> live(hash(), 1 + i % 2)).toList();
    SubjectRecord erased = live(hash(), 1);
    List<SubjectRecord> rows = new ArrayList<>(old);
    rows.add(erased);
    rows.add(live(hash(), 3));
    rows.add(live("orders", hash(), 1));
    store.createIfAbsent(rows);
    store.erase(KEY, List.of(erased.subjectHash()), T0);

    List<SubjectRef> paged = new ArrayList<>();
    SubjectRef after = null;
    List<Integer> sizes = new ArrayList<>();
    while (true) {
      List<SubjectRecord> page = store.wrappedBelow(KEY, 3, after, 10);
      if (page.isEmpty()) {
        break;
      }
      sizes.add(page.size());
      page.forEach(row -> paged.add(row.ref()));
      after = page.getLast().ref();
    }

    assertThat(sizes).containsExactly(10, 10, 5);
    assertThat(paged)
        .containsExactlyElementsOf(
            old.stream()
                .map(SubjectRecord::ref)
                .sorted(Comparator.comparing(SubjectRef::bytes, Arrays::compareUnsigned))
                .toList());
    assertThat(store.wrappedBelow(KEY, 2, null, 100))
        .extracting(SubjectRecord::wrapVersion)
        .containsOnly(1)
        .hasSize(13);
  }

  @Test
  void rewrap_changesOnlyLiveRowsStillAtTheirFromVersion() {
    SubjectRecord a = live(hash(), 1);
    SubjectRecord moved = live(hash(), 2);
    SubjectRecord erased = live(hash(), 1);
    store.createIfAbsent(List.of(a, moved, erased));
    store.erase(KEY, List.of(erased.subjectHash()), T0);

    int changed =
        store.rewrap(
            List.of(
                new SubjectRewrap(a.ref(), 1, "<users/v3:gcm>a", 3),
                new SubjectRewrap(moved.ref(), 1, "<users/v3:gcm>stale", 3),
                new SubjectRewrap(erased.ref(), 1, "<users/v3:gcm>erased", 3),
                new SubjectRewrap(SubjectRef.random(RANDOM), 1, "<users/v3:gcm>none", 3)));

    assertThat(changed).isEqualTo(1);
    Map<SubjectRef, SubjectRecord> rows =
        store.findByRef(List.of(a.ref(), moved.ref(), erased.ref()));
    assertThat(rows.get(a.ref()).wrappedKey()).isEqualTo("<users/v3:gcm>a");
    assertThat(rows.get(a.ref()).wrapVersion()).isEqualTo(3);
    assertSame(rows.get(moved.ref()), moved);
    assertThat(rows.get(erased.ref()).isErased()).isTrue();
    assertThat(rows.get(erased.ref()).wrappedKey()).isNull();
    assertThat(store.rewrap(List.of())).isZero();
  }

  @Test
  void batches_costOneStatement_whateverTheirSize() {
    assumeTrue(statements() >= 0, "this store runs no statements");
    List<SubjectRecord> rows = IntStream.range(0, 300).mapToObj(i -> live(hash(), 1)).toList();
    List<SubjectHash> subjects = rows.stream().map(SubjectRecord::subjectHash).toList();
    List<SubjectRef> refs = rows.stream().map(SubjectRecord::ref).toList();

    assertThat(counted(() -> store.createIfAbsent(rows)))
        .as("createIfAbsent, all new")
        .isEqualTo(1);
    assertThat(counted(() -> store.find(KEY, subjects))).as("find").isEqualTo(1);
    assertThat(counted(() -> store.findByRef(refs))).as("findByRef").isEqualTo(1);
    List<SubjectRecord> again = subjects.stream().map(s -> live(s, 1)).toList();
    assertThat(counted(() -> store.createIfAbsent(again)))
        .as("createIfAbsent, all taken: the insert, then one read of the winners")
        .isEqualTo(2);
    assertThat(
            counted(
                () ->
                    store.rewrap(
                        refs.subList(0, 200).stream()
                            .map(ref -> new SubjectRewrap(ref, 1, "<users/v2:gcm>x", 2))
                            .toList())))
        .as("rewrap")
        .isEqualTo(1);
    assertThat(counted(() -> store.erase(KEY, subjects.subList(0, 100), T0)))
        .as("erase, all live")
        .isEqualTo(1);
    List<SubjectHash> mixed = new ArrayList<>(subjects.subList(50, 200));
    mixed.add(hash());
    assertThat(counted(() -> store.erase(KEY, mixed, T0.plusSeconds(1))))
        .as("erase, some erased or unknown: the update, then one read of their tombstones")
        .isEqualTo(2);
    assertThat(counted(() -> store.countByWrapVersion(KEY))).isEqualTo(1);
    assertThat(counted(() -> store.wrappedBelow(KEY, 5, null, 100))).isEqualTo(1);
  }

  @Test
  void badInput_isRefused() {
    store.createIfAbsent(List.of(live(hash(), 1)));
    SubjectRecord erased = live(hash(), 1).erasedAt(T0);
    assertThatThrownBy(() -> store.createIfAbsent(List.of(erased)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.wrappedBelow(KEY, 2, null, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.find(KEY, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> store.findByRef(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> store.erase(KEY, null, T0)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> store.createIfAbsent(null)).isInstanceOf(NullPointerException.class);
    assertThat(store.erase(KEY, List.of(), T0)).isEmpty();
    assertThat(store.createIfAbsent(List.of())).isEmpty();
  }

  private long counted(Runnable call) {
    long before = statements();
    call.run();
    return statements() - before;
  }

  /** Same row, field by field (records' equals would compare hash objects, which it does too). */
  protected static void assertSame(SubjectRecord actual, SubjectRecord expected) {
    assertThat(actual).as("row").isNotNull();
    assertThat(actual.ref()).isEqualTo(expected.ref());
    assertThat(actual.keyName()).isEqualTo(expected.keyName());
    assertThat(actual.subjectHash()).isEqualTo(expected.subjectHash());
    assertThat(actual.wrappedKey()).isEqualTo(expected.wrappedKey());
    assertThat(actual.wrapVersion()).isEqualTo(expected.wrapVersion());
    assertThat(actual.created()).isEqualTo(expected.created());
    assertThat(actual.erased()).isEqualTo(expected.erased());
  }

  /** A random subject hash. */
  protected static SubjectHash hash() {
    byte[] bytes = new byte[SubjectHash.LENGTH];
    RANDOM.nextBytes(bytes);
    return SubjectHash.of(bytes);
  }

  /** A new live row of {@code subject} under the test key, wrapped under {@code version}. */
  protected static SubjectRecord live(SubjectHash subject, int version) {
    return live(KEY, subject, version);
  }

  /** A new live row with a fresh reference; its "wrapped key" names the row, for tests only. */
  protected static SubjectRecord live(String keyName, SubjectHash subject, int version) {
    SubjectRef ref = SubjectRef.random(RANDOM);
    return SubjectRecord.live(
        ref, keyName, subject, "<" + keyName + "/v" + version + ":gcm>" + ref, version, T0);
  }
}
