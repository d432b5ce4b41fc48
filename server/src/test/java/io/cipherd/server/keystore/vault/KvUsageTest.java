package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.VersionUsage;
import io.github.jopenlibs.vault.json.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The usage secret and the policy's custom metadata, without a Vault: what older servers wrote
 * still reads, and the new fields round trip.
 */
class KvUsageTest {
  private static final Instant USED = Instant.parse("2026-11-23T10:00:00Z");
  private static final Instant LOOKED_UP = Instant.parse("2026-11-24T10:00:00.5Z");

  @Test
  void everyCounter_roundTrips() {
    Map<Integer, VersionUsage> usage =
        Map.of(1, new VersionUsage(1, 2, 3, 4, USED, 6, 5, LOOKED_UP), 2, VersionUsage.NONE);

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
        .containsExactly(Map.entry(1, new VersionUsage(1, 2, 3, 4, USED, 0, 0, null)));
  }

  @Test
  void aSecretWrittenBeforeFailuresWereCounted_readsThemAsZero() {
    Map<Integer, VersionUsage> usage =
        KvUsage.decode(
            Json.parse(
                    "{\"2\": {\"encryptions\": 12, \"decryptions\": 3, \"rewraps\": 1,"
                        + " \"last_used\": \"2026-11-23T10:00:00Z\"}}")
                .asObject());

    assertThat(usage.get(2))
        .isEqualTo(new VersionUsage(12, 3, 1, 0, Instant.parse("2026-11-23T10:00:00Z"), 0));
  }

  @Test
  void failures_roundTrip() {
    Map<Integer, VersionUsage> usage =
        Map.of(3, new VersionUsage(1, 2, 3, 4, Instant.parse("2026-11-23T10:00:00Z"), 5));

    assertThat(KvUsage.decode(KvUsage.encode(usage))).isEqualTo(usage);
  }

  @Test
  void cancelDestructionOnUse_roundTrips_andIsOffForMetadataWrittenBeforeIt() {
    KeyPolicy policy = new KeyPolicy(2, 0, false, Duration.ZERO, 0, true);

    assertThat(KvKeySettings.policy(KvKeySettings.metadataWrite(policy))).isEqualTo(policy);
    assertThat(
            KvKeySettings.policy(
                    Json.parse("{\"custom_metadata\": {\"min_decryption_version\": \"2\"}}")
                        .asObject())
                .cancelDestructionOnUse())
        .isFalse();
  }
}
