package io.cipherd.server.keys;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link AuditHead} as the key stores keep it, one JSON object:
 *
 * <pre>{"trail": "host:/var/log/cipherd/audit.log", "seq": 1043, "hash": "9f…", "time":
 *  "2026-11-26T02:00:00Z", "offset": 301744, "first_seq": 0, "first_hash": "5e…",
 *  "files": [{"name": "audit.log", "first_seq": 0, "last_seq": 1043}],
 *  "anchored_at": "2026-11-26T02:00:00.004Z"}</pre>
 */
public final class AuditHeadJson {
  private static final Gson GSON = new Gson();

  private AuditHeadJson() {}

  public static JsonObject encode(AuditHead head) {
    JsonObject o = new JsonObject();
    o.addProperty("trail", head.trail());
    o.addProperty("seq", head.seq());
    o.addProperty("hash", head.hash());
    o.addProperty("time", head.time());
    o.addProperty("offset", head.offset());
    o.addProperty("first_seq", head.firstSeq());
    o.addProperty("first_hash", head.firstHash());
    JsonArray files = new JsonArray();
    for (AuditHead.TrailFile file : head.files()) {
      JsonObject f = new JsonObject();
      f.addProperty("name", file.name());
      f.addProperty("first_seq", file.firstSeq());
      f.addProperty("last_seq", file.lastSeq());
      files.add(f);
    }
    o.add("files", files);
    o.addProperty("anchored_at", head.anchoredAt().toString());
    return o;
  }

  public static String encodeString(AuditHead head) {
    return GSON.toJson(encode(head));
  }

  /** The head {@code json} holds; throws {@link IllegalArgumentException} naming what is wrong. */
  public static AuditHead decode(JsonObject o) {
    try {
      List<AuditHead.TrailFile> files = new ArrayList<>();
      for (JsonElement f : o.getAsJsonArray("files")) {
        JsonObject file = f.getAsJsonObject();
        files.add(
            new AuditHead.TrailFile(
                file.get("name").getAsString(),
                file.get("first_seq").getAsLong(),
                file.get("last_seq").getAsLong()));
      }
      return new AuditHead(
          o.get("trail").getAsString(),
          o.get("seq").getAsLong(),
          o.get("hash").getAsString(),
          o.get("time").getAsString(),
          o.get("offset").getAsLong(),
          o.get("first_seq").getAsLong(),
          o.get("first_hash").getAsString(),
          files,
          Instant.parse(o.get("anchored_at").getAsString()));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("malformed audit head: " + e.getMessage(), e);
    }
  }

  public static AuditHead decodeString(String json) {
    JsonElement parsed;
    try {
      parsed = JsonParser.parseString(json);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("malformed audit head: " + e.getMessage(), e);
    }
    if (!parsed.isJsonObject()) {
      throw new IllegalArgumentException("malformed audit head: not a JSON object");
    }
    return decode(parsed.getAsJsonObject());
  }
}
