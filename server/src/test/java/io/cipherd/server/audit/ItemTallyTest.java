package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A call's tally: per key version, items per outcome, in first-seen order, summing to the items.
 */
class ItemTallyTest {
  @Test
  void countsMergePerVersionAndOutcome_inFirstSeenOrder() {
    ItemTally tally = new ItemTally();
    for (int i = 0; i < 250; i++) {
      tally.add("orders", 2, "ok");
    }
    // Equal strings that are not the same instance still count together.
    tally.add(new String("orders"), 2, new String("DECRYPTION_FAILED"), 6);
    tally.add("orders", 1, "ok");
    tally.add("-", ItemTally.NO_VERSION, "INVALID_CIPHERTEXT");
    for (int outcome = 0; outcome < 5; outcome++) {
      tally.add("orders", 1, "E" + outcome);
    }

    List<ItemTally.VersionOutcomes> versions = tally.snapshot();

    assertThat(versions)
        .extracting(ItemTally.VersionOutcomes::version)
        .containsExactly(2, 1, ItemTally.NO_VERSION);
    assertThat(versions.get(0).outcomes())
        .containsExactly(Map.entry("ok", 250L), Map.entry("DECRYPTION_FAILED", 6L));
    assertThat(versions.get(1).outcomes().keySet())
        .containsExactly("ok", "E0", "E1", "E2", "E3", "E4");
    assertThat(tally.items()).isEqualTo(250 + 6 + 1 + 1 + 5);
  }

  @Test
  void manyVersions_growTheTable_upToTheBudget() {
    ItemTally tally = new ItemTally();
    for (int version = 1; version <= ItemTally.MAX_ROWS; version++) {
      tally.add("k", version, "ok", version);
    }
    assertThat(tally.snapshot()).hasSize(ItemTally.MAX_ROWS);
    assertThat(tally.folded()).isNull();
    assertThat(tally.items()).isEqualTo(ItemTally.MAX_ROWS * (ItemTally.MAX_ROWS + 1) / 2);
  }

  @Test
  void versionsPastTheBudget_foldIntoOneRow_andTheCountsStillAddUp() {
    ItemTally tally = new ItemTally();
    for (int version = 1; version <= 4096; version++) {
      tally.add("k", version, version % 2 == 0 ? "ok" : "KEY_VERSION_NOT_FOUND");
    }
    tally.add("k", 1, "ok", 10); // a kept row still counts more items

    assertThat(tally.snapshot()).hasSize(ItemTally.MAX_ROWS);
    assertThat(tally.snapshot().get(0).outcomes())
        .containsExactly(Map.entry("KEY_VERSION_NOT_FOUND", 1L), Map.entry("ok", 10L));
    ItemTally.Folded folded = tally.folded();
    assertThat(folded.keyVersions()).isEqualTo(4096 - ItemTally.MAX_ROWS);
    assertThat(folded.more()).isFalse();
    assertThat(folded.outcomes())
        .containsExactly(Map.entry("KEY_VERSION_NOT_FOUND", 2040L), Map.entry("ok", 2040L));
    assertThat(tally.items()).isEqualTo(4096 + 10);
  }

  @Test
  void foldedVersions_stopBeingToldApart_pastTheirBound() {
    ItemTally tally = new ItemTally();
    int named = ItemTally.MAX_ROWS + ItemTally.MAX_FOLDED_COUNTED + 5;
    for (int i = 0; i < named; i++) {
      tally.add("key-" + i, 1, "ACCESS_DENIED");
    }
    assertThat(tally.folded().keyVersions()).isEqualTo(ItemTally.MAX_FOLDED_COUNTED);
    assertThat(tally.folded().more()).isTrue();
    assertThat(tally.items()).isEqualTo(named);
  }

  @Test
  void aFewVersions_foldNothing() {
    ItemTally tally = new ItemTally();
    tally.add("k", 1, "ok");
    assertThat(tally.folded()).isNull();
  }
}
