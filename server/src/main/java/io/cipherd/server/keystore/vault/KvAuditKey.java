package io.cipherd.server.keystore.vault;

import io.cipherd.server.crypto.NonceSource;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * The KV secret {@code <prefix>/_audit/key} holding the audit key: {@code {"material":
 * "<base64>"}}. Written once with {@code cas=0}, so of replicas starting together one writes and
 * all read back the same bytes. The folder starts with '_', which no key name does.
 */
final class KvAuditKey {
  static final String PATH = "_audit/key";
  static final int LENGTH = 32;

  private KvAuditKey() {}

  /** The stored audit key, created first if there is none. */
  static byte[] readOrCreate(KvClient kv) {
    Optional<byte[]> stored = read(kv);
    if (stored.isPresent()) {
      return stored.get();
    }
    byte[] fresh = NonceSource.bytes(LENGTH);
    try {
      // A false answer means another replica wrote first: its key is the one read below.
      kv.writeVersion(
          PATH, 0, new JsonObject().add("material", Base64.getEncoder().encodeToString(fresh)));
    } finally {
      Arrays.fill(fresh, (byte) 0);
    }
    return read(kv)
        .orElseThrow(
            () -> new IllegalStateException("the audit key was written but cannot be read back"));
  }

  private static Optional<byte[]> read(KvClient kv) {
    return kv.readLatest(PATH)
        .map(
            latest -> {
              JsonValue material = latest.data().get("material");
              byte[] bytes =
                  material == null || !material.isString()
                      ? new byte[0]
                      : Base64.getDecoder().decode(material.asString());
              if (bytes.length != LENGTH) {
                throw new IllegalStateException(
                    "the audit key in Vault at " + PATH + " is not " + LENGTH + " bytes");
              }
              return bytes;
            });
  }
}
