package io.cipherd.server.keystore.pkcs12;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.VersionLifecycle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code keys.json} codec: each key's policy and lifecycle by name, as readable JSON. It holds
 * no secrets.
 *
 * <pre>{"format": 2, "keys": {"payments": {
 *   "policy": {"min_decryption_version": 2, "min_encryption_version": 0,
 *              "allow_ecb_encryption": false, ...},
 *   "lifecycle": {"state": "ENABLED"},
 *   "versions": {"1": {"state": "DESTROYED", "destroy_time": "2026-01-02T03:04:05Z",
 *                      "metadata": {"type": "gcm", "key_size_bits": 256, ...}}}}}}</pre>
 *
 * <p>{@code "exportable": true} marks a key BackupKey may write out (absent: not exportable).
 * {@code versions} lists only the versions that are not enabled; a destroyed one keeps its metadata
 * here, since its PKCS12 entry is erased. Format 1 ({@code {"format": 1, "policies": {name:
 * policy}}}, every key and version enabled) is still read; the next write upgrades it.
 */
final class PolicyFile {
  static final int FORMAT = 2;
  private static final int FORMAT_POLICIES_ONLY = 1;

  private PolicyFile() {}

  /**
   * What the file holds of each key, by name; empty if the file does not exist. Throws {@link
   * IllegalArgumentException} saying what is malformed.
   */
  static Map<String, StoredKey> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Map.of();
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      JsonObject root = JsonParser.parseString(text).getAsJsonObject();
      int format = intField(root, "format");
      if (format != FORMAT && format != FORMAT_POLICIES_ONLY) {
        throw new IllegalArgumentException(
            "format is " + format + "; this cipherd reads formats 1 and " + FORMAT);
      }
      JsonObject byName = root.getAsJsonObject(format == FORMAT ? "keys" : "policies");
      Map<String, StoredKey> keys = new TreeMap<>();
      for (Map.Entry<String, JsonElement> e : byName.entrySet()) {
        if (!EnvelopeHeader.isValidKeyName(e.getKey())) {
          throw new IllegalArgumentException("entry for invalid key name '" + e.getKey() + "'");
        }
        JsonObject o = e.getValue().getAsJsonObject();
        try {
          keys.put(e.getKey(), format == FORMAT ? storedKey(o) : StoredKey.enabled(policy(o)));
        } catch (RuntimeException problem) {
          throw new IllegalArgumentException(
              "key '" + e.getKey() + "': " + problem.getMessage(), problem);
        }
      }
      return keys;
    } catch (JsonParseException
        | IllegalStateException
        | ClassCastException
        | NullPointerException e) {
      // Gson reports shape errors with these; none of them carries secrets (the file holds none).
      throw new IllegalArgumentException("not a cipherd policy file: " + e.getMessage(), e);
    }
  }

  /** The file content for {@code keys}, names sorted so the file diffs well. */
  static byte[] encode(Collection<KeyMetadata> keys) {
    Map<String, KeyMetadata> sorted = new TreeMap<>();
    keys.forEach(key -> sorted.put(key.name(), key));
    JsonObject byName = new JsonObject();
    sorted.forEach((name, key) -> byName.add(name, storedKey(StoredKey.of(key))));
    JsonObject root = new JsonObject();
    root.addProperty("format", FORMAT);
    root.add("keys", byName);
    String json = new GsonBuilder().setPrettyPrinting().create().toJson(root) + "\n";
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Replaces {@code file} atomically with {@code keys}; throws {@link
   * KeyStoreUnavailableException}, leaving the file unchanged, if that fails.
   */
  static void write(Path file, Collection<KeyMetadata> keys) {
    try {
      AtomicFiles.replace(file, out -> out.write(encode(keys)));
    } catch (Exception e) {
      throw new KeyStoreUnavailableException(
          "cannot write " + file + "; nothing was changed: " + e, e);
    }
  }

  private static JsonObject storedKey(StoredKey key) {
    JsonObject o = new JsonObject();
    o.add("policy", policy(key.policy()));
    o.add("lifecycle", VersionInfoJson.keyLifecycle(key.lifecycle()));
    JsonObject versions = new JsonObject();
    key.versionStates()
        .forEach(
            (number, lifecycle) ->
                versions.add(
                    Integer.toString(number),
                    VersionInfoJson.version(lifecycle, key.destroyedVersions().get(number))));
    o.add("versions", versions);
    if (key.exportable()) {
      o.addProperty("exportable", true);
    }
    return o;
  }

  private static StoredKey storedKey(JsonObject o) {
    SortedMap<Integer, VersionLifecycle> states = new TreeMap<>();
    SortedMap<Integer, KeyVersionInfo> destroyed = new TreeMap<>();
    for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("versions").entrySet()) {
      int number;
      try {
        number = Integer.parseInt(e.getKey());
      } catch (NumberFormatException bad) {
        throw new IllegalArgumentException("version '" + e.getKey() + "' is not a number", bad);
      }
      JsonObject v = e.getValue().getAsJsonObject();
      VersionLifecycle lifecycle = VersionInfoJson.versionLifecycle(v);
      states.put(number, lifecycle);
      if (lifecycle.state() == VersionLifecycle.State.DESTROYED) {
        JsonObject metadata = v.getAsJsonObject("metadata");
        if (metadata == null) {
          throw new IllegalArgumentException("destroyed version " + number + " has no metadata");
        }
        destroyed.put(number, VersionInfoJson.info(number, metadata, lifecycle));
      }
    }
    return new StoredKey(
        policy(o.getAsJsonObject("policy")),
        VersionInfoJson.keyLifecycle(o.getAsJsonObject("lifecycle")),
        states,
        destroyed,
        // Absent from files written before backups existed, and from keys never made exportable.
        optionalBoolean(o, "exportable"));
  }

  private static JsonObject policy(KeyPolicy p) {
    JsonObject o = new JsonObject();
    o.addProperty("min_decryption_version", p.minDecryptionVersion());
    o.addProperty("min_encryption_version", p.minEncryptionVersion());
    o.addProperty("allow_ecb_encryption", p.allowEcbEncryption());
    o.addProperty("auto_rotate_period_seconds", p.autoRotatePeriod().toSeconds());
    o.addProperty("max_encryptions_per_version", p.maxEncryptionsPerVersion());
    o.addProperty("cancel_destruction_on_use", p.cancelDestructionOnUse());
    return o;
  }

  private static KeyPolicy policy(JsonObject o) {
    JsonElement ecb = o.get("allow_ecb_encryption");
    if (ecb == null || !ecb.isJsonPrimitive() || !ecb.getAsJsonPrimitive().isBoolean()) {
      throw new IllegalArgumentException("allow_ecb_encryption must be true or false");
    }
    try {
      // Files written before automatic rotation existed lack its fields: they mean "off".
      return new KeyPolicy(
          intField(o, "min_decryption_version"),
          intField(o, "min_encryption_version"),
          ecb.getAsBoolean(),
          Duration.ofSeconds(optionalLong(o, "auto_rotate_period_seconds")),
          optionalLong(o, "max_encryptions_per_version"),
          optionalBoolean(o, "cancel_destruction_on_use"));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** A setting added after files were first written: absent means false. */
  private static boolean optionalBoolean(JsonObject o, String field) {
    JsonElement e = o.get(field);
    if (e == null) {
      return false;
    }
    if (!e.isJsonPrimitive() || !((JsonPrimitive) e).isBoolean()) {
      throw new IllegalArgumentException(field + " must be true or false");
    }
    return e.getAsBoolean();
  }

  private static long optionalLong(JsonObject o, String field) {
    JsonElement e = o.get(field);
    if (e == null) {
      return 0;
    }
    if (!e.isJsonPrimitive() || !((JsonPrimitive) e).isNumber()) {
      throw new IllegalArgumentException(field + " must be a number");
    }
    return e.getAsLong();
  }

  private static int intField(JsonObject o, String field) {
    JsonElement e = o.get(field);
    if (e == null || !e.isJsonPrimitive() || !((JsonPrimitive) e).isNumber()) {
      throw new IllegalArgumentException(field + " must be a number");
    }
    return e.getAsInt();
  }
}
