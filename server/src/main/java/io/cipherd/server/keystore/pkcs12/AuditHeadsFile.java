package io.cipherd.server.keystore.pkcs12;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditHeadJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code audit-heads.json} beside the key store: the anchored head of each audit trail by name
 * ({@link AuditHeadJson}). Not secret. It is its own file, not a part of {@code keys.json}, because
 * it is rewritten at every checkpoint (once a second by default) while policies change rarely: a
 * write that goes wrong here never touches a policy.
 *
 * <pre>{"format": 1, "heads": {"host:/var/log/cipherd/audit.log": {"seq": 1043, ...}}}</pre>
 */
final class AuditHeadsFile {
  static final String NAME = "audit-heads.json";
  static final int FORMAT = 1;

  private AuditHeadsFile() {}

  /** The heads by trail name; empty if there is no file yet. */
  static Map<String, AuditHead> read(Path file) throws IOException {
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new TreeMap<>();
    }
    try {
      JsonObject root = JsonParser.parseString(json).getAsJsonObject();
      if (root.get("format").getAsInt() != FORMAT) {
        throw new IOException(file + " has format " + root.get("format") + ", expected " + FORMAT);
      }
      Map<String, AuditHead> heads = new TreeMap<>();
      for (Map.Entry<String, JsonElement> e : root.getAsJsonObject("heads").entrySet()) {
        heads.put(e.getKey(), AuditHeadJson.decode(e.getValue().getAsJsonObject()));
      }
      return heads;
    } catch (RuntimeException e) {
      throw new IOException(file + " is malformed: " + e.getMessage(), e);
    }
  }

  /** The file content for {@code heads}. */
  static byte[] encode(Map<String, AuditHead> heads) {
    JsonObject byTrail = new JsonObject();
    new TreeMap<>(heads).forEach((trail, head) -> byTrail.add(trail, AuditHeadJson.encode(head)));
    JsonObject root = new JsonObject();
    root.addProperty("format", FORMAT);
    root.add("heads", byTrail);
    return (new GsonBuilder().setPrettyPrinting().create().toJson(root) + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }
}
