package io.cipherd.server.audit;

import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * The audit log's lines, one JSON object each (docs/audit.md lists the fields). Every line has
 * {@code type}, {@code seq}, {@code time} and, last, {@code prev}: the SHA-256 of the line before
 * it. A {@code start} line begins a chain (or continues one after a restart or into a new file), a
 * {@code call} line records one call, and a {@code checkpoint} line carries a MAC over the chain so
 * far, made with the audit key.
 */
final class AuditLine {
  private AuditLine() {}

  /** A call's line. */
  static byte[] call(CallRecord record, long seq, String prev) {
    return write(
        json -> {
          header(json, "call", seq, record.time());
          json.name("request_id").value(record.requestId());
          json.name("caller").beginObject();
          json.name("id").value(record.caller());
          json.name("via").value(record.callerVia());
          json.name("peer").value(record.peer());
          json.endObject();
          json.name("method").value(record.method());
          if (record.keyName() != null) {
            json.name("key").value(record.keyName());
          }
          json.name("items").value(record.items());
          json.name("versions").beginArray();
          for (ItemTally.VersionOutcomes version : record.versions()) {
            json.beginObject();
            json.name("key").value(version.keyName());
            json.name("version").value(version.version());
            json.name("outcomes").beginObject();
            for (Map.Entry<String, Long> outcome : version.outcomes().entrySet()) {
              json.name(outcome.getKey()).value(outcome.getValue());
            }
            json.endObject();
            json.endObject();
          }
          json.endArray();
          json.name("status").value(record.status());
          if (record.reason() != null) {
            json.name("reason").value(record.reason());
          }
          if (record.contextHash() != null) {
            json.name("context_hash").value(record.contextHash());
          }
          json.name("prev").value(prev);
        });
  }

  /**
   * A chain's {@code start} line: {@code why} is {@code new}, {@code restart} (the server started
   * again on an existing log) or {@code rotation} (the first line of a new file; {@code from} names
   * the file the chain continues from).
   */
  static byte[] start(long seq, Instant time, String why, String from, String prev) {
    return write(
        json -> {
          header(json, "start", seq, time);
          json.name("why").value(why);
          if (from != null) {
            json.name("from").value(from);
          }
          json.name("prev").value(prev);
        });
  }

  /** A checkpoint: {@code mac} authenticates (seq, time, prev), so the whole chain before it. */
  static byte[] checkpoint(long seq, Instant time, String prev, AuditKey key) {
    String at = time.toString();
    return write(
        json -> {
          json.beginObject();
          json.name("type").value("checkpoint");
          json.name("seq").value(seq);
          json.name("time").value(at);
          json.name("prev").value(prev);
          json.name("mac").value(key.checkpointMac(seq, at, prev));
        });
  }

  private static void header(JsonWriter json, String type, long seq, Instant time)
      throws IOException {
    json.beginObject();
    json.name("type").value(type);
    json.name("seq").value(seq);
    json.name("time").value(time.toString());
  }

  private interface Body {
    void write(JsonWriter json) throws IOException;
  }

  private static byte[] write(Body body) {
    LineWriter out = new LineWriter();
    try (JsonWriter json = new JsonWriter(out)) {
      json.setHtmlSafe(false);
      body.write(json);
      json.endObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string cannot fail", e);
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A line's characters as gson writes them, in a plain {@link StringBuilder}: {@code StringWriter}
   * appends to a synchronized {@code StringBuffer}, a lock taken for each of the line's many small
   * writes.
   */
  private static final class LineWriter extends Writer {
    private final StringBuilder line = new StringBuilder(512);

    @Override
    public void write(int c) {
      line.append((char) c);
    }

    @Override
    public void write(char[] chars, int from, int length) {
      line.append(chars, from, length);
    }

    @Override
    public void write(String text, int from, int length) {
      line.append(text, from, from + length);
    }

    @Override
    public Writer append(CharSequence text) {
      line.append(text);
      return this;
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    @Override
    public String toString() {
      return line.toString();
    }
  }
}
