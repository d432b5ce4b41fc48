package io.cipherd.server.audit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The call records of an audit file, parsed, for assertions. */
final class AuditRecords {
  private AuditRecords() {}

  static List<JsonObject> calls(Path file) throws IOException {
    return Files.readAllLines(file).stream()
        .map(line -> JsonParser.parseString(line).getAsJsonObject())
        .filter(line -> line.get("type").getAsString().equals("call"))
        .toList();
  }

  /** The final records (not a stream's OPEN or PROGRESS records) of {@code method}. */
  static List<JsonObject> of(List<JsonObject> calls, String method) {
    return calls.stream()
        .filter(c -> c.get("method").getAsString().endsWith("/" + method))
        .filter(c -> !c.get("status").getAsString().equals(AuditedCall.OPEN))
        .filter(c -> !c.get("status").getAsString().equals(AuditedCall.PROGRESS))
        .toList();
  }

  static JsonObject only(List<JsonObject> calls, String method) {
    List<JsonObject> found = of(calls, method);
    if (found.size() != 1) {
      throw new AssertionError(found.size() + " final records of " + method + ": " + found);
    }
    return found.get(0);
  }

  /** The outcomes of {@code record}'s one version entry as JSON text, e.g. {"ok":250}. */
  static String outcomes(JsonObject record, String keyName, int version) {
    for (var entry : record.getAsJsonArray("versions")) {
      JsonObject v = entry.getAsJsonObject();
      if (v.get("key").getAsString().equals(keyName) && v.get("version").getAsInt() == version) {
        return v.getAsJsonObject("outcomes").toString();
      }
    }
    return "absent from " + record.getAsJsonArray("versions");
  }
}
