package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.VersionUsage;
import io.github.jopenlibs.vault.json.Json;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The usage secret's encoding, and secrets written before a counter existed. */
class KvUsageTest {
  private static final Instant USED = Instant.parse("2026-11-23T10:00:00Z");
  private static final Instant LOOKED_UP = Instant.parse("2026-11-24T10:00:00.5Z");

  @Test
  void everyCounter_roundTrips() {
    Map<Integer, VersionUsage> usage =
        Map.of(1, new VersionUsage(1, 2, 3, 4, USED, 5, LOOKED_UP), 2, VersionUsage.NONE);

    assertThat(KvUsage.decode(KvUsage.encode(usage))).isEqualTo(usage);
  }

  @Test
  void secretWrittenBeforeLookupsWereCounted_readsNone() {
    var old =
        Json.parse(
                """
                {"1": {"encryptions": 1, "decryptions": 2, "rewraps": 3, "indexes": 4,
                       "last_used": "2026-11-23T10:00:00Z"}}
                """)
            .asObject();

    assertThat(KvUsage.decode(old))
        .containsExactly(Map.entry(1, new VersionUsage(1, 2, 3, 4, USED, 0, null)));
  }
}
