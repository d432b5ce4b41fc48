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
  void manyVersions_growTheTable() {
    ItemTally tally = new ItemTally();
    for (int version = 1; version <= 9; version++) {
      tally.add("k", version, "ok", version);
    }
    assertThat(tally.snapshot()).hasSize(9);
    assertThat(tally.items()).isEqualTo(45);
  }
}
