package io.cipherd.server.keystore.vault;

import io.cipherd.server.crypto.NonceSource;
import io.github.jopenlibs.vault.json.JsonObject;
import java.util.Arrays;
import java.util.Optional;

/**
 * The KV secret {@code <prefix>/_audit/key} holding the audit key: {@code {"material":
 * "<base64>"}}, or with a key-encryption key {@code {"material_wrapped": ..., "kek": ...}} ({@link
 * KvMaterial}). Written once with {@code cas=0}, so of replicas starting together one writes and
 * all read back the same bytes; {@code cipherd kek migrate} writes the wrapped key as the next KV
 * version and destroys the raw ones. The folder starts with '_', which no key name does.
 */
final class KvAuditKey {
  static final String PATH = "_audit/key";
  static final int LENGTH = 32;

  private KvAuditKey() {}

  /** The stored audit key, created first if there is none. */
  static byte[] readOrCreate(KvClient kv, KvMaterial material) {
    Optional<byte[]> stored = read(kv, material);
    if (stored.isPresent()) {
      return stored.get();
    }
    byte[] fresh = NonceSource.bytes(LENGTH);
    try {
      // A false answer means another replica wrote first: its key is the one read below.
      kv.writeVersion(PATH, 0, material.put(new JsonObject(), fresh, KvMaterial.AUDIT_KEY_DATA));
    } finally {
      Arrays.fill(fresh, (byte) 0);
    }
    return read(kv, material)
        .orElseThrow(
            () -> new IllegalStateException("the audit key was written but cannot be read back"));
  }

  static Optional<byte[]> read(KvClient kv, KvMaterial material) {
    return kv.readLatest(PATH).map(latest -> decode(latest.data(), material));
  }

  static byte[] decode(JsonObject data, KvMaterial material) {
    byte[] bytes = material.get("the audit key at " + PATH, data, KvMaterial.AUDIT_KEY_DATA);
    if (bytes.length != LENGTH) {
      Arrays.fill(bytes, (byte) 0);
      throw new IllegalStateException(
          "the audit key in Vault at " + PATH + " is not " + LENGTH + " bytes");
    }
    return bytes;
  }
}
