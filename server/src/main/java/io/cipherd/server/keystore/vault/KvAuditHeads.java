package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditHeadJson;
import io.github.jopenlibs.vault.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The audit trails' anchors in KV v2: one secret per trail at {@code <prefix>/_audit/heads/<trail
 * name, base64url>} holding the head's fields ({@link AuditHeadJson}), each write a check-and-set
 * on the secret's KV version. The KV version this replica last read or wrote is remembered, so a
 * trail's own writer anchors with one request; when another writer moved the head since, the
 * check-and-set fails and the stored head is read again to compare.
 */
final class KvAuditHeads {
  static final String FOLDER = "_audit/heads/";

  private record Known(AuditHead head, int kvVersion) {}

  private final KvClient kv;
  private final Map<String, Known> known = new ConcurrentHashMap<>();

  KvAuditHeads(KvClient kv) {
    this.kv = kv;
  }

  /** The secret of trail {@code trail}; any name maps to one safe path segment. */
  static String path(String trail) {
    return FOLDER
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(trail.getBytes(StandardCharsets.UTF_8));
  }

  Optional<AuditHead> read(String trail) {
    Optional<Known> stored = readStored(trail);
    return stored.map(Known::head);
  }

  boolean write(AuditHead expected, AuditHead next) {
    String trail = next.trail();
    Known last = known.get(trail);
    if (last == null || !Objects.equals(last.head(), expected)) {
      last = readStored(trail).orElse(new Known(null, 0));
      if (!Objects.equals(last.head(), expected)) {
        return false;
      }
    }
    var fields = Json.parse(AuditHeadJson.encodeString(next)).asObject();
    if (kv.writeVersion(path(trail), last.kvVersion(), fields)) {
      known.put(trail, new Known(next, last.kvVersion() + 1));
      return true;
    }
    // Our remembered KV version is stale, or the driver retried our own write: look again.
    Known now = readStored(trail).orElse(new Known(null, 0));
    if (next.equals(now.head())) {
      return true;
    }
    if (!Objects.equals(now.head(), expected)) {
      return false;
    }
    if (kv.writeVersion(path(trail), now.kvVersion(), fields)) {
      known.put(trail, new Known(next, now.kvVersion() + 1));
      return true;
    }
    return false;
  }

  private Optional<Known> readStored(String trail) {
    Optional<KvClient.Versioned> latest = kv.readLatest(path(trail));
    if (latest.isEmpty()) {
      known.remove(trail);
      return Optional.empty();
    }
    AuditHead head;
    try {
      head = AuditHeadJson.decodeString(latest.get().data().toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "the audit head in Vault at " + path(trail) + " is malformed: " + e.getMessage(), e);
    }
    Known stored = new Known(head, latest.get().version());
    known.put(trail, stored);
    return Optional.of(stored);
  }
}
