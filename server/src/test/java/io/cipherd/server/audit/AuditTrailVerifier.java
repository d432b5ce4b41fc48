package io.cipherd.server.audit;

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
 * before it, seqs run on by one, and every checkpoint's MAC holds under the audit key.
 */
final class AuditTrailVerifier {
  /** What the files showed: the first problem (null if none), and what was counted. */
  record Result(String problem, int calls, int checkpoints, int torn, int uncheckpointed) {
    boolean intact() {
      return problem == null;
    }
  }

  private AuditTrailVerifier() {}

  static Result verify(AuditKey key, Path... files) throws IOException {
    List<byte[]> lines = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (Path file : files) {
      byte[] bytes = Files.readAllBytes(file);
      int start = 0;
      int number = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == '\n') {
          lines.add(Arrays.copyOfRange(bytes, start, i));
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
    for (int i = 0; i < lines.size(); i++) {
      byte[] line = lines.get(i);
      JsonObject record;
      try {
        record = JsonParser.parseString(new String(line, StandardCharsets.UTF_8)).getAsJsonObject();
      } catch (RuntimeException notJson) {
        torn++;
        previousHash = sha256(line);
        continue;
      }
      String type = record.get("type").getAsString();
      long seq = record.get("seq").getAsLong();
      String prev = record.get("prev").getAsString();
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
                    + " (lines removed or reordered)";
        return new Result(what, calls, checkpoints, torn, uncheckpointed);
      }
      if (!inSequence) {
        return new Result(
            where.get(i) + ": seq " + seq + " follows seq " + previousSeq,
            calls,
            checkpoints,
            torn,
            uncheckpointed);
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
      previousHash = sha256(line);
      previousSeq = seq;
    }
    return new Result(null, calls, checkpoints, torn, uncheckpointed);
  }

  private static String sha256(byte[] line) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(line));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
