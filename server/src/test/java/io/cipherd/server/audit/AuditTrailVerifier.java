package io.cipherd.server.audit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Checks audit files the way an investigator's verifier does, written apart from the writer so the
 * tests compare two readings of the format: every line's {@code prev} is the SHA-256 of the line
 * before it, seqs run on by one, and every checkpoint's MAC holds under the audit key. Given the
 * trail's head (an AuditHead as protojson), also that the trail is complete: it starts at genesis
 * or at the anchored first line, reaches the anchored checkpoint, holds every file the head lists,
 * its rotation lines name the file before them, and no start line records a cut.
 */
final class AuditTrailVerifier {
  /** What the files showed: the first problem (null if none), and what was counted. */
  record Result(String problem, int calls, int checkpoints, int torn, int uncheckpointed) {
    boolean intact() {
      return problem == null;
    }
  }

  private AuditTrailVerifier() {}

  private static final String GENESIS_PREV = "0".repeat(64);

  static Result verify(AuditKey key, Path... files) throws IOException {
    return verify(key, null, files);
  }

  static Result verify(AuditKey key, JsonObject head, Path... files) throws IOException {
    List<byte[]> lines = new ArrayList<>();
    List<String> where = new ArrayList<>();
    List<String> fileOf = new ArrayList<>();
    List<Boolean> firstOfFile = new ArrayList<>();
    for (Path file : files) {
      byte[] bytes = Files.readAllBytes(file);
      int start = 0;
      int number = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == '\n') {
          lines.add(Arrays.copyOfRange(bytes, start, i));
          firstOfFile.add(number == 0);
          fileOf.add(file.getFileName().toString());
          where.add(file.getFileName() + ":" + ++number);
          start = i + 1;
        }
      }
      if (start != bytes.length) {
        return new Result(file.getFileName() + " does not end with a whole line", 0, 0, 0, 0);
      }
    }
    int calls = 0;
    int checkpoints = 0;
    int torn = 0;
    int uncheckpointed = 0;
    String previousHash = null;
    long previousSeq = -1;
    long headSeq = head == null ? -1 : head.get("seq").getAsLong();
    long firstSeq = head == null || !head.has("firstSeq") ? 0 : head.get("firstSeq").getAsLong();
    String headProblem = null;
    boolean headSeen = false;
    for (int i = 0; i < lines.size(); i++) {
      byte[] line = lines.get(i);
      JsonObject record;
      try {
        record = JsonParser.parseString(new String(line, StandardCharsets.UTF_8)).getAsJsonObject();
      } catch (RuntimeException notJson) {
        if (previousHash == null && head != null) {
          return new Result(
              where.get(i) + ": the trail's first line is not a whole record: its start was cut",
              calls,
              checkpoints,
              torn,
              uncheckpointed);
        }
        torn++;
        previousHash = sha256(line);
        continue;
      }
      String type = record.get("type").getAsString();
      long seq = record.get("seq").getAsLong();
      String prev = record.get("prev").getAsString();
      String hash = sha256(line);
      if (previousHash == null && !type.equals("start")) {
        return new Result(
            where.get(i)
                + ": the trail's first line, seq "
                + seq
                + ", is a "
                + type
                + " line, not a start line: lines before it were removed",
            calls,
            checkpoints,
            torn,
            uncheckpointed);
      }
      if (previousHash == null && head != null) {
        boolean genesis =
            type.equals("start")
                && seq == 0
                && record.has("why")
                && record.get("why").getAsString().equals("new")
                && prev.equals(GENESIS_PREV);
        if (!genesis && seq > firstSeq) {
          return new Result(
              where.get(i)
                  + ": the trail starts at seq "
                  + seq
                  + ", but its anchor starts it at seq "
                  + firstSeq
                  + ": lines before were removed"
                  + missingFiles(head, firstSeq, seq - 1),
              calls,
              checkpoints,
              torn,
              uncheckpointed);
        }
      }
      if (head != null
          && seq == firstSeq
          && !hash.equals(head.get("firstHash").getAsString())
          && headProblem == null) {
        headProblem =
            where.get(i)
                + ": seq "
                + seq
                + " is not the anchored first line (its hash is not the anchor's): the trail's"
                + " start was rewritten";
      }
      if (head != null && seq == headSeq && !headSeen) {
        headSeen = true;
        if (!hash.equals(head.get("hash").getAsString()) && headProblem == null) {
          headProblem =
              where.get(i)
                  + ": the line at seq "
                  + seq
                  + " is not the anchored head (its hash is not the anchor's): the tail was"
                  + " rewritten";
        }
      }
      boolean inSequence = previousHash == null || seq == previousSeq + 1;
      if (previousHash != null && !prev.equals(previousHash)) {
        // The line before was changed (this one follows it in sequence), or lines are missing
        // or out of order here.
        String what =
            inSequence
                ? where.get(i - 1) + ": altered (its hash is not the prev of the line after it)"
                : where.get(i)
                    + ": seq "
                    + seq
                    + " follows seq "
                    + previousSeq
                    + " (lines removed or reordered)"
                    + missingFiles(head, previousSeq + 1, seq - 1);
        return new Result(what, calls, checkpoints, torn, uncheckpointed);
      }
      if (!inSequence) {
        return new Result(
            where.get(i)
                + ": seq "
                + seq
                + " follows seq "
                + previousSeq
                + missingFiles(head, previousSeq + 1, seq - 1),
            calls,
            checkpoints,
            torn,
            uncheckpointed);
      }
      if (type.equals("start")) {
        String problem =
            startLineProblem(record, firstOfFile.get(i), i == 0 ? null : fileOf.get(i - 1));
        if (problem != null) {
          return new Result(
              where.get(i) + ": " + problem, calls, checkpoints, torn, uncheckpointed);
        }
      }
      switch (type) {
        case "call" -> {
          calls++;
          uncheckpointed++;
        }
        case "checkpoint" -> {
          if (!key.verifyCheckpoint(
              seq, record.get("time").getAsString(), prev, record.get("mac").getAsString())) {
            return new Result(
                where.get(i) + ": checkpoint seq " + seq + " fails its MAC",
                calls,
                checkpoints,
                torn,
                uncheckpointed);
          }
          checkpoints++;
          uncheckpointed = 0;
        }
        default -> {}
      }
      previousHash = hash;
      previousSeq = seq;
    }
    if (head != null && headProblem == null) {
      if (lines.isEmpty()) {
        headProblem = "the files hold no lines, but the trail's anchor reaches seq " + headSeq;
      } else if (!headSeen) {
        headProblem =
            where.get(lines.size() - 1)
                + ": the trail ends at seq "
                + previousSeq
                + ", before the anchored head at seq "
                + headSeq
                + ": lines were removed from its end";
      }
    }
    return new Result(headProblem, calls, checkpoints, torn, uncheckpointed);
  }

  /** A cut the server recorded at a restart, or a rotation line not naming the file before it. */
  private static String startLineProblem(
      JsonObject record, boolean firstOfFile, String previousFile) {
    if (record.has("cut")) {
      JsonObject cut = record.getAsJsonObject("cut");
      return "the server found the trail cut at restart: its anchor was at seq "
          + cut.get("anchored_seq").getAsLong()
          + ", the files ended at seq "
          + cut.get("found_seq").getAsLong();
    }
    String why = record.has("why") ? record.get("why").getAsString() : "";
    String from = record.has("from") ? record.get("from").getAsString() : "";
    if (why.equals("rotation")
        && firstOfFile
        && previousFile != null
        && !from.equals(previousFile)) {
      return "the rotation line says the trail went on from \""
          + from
          + "\", but the file before it is \""
          + previousFile
          + "\": files were removed, renamed or reordered";
    }
    return null;
  }

  /** The head's files holding seqs {@code from} to {@code to}, named; "" without a head. */
  private static String missingFiles(JsonObject head, long from, long to) {
    if (head == null || !head.has("files")) {
      return "";
    }
    List<String> missing = new ArrayList<>();
    for (JsonElement element : head.getAsJsonArray("files")) {
      JsonObject f = element.getAsJsonObject();
      long first = f.has("firstSeq") ? f.get("firstSeq").getAsLong() : 0;
      long last = f.has("lastSeq") ? f.get("lastSeq").getAsLong() : 0;
      if (first <= to && last >= from) {
        missing.add(f.get("name").getAsString() + ", seqs " + first + "-" + last);
      }
    }
    return missing.isEmpty() ? "" : " (missing: " + String.join("; ", missing) + ")";
  }

  private static String sha256(byte[] line) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(line));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
