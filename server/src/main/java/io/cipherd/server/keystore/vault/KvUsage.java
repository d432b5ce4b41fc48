package io.cipherd.server.keystore.vault;

import dev.failsafe.RetryPolicy;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.VersionUsage;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The KV secret {@code <prefix>/_usage/<name>} holding a key's merged usage: {@code {"1":
 * {"encryptions": 12, "decryptions": 3, "rewraps": 0, "indexes": 0, "failures": 0, "last_used":
 * "2026-...", "index_lookups": 0, "last_lookup": "2026-..."}}}; a field a secret written before it
 * existed lacks reads as 0 or absent. The folder starts with '_', which no key name does, and
 * listings skip folders.
 */
final class KvUsage {
  /**
   * How a usage write that lost a check-and-set race is retried: on a capped key near its limit,
   * every replica merges on each encryption, so writes collide in bursts; jittered, growing pauses
   * spread them out. A write that loses every attempt throws {@code ConcurrentKeyUpdateException}
   * (ABORTED, safe to retry), and a periodic merge keeps its counts for the next one.
   */
  static final RetryPolicy<Map<Integer, VersionUsage>> CAS_RETRY =
      RetryPolicy.<Map<Integer, VersionUsage>>builder()
          .handle(ConcurrentKeyUpdateException.class)
          .withMaxAttempts(16)
          .withBackoff(Duration.ofMillis(1), Duration.ofMillis(50))
          .withJitter(0.5)
          .build();

  private KvUsage() {}

  static String path(String name) {
    return "_usage/" + name;
  }

  static JsonObject encode(Map<Integer, VersionUsage> usage) {
    JsonObject data = new JsonObject();
    usage.forEach(
        (version, u) -> {
          JsonObject o =
              new JsonObject()
                  .add("encryptions", u.encryptions())
                  .add("decryptions", u.decryptions())
                  .add("rewraps", u.rewraps())
                  .add("indexes", u.indexes())
                  .add("failures", u.failures())
                  .add("index_lookups", u.indexLookups());
          if (u.lastUsed() != null) {
            o.add("last_used", u.lastUsed().toString());
          }
          if (u.lastLookup() != null) {
            o.add("last_lookup", u.lastLookup().toString());
          }
          data.add(Integer.toString(version), o);
        });
    return data;
  }

  static Map<Integer, VersionUsage> decode(JsonObject data) {
    Map<Integer, VersionUsage> usage = new HashMap<>();
    for (JsonObject.Member member : data) {
      if (!member.getValue().isObject()) {
        continue;
      }
      JsonObject o = member.getValue().asObject();
      usage.put(
          Integer.parseInt(member.getName()),
          new VersionUsage(
              o.getLong("encryptions", 0),
              o.getLong("decryptions", 0),
              o.getLong("rewraps", 0),
              o.getLong("indexes", 0),
              time(o.get("last_used")),
              o.getLong("failures", 0),
              o.getLong("index_lookups", 0),
              time(o.get("last_lookup"))));
    }
    return usage;
  }

  private static Instant time(JsonValue value) {
    return value == null || !value.isString() ? null : Instant.parse(value.asString());
  }
}
