package io.cipherd.client;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an audit trail stood at its last anchor in the server's key store: its last anchored
 * checkpoint (seq, hash, time), its first kept line, and its files, oldest first.
 */
public record AuditHead(
    String trail,
    long seq,
    String hash,
    String time,
    long firstSeq,
    String firstHash,
    List<TrailFile> files) {
  /** One file of the trail and the seqs it holds. */
  public record TrailFile(String name, long firstSeq, long lastSeq) {}

  /** A head written as protojson (as the server's key store holds it, and the vectors give it). */
  public static AuditHead read(Path path) throws IOException {
    JsonObject head =
        JsonParser.parseString(Files.readString(path, StandardCharsets.UTF_8)).getAsJsonObject();
    List<TrailFile> files = new ArrayList<>();
    if (head.has("files")) {
      for (JsonElement element : head.getAsJsonArray("files")) {
        JsonObject file = element.getAsJsonObject();
        files.add(
            new TrailFile(string(file, "name"), number(file, "firstSeq"), number(file, "lastSeq")));
      }
    }
    return new AuditHead(
        string(head, "trail"),
        number(head, "seq"),
        string(head, "hash"),
        string(head, "time"),
        number(head, "firstSeq"),
        string(head, "firstHash"),
        List.copyOf(files));
  }

  static AuditHead of(io.cipherd.api.v1.AuditHead head) {
    return new AuditHead(
        head.getTrail(),
        head.getSeq(),
        head.getHash(),
        head.getTime(),
        head.getFirstSeq(),
        head.getFirstHash(),
        head.getFilesList().stream()
            .map(f -> new TrailFile(f.getName(), f.getFirstSeq(), f.getLastSeq()))
            .toList());
  }

  // protojson leaves out default values and writes int64 as strings
  private static String string(JsonObject object, String name) {
    return object.has(name) ? object.get(name).getAsString() : "";
  }

  private static long number(JsonObject object, String name) {
    return object.has(name) ? object.get(name).getAsLong() : 0;
  }
}
