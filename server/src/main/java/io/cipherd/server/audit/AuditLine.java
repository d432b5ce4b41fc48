package io.cipherd.server.audit;

import com.google.gson.stream.JsonWriter;
import io.cipherd.server.errors.ErrorKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The audit log's lines, one JSON object each (docs/audit.md lists the fields). Every line has
 * {@code type}, {@code seq}, {@code time} and, last, {@code prev}: the SHA-256 of the line before
 * it. A {@code start} line begins a chain (or continues one after a restart or into a new file), a
 * {@code call} line records one call, and a {@code checkpoint} line carries a MAC over the chain so
 * far, made with the audit key.
 */
final class AuditLine {
  /** The outcome of an item refused because its version is pending destruction. */
  private static final String PENDING_DESTRUCTION =
      ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED.reason().name();

  private AuditLine() {}

  /** A call's line. */
  static byte[] call(CallRecord record, long seq, String prev) {
    return write(
        json -> {
          header(json, "call", seq, record.time());
          json.name("request_id").value(record.requestId());
          if (record.clientRequestId() != null) {
            json.name("client_request_id").value(record.clientRequestId());
          }
          if (record.traceId() != null) {
            json.name("trace_id").value(record.traceId());
          }
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
          if (record.folded() != null) {
            folded(json, record.folded());
          }
          pendingDestructionUses(json, record.versions(), record.folded());
          if (!record.inventories().isEmpty()) {
            inventories(json, record.inventories());
          }
          if (!record.custody().isEmpty()) {
            custody(json, record.custody());
          }
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
   * The aggregate row of the key versions past the record's first {@value ItemTally#MAX_ROWS}: how
   * many there were ({@code key_versions}, with {@code key_versions_more} when it stopped counting)
   * and their items per outcome.
   */
  private static void folded(JsonWriter json, ItemTally.Folded folded) throws IOException {
    json.name("versions_folded").beginObject();
    json.name("key_versions").value(folded.keyVersions());
    if (folded.more()) {
      json.name("key_versions_more").value(true);
    }
    json.name("outcomes").beginObject();
    for (Map.Entry<String, Long> outcome : folded.outcomes().entrySet()) {
      json.name(outcome.getKey()).value(outcome.getValue());
    }
    json.endObject();
    json.endObject();
  }

  /**
   * The versions the call named while they were pending destruction, as their own field, so the
   * trail shows each such use (who, which version, how many items) without reading outcomes: data
   * under a version pending destruction still exists. Absent when there were none. Uses among the
   * folded versions are one last entry without a key: {@code {"folded":true,"items":N}}.
   */
  private static void pendingDestructionUses(
      JsonWriter json, List<ItemTally.VersionOutcomes> versions, ItemTally.Folded folded)
      throws IOException {
    boolean any = false;
    for (ItemTally.VersionOutcomes version : versions) {
      Long items = version.outcomes().get(PENDING_DESTRUCTION);
      if (items == null || version.version() == ItemTally.NO_VERSION) {
        continue;
      }
      if (!any) {
        json.name("pending_destruction_uses").beginArray();
        any = true;
      }
      json.beginObject();
      json.name("key").value(version.keyName());
      json.name("version").value(version.version());
      json.name("items").value(items);
      json.endObject();
    }
    Long foldedItems = folded == null ? null : folded.outcomes().get(PENDING_DESTRUCTION);
    if (foldedItems != null) {
      if (!any) {
        json.name("pending_destruction_uses").beginArray();
        any = true;
      }
      json.beginObject();
      json.name("folded").value(true);
      json.name("items").value(foldedItems);
      json.endObject();
    }
    if (any) {
      json.endArray();
    }
  }

  private static void inventories(JsonWriter json, AuditedInventories inventories)
      throws IOException {
    json.name("inventories").beginArray();
    for (AuditedInventory inventory : inventories.kept()) {
      json.beginObject();
      json.name("key").value(inventory.keyName());
      json.name("source").value(inventory.source());
      if (inventory.scanTime() != null) {
        json.name("scan_time").value(inventory.scanTime().toString());
      }
      json.name("items_scanned").value(inventory.itemsScanned());
      json.name("versions").beginObject();
      for (Map.Entry<Integer, Long> count : inventory.versions().entrySet()) {
        json.name(Integer.toString(count.getKey())).value(count.getValue());
      }
      json.endObject();
      if (inventory.versionsFolded() > 0) {
        json.name("versions_folded").beginObject();
        json.name("versions").value(inventory.versionsFolded());
        json.name("ciphertexts").value(inventory.ciphertextsFolded());
        json.endObject();
      }
      json.endObject();
    }
    json.endArray();
    if (inventories.folded() > 0) {
      json.name("inventories_folded").value(inventories.folded());
    }
  }

  /** What a key custody call asked and did ({@link AuditedCustody}), each part only when known. */
  private static void custody(JsonWriter json, AuditedCustody custody) throws IOException {
    json.name("custody").beginObject();
    if (custody.importJobId() != null) {
      json.name("import_job_id").value(custody.importJobId());
    }
    if (custody.wrappingAlgorithm() != null) {
      json.name("wrapping_algorithm").value(custody.wrappingAlgorithm());
    }
    if (custody.importJobExpireTime() != null) {
      json.name("import_job_expire_time").value(custody.importJobExpireTime().toString());
    }
    if (custody.recipient() != null) {
      json.name("recipient").value(custody.recipient());
    }
    if (!custody.versions().isEmpty()) {
      json.name("versions").beginArray();
      for (int version : custody.versions()) {
        json.value(version);
      }
      json.endArray();
    }
    if (custody.versionsFolded() > 0) {
      json.name("versions_folded").value(custody.versionsFolded());
    }
    json.endObject();
  }

  /**
   * An action the server took on its own ({@link SystemRecord}): a {@code system} line, with no
   * caller but the call that caused it.
   */
  static byte[] system(SystemRecord record, long seq, String prev) {
    return write(
        json -> {
          header(json, "system", seq, record.time());
          json.name("action").value(record.action());
          json.name("key").value(record.keyName());
          json.name("versions").beginArray();
          for (int version : record.versions()) {
            json.value(version);
          }
          json.endArray();
          json.name("why").value(record.why());
          json.name("request_id").value(record.requestId());
          json.name("prev").value(prev);
        });
  }

  /** A subject's erasure ({@link ErasureRecord}): an {@code erasure} line. */
  static byte[] erasure(ErasureRecord record, long seq, String prev) {
    return write(
        json -> {
          header(json, "erasure", seq, record.time());
          json.name("action").value("EraseSubject");
          json.name("key").value(record.keyName());
          json.name("subject_hash").value(record.subjectHash());
          json.name("outcome").value(record.outcome());
          json.name("caller").value(record.caller());
          json.name("request_id").value(record.requestId());
          json.name("prev").value(prev);
        });
  }

  /** The line of any record. */
  static byte[] of(AuditRecord record, long seq, String prev) {
    return switch (record) {
      case CallRecord call -> call(call, seq, prev);
      case SystemRecord system -> system(system, seq, prev);
      case ErasureRecord erasure -> erasure(erasure, seq, prev);
    };
  }

  /**
   * A chain's {@code start} line: {@code why} is {@code new}, {@code restart} (the server started
   * again on an existing log) or {@code rotation} (the first line of a new file; {@code from} names
   * the file the chain continues from).
   */
  static byte[] start(long seq, Instant time, String why, String from, String prev) {
    return start(seq, time, why, from, null, null, prev);
  }

  /**
   * A {@code start} line naming its trail ({@code trail}, null for none) and, when the files did
   * not reach the trail's anchored head at start, the {@code cut} found: {@code {"anchored_seq": N,
   * "anchored_hash": "…", "found_seq": M}}.
   */
  static byte[] start(
      long seq,
      Instant time,
      String why,
      String from,
      String trail,
      TrailHeadCheck.Cut cut,
      String prev) {
    return write(
        json -> {
          header(json, "start", seq, time);
          json.name("why").value(why);
          if (from != null) {
            json.name("from").value(from);
          }
          if (trail != null) {
            json.name("trail").value(trail);
          }
          if (cut != null) {
            json.name("cut").beginObject();
            json.name("anchored_seq").value(cut.anchoredSeq());
            json.name("anchored_hash").value(cut.anchoredHash());
            json.name("found_seq").value(cut.foundSeq());
            json.endObject();
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

  /**
   * A line buffer per thread, reused line after line: a line costs its JSON writer and its bytes,
   * not a new buffer and a String as well. Lines are built on the trail's writer thread and on the
   * threads that close calls; each holds at most {@link LineWriter#MAX_KEPT} characters between
   * lines.
   */
  private static final ThreadLocal<LineWriter> LINES = ThreadLocal.withInitial(LineWriter::new);

  private static byte[] write(Body body) {
    LineWriter out = LINES.get();
    out.reset();
    try (JsonWriter json = new JsonWriter(out)) {
      json.setHtmlSafe(false);
      body.write(json);
      json.endObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string cannot fail", e);
    }
    return out.utf8();
  }

  /**
   * A line's characters as gson writes them, in a plain {@link StringBuilder}: {@code StringWriter}
   * appends to a synchronized {@code StringBuffer}, a lock taken for each of the line's many small
   * writes.
   */
  private static final class LineWriter extends Writer {
    /** A buffer grown past this by an outsized line (inventories) is not kept for the next. */
    private static final int MAX_KEPT = 16 << 10;

    private StringBuilder line = new StringBuilder(512);

    void reset() {
      if (line.capacity() > MAX_KEPT) {
        line = new StringBuilder(512);
      } else {
        line.setLength(0);
      }
    }

    /** The line in UTF-8: byte for byte what {@code toString().getBytes(UTF_8)} gives. */
    byte[] utf8() {
      int length = line.length();
      byte[] bytes = new byte[length];
      for (int i = 0; i < length; i++) {
        char c = line.charAt(i);
        if (c >= 0x80) {
          return line.toString().getBytes(StandardCharsets.UTF_8);
        }
        bytes[i] = (byte) c;
      }
      return bytes;
    }

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
