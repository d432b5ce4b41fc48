package io.cipherd.server.keystore.pkcs12;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.keys.KeyPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code keys.json} codec: each key's policy by name, as readable JSON. It holds no secrets.
 *
 * <pre>{"format": 1, "policies": {"payments": {"min_decryption_version": 2,
 *   "min_encryption_version": 0, "allow_ecb_encryption": false}}}</pre>
 */
final class PolicyFile {
  static final int FORMAT = 1;

  private PolicyFile() {}

  /**
   * The policies in {@code file}, by name; empty if the file does not exist. Throws {@link
   * IllegalArgumentException} saying what is malformed.
   */
  static Map<String, KeyPolicy> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Map.of();
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      JsonObject root = JsonParser.parseString(text).getAsJsonObject();
      int format = intField(root, "format");
      if (format != FORMAT) {
        throw new IllegalArgumentException(
            "format is " + format + "; this cipherd reads format " + FORMAT);
      }
      Map<String, KeyPolicy> policies = new TreeMap<>();
      for (Map.Entry<String, JsonElement> e : root.getAsJsonObject("policies").entrySet()) {
        if (!EnvelopeHeader.isValidKeyName(e.getKey())) {
          throw new IllegalArgumentException("policy for invalid key name '" + e.getKey() + "'");
        }
        policies.put(e.getKey(), policy(e.getValue().getAsJsonObject()));
      }
      return policies;
    } catch (JsonParseException
        | IllegalStateException
        | ClassCastException
        | NullPointerException e) {
      // Gson reports shape errors with these; none of them carries secrets (the file holds none).
      throw new IllegalArgumentException("not a cipherd policy file: " + e.getMessage(), e);
    }
  }

  /** The file content for {@code policies}, names sorted so the file diffs well. */
  static byte[] encode(Map<String, KeyPolicy> policies) {
    JsonObject byName = new JsonObject();
    new TreeMap<>(policies)
        .forEach(
            (name, p) -> {
              JsonObject o = new JsonObject();
              o.addProperty("min_decryption_version", p.minDecryptionVersion());
              o.addProperty("min_encryption_version", p.minEncryptionVersion());
              o.addProperty("allow_ecb_encryption", p.allowEcbEncryption());
              o.addProperty("auto_rotate_period_seconds", p.autoRotatePeriod().toSeconds());
              o.addProperty("max_encryptions_per_version", p.maxEncryptionsPerVersion());
              byName.add(name, o);
            });
    JsonObject root = new JsonObject();
    root.addProperty("format", FORMAT);
    root.add("policies", byName);
    String json = new GsonBuilder().setPrettyPrinting().create().toJson(root) + "\n";
    return json.getBytes(StandardCharsets.UTF_8);
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
          optionalLong(o, "max_encryptions_per_version"));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
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
