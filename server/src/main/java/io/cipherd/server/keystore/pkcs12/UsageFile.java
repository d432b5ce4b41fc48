package io.cipherd.server.keystore.pkcs12;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.keys.VersionUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code usage.json} beside the key store: each key version's merged usage counts. Not secret, and
 * not needed to decrypt: a lost or damaged file only resets the counts (logged by the store).
 *
 * <pre>{"format": 1, "usage": {"payments": {"1": {"encryptions": 12, "decryptions": 3,
 *   "rewraps": 0, "indexes": 0, "failures": 0, "last_used": "2026-11-23T10:00:00Z",
 *   "index_lookups": 0, "last_lookup": null}}}}</pre>
 *
 * <p>A field a file written before it existed lacks ({@code indexes}, {@code failures}, {@code
 * index_lookups}, {@code last_lookup}) reads as 0 or null, so older files stay readable.
 */
final class UsageFile {
  static final int FORMAT = 1;

  private UsageFile() {}

  /** The file's counts by key and version; empty if there is no file yet. */
  static Map<String, Map<Integer, VersionUsage>> read(Path file) throws IOException {
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new HashMap<>();
    }
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    if (root.get("format").getAsInt() != FORMAT) {
      throw new IOException(file + " has format " + root.get("format") + ", expected " + FORMAT);
    }
    Map<String, Map<Integer, VersionUsage>> all = new HashMap<>();
    for (Map.Entry<String, JsonElement> key : root.getAsJsonObject("usage").entrySet()) {
      Map<Integer, VersionUsage> versions = new HashMap<>();
      for (Map.Entry<String, JsonElement> version : key.getValue().getAsJsonObject().entrySet()) {
        JsonObject o = version.getValue().getAsJsonObject();
        versions.put(
            Integer.parseInt(version.getKey()),
            new VersionUsage(
                o.get("encryptions").getAsLong(),
                o.get("decryptions").getAsLong(),
                o.get("rewraps").getAsLong(),
                count(o, "indexes"),
                time(o, "last_used"),
                count(o, "failures"),
                count(o, "index_lookups"),
                time(o, "last_lookup")));
      }
      all.put(key.getKey(), versions);
    }
    return all;
  }

  private static long count(JsonObject o, String field) {
    return o.has(field) ? o.get(field).getAsLong() : 0;
  }

  private static Instant time(JsonObject o, String field) {
    JsonElement time = o.get(field);
    return time == null || time.isJsonNull() ? null : Instant.parse(time.getAsString());
  }

  /** The file content for {@code usage}, sorted so it diffs well. */
  static byte[] encode(Map<String, Map<Integer, VersionUsage>> usage) {
    JsonObject byKey = new JsonObject();
    new TreeMap<>(usage)
        .forEach(
            (name, versions) -> {
              JsonObject byVersion = new JsonObject();
              new TreeMap<>(versions)
                  .forEach(
                      (version, u) -> {
                        JsonObject o = new JsonObject();
                        o.addProperty("encryptions", u.encryptions());
                        o.addProperty("decryptions", u.decryptions());
                        o.addProperty("rewraps", u.rewraps());
                        o.addProperty("indexes", u.indexes());
                        o.addProperty("failures", u.failures());
                        o.addProperty(
                            "last_used", u.lastUsed() == null ? null : u.lastUsed().toString());
                        o.addProperty("index_lookups", u.indexLookups());
                        o.addProperty(
                            "last_lookup",
                            u.lastLookup() == null ? null : u.lastLookup().toString());
                        byVersion.add(Integer.toString(version), o);
                      });
              byKey.add(name, byVersion);
            });
    JsonObject root = new JsonObject();
    root.addProperty("format", FORMAT);
    root.add("usage", byKey);
    return (new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(root) + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }
}
