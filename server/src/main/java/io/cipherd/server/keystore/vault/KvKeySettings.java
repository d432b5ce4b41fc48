package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyPolicy;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.time.Duration;

/**
 * What cipherd writes to a key's KV metadata: the policy as custom metadata, and the settings that
 * keep every version forever.
 *
 * <p>KV v2's {@code max_versions = 0} does not mean "unlimited": it means the mount's setting, and
 * a mount setting of 0 means 10, so the eleventh rotation would silently destroy version 1. cipherd
 * therefore sets the largest value Vault accepts on each key. {@code cas_required} makes Vault
 * reject any write to a key without check-and-set, and {@code delete_version_after = 0s} disables
 * expiry.
 */
final class KvKeySettings {
  /** Vault keeps the newest {@code max_versions}; this many is never reached. */
  static final int KEEP_ALL_VERSIONS = Integer.MAX_VALUE;

  static final String MIN_DECRYPTION_VERSION = "min_decryption_version";
  static final String MIN_ENCRYPTION_VERSION = "min_encryption_version";
  static final String ALLOW_ECB_ENCRYPTION = "allow_ecb_encryption";
  static final String AUTO_ROTATE_PERIOD_SECONDS = "auto_rotate_period_seconds";
  static final String MAX_ENCRYPTIONS_PER_VERSION = "max_encryptions_per_version";
  static final String CANCEL_DESTRUCTION_ON_USE = "cancel_destruction_on_use";

  private KvKeySettings() {}

  /** The body of a metadata write that stores {@code policy} and the keep-everything settings. */
  static JsonObject metadataWrite(KeyPolicy policy) {
    JsonObject custom =
        Json.object()
            .add(MIN_DECRYPTION_VERSION, Integer.toString(policy.minDecryptionVersion()))
            .add(MIN_ENCRYPTION_VERSION, Integer.toString(policy.minEncryptionVersion()))
            .add(ALLOW_ECB_ENCRYPTION, Boolean.toString(policy.allowEcbEncryption()))
            .add(AUTO_ROTATE_PERIOD_SECONDS, Long.toString(policy.autoRotatePeriod().toSeconds()))
            .add(MAX_ENCRYPTIONS_PER_VERSION, Long.toString(policy.maxEncryptionsPerVersion()))
            .add(CANCEL_DESTRUCTION_ON_USE, Boolean.toString(policy.cancelDestructionOnUse()));
    return Json.object()
        .add("max_versions", KEEP_ALL_VERSIONS)
        .add("cas_required", true)
        .add("delete_version_after", "0s")
        .add("custom_metadata", custom);
  }

  /** Whether a key's metadata still has the settings that keep every version. */
  static boolean keepsAllVersions(JsonObject metadata) {
    JsonValue max = metadata.get("max_versions");
    JsonValue cas = metadata.get("cas_required");
    return max != null
        && max.isNumber()
        && max.asLong() >= KEEP_ALL_VERSIONS
        && cas != null
        && cas.isBoolean()
        && cas.asBoolean();
  }

  /** The policy in the metadata's custom metadata; the default policy if there is none yet. */
  static KeyPolicy policy(JsonObject metadata) {
    JsonValue custom = metadata.get("custom_metadata");
    if (custom == null || !custom.isObject()) {
      return KeyPolicy.DEFAULT;
    }
    JsonObject fields = custom.asObject();
    return new KeyPolicy(
        intField(fields, MIN_DECRYPTION_VERSION),
        intField(fields, MIN_ENCRYPTION_VERSION),
        Boolean.parseBoolean(stringField(fields, ALLOW_ECB_ENCRYPTION, "false")),
        Duration.ofSeconds(Long.parseLong(stringField(fields, AUTO_ROTATE_PERIOD_SECONDS, "0"))),
        Long.parseLong(stringField(fields, MAX_ENCRYPTIONS_PER_VERSION, "0")),
        // Absent from keys written before the setting existed: off.
        Boolean.parseBoolean(stringField(fields, CANCEL_DESTRUCTION_ON_USE, "false")));
  }

  private static int intField(JsonObject fields, String name) {
    return Integer.parseInt(stringField(fields, name, "0"));
  }

  private static String stringField(JsonObject fields, String name, String absent) {
    JsonValue value = fields.get(name);
    return value == null || !value.isString() ? absent : value.asString();
  }
}
