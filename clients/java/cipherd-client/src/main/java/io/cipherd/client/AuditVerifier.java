package io.cipherd.client;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a cipherd audit trail (docs/audit.md), as cipherctl and the Python client do: every line's
 * prev is the SHA-256 of the line before it, seqs run on by one across files, and each checkpoint's
 * MAC holds under the audit key. The audit key never leaves the server, so a checkpoint's MAC is
 * checked by a {@link CheckpointCheck}: {@link #checkpointsUnder(byte[])} when you hold the key, or
 * the server's answer ({@link #verifyWithServer(AuditTrail, List)}). Given the server's {@link
 * AuditHead}, the trail is also checked complete at both ends.
 */
public final class AuditVerifier {
  private static final String GENESIS_PREV = "0".repeat(64);
  private static final byte[] CHECKPOINT_LABEL =
      "cipherd audit checkpoint v1".getBytes(StandardCharsets.US_ASCII);
  private static final String MAC_PREFIX = "hmac-sha256:";

  /** A checkpoint line's fields as written: what the server needs to check its MAC. */
  public record Checkpoint(long seq, String time, String prev, String mac) {}

  /** Whether a checkpoint's MAC is the audit key's. */
  @FunctionalInterface
  public interface CheckpointCheck {
    boolean valid(Checkpoint checkpoint);
  }

  private AuditVerifier() {}

  /** A check of checkpoint MACs with the audit key itself (the server derives the same subkey). */
  public static CheckpointCheck checkpointsUnder(byte[] auditKey) {
    byte[] subkey = hmac(auditKey, CHECKPOINT_LABEL);
    return checkpoint -> {
      String expected =
          MAC_PREFIX
              + HexFormat.of()
                  .formatHex(
                      hmac(
                          subkey,
                          (checkpoint.seq() + "\n" + checkpoint.time() + "\n" + checkpoint.prev())
                              .getBytes(StandardCharsets.US_ASCII)));
      return MessageDigest.isEqual(
          expected.getBytes(StandardCharsets.US_ASCII),
          checkpoint.mac().getBytes(StandardCharsets.US_ASCII));
    };
  }

  /**
   * Verifies {@code files} as one chain, oldest first; {@code check} and {@code head} may be null.
   */
  public static AuditVerdict verify(List<Path> files, CheckpointCheck check, AuditHead head)
      throws IOException {
    return verifyRead(read(files), check, head);
  }

  /**
   * Verifies {@code files} (oldest first) with each checkpoint's MAC checked by the server that
   * wrote them, and completeness against the head its key store holds for the trail. The head is
   * asked for first (it is anchored only after its line is durable); a last line still being
   * written is left out.
   */
  public static AuditVerdict verifyWithServer(AuditTrail server, List<Path> files)
      throws IOException {
    String trail = trailName(files);
    AuditHead head = server.head(trail).filter(h -> h.trail().equals(trail)).orElse(null);
    List<Read> read = read(files);
    if (!read.isEmpty()) {
      Read last = read.get(read.size() - 1);
      int newline = lastNewline(last.data());
      if (newline >= 0 && last.data()[last.data().length - 1] != '\n') {
        read.set(read.size() - 1, new Read(last.name(), Arrays.copyOf(last.data(), newline + 1)));
      }
    }
    List<Checkpoint> asked = checkpointsOf(read);
    List<Boolean> valid = asked.isEmpty() ? List.of() : server.verifyCheckpoints(asked);
    Map<Checkpoint, Boolean> answers = new HashMap<>();
    for (int i = 0; i < asked.size() && i < valid.size(); i++) {
      answers.put(asked.get(i), valid.get(i));
    }
    return verifyRead(read, c -> answers.getOrDefault(c, false), head);
  }

  /** The checkpoint lines of {@code files}, in order. */
  public static List<Checkpoint> checkpoints(List<Path> files) throws IOException {
    return checkpointsOf(read(files));
  }

  /** The trail name the start lines of {@code files} carry; "" when none does. */
  public static String trailName(List<Path> files) throws IOException {
    for (Read file : read(files)) {
      for (byte[] line : lines(file.data())) {
        String text = new String(line, StandardCharsets.UTF_8);
        if (!text.startsWith("{\"type\":\"start\"")) {
          continue;
        }
        JsonObject record = parse(line);
        if (record != null && record.has("trail") && !record.get("trail").getAsString().isEmpty()) {
          return record.get("trail").getAsString();
        }
      }
    }
    return "";
  }

  private record Read(String name, byte[] data) {}

  private static List<Read> read(List<Path> files) throws IOException {
    List<Read> read = new ArrayList<>();
    for (Path file : files) {
      read.add(new Read(file.getFileName().toString(), Files.readAllBytes(file)));
    }
    return read;
  }

  private static List<Checkpoint> checkpointsOf(List<Read> read) {
    List<Checkpoint> found = new ArrayList<>();
    for (Read file : read) {
      for (byte[] line : lines(file.data())) {
        JsonObject record = parse(line);
        try {
          if (record != null && record.get("type").getAsString().equals("checkpoint")) {
            found.add(
                new Checkpoint(
                    record.get("seq").getAsLong(),
                    record.get("time").getAsString(),
                    record.get("prev").getAsString(),
                    record.get("mac").getAsString()));
          }
        } catch (RuntimeException notACheckpoint) {
          // left to verify
        }
      }
    }
    return found;
  }

  private static AuditVerdict verifyRead(List<Read> read, CheckpointCheck check, AuditHead head) {
    Chain chain = new Chain(check, head);
    return chain.verdict(chain.walk(read));
  }

  /** The walk along the lines of every file, oldest first. */
  private static final class Chain {
    private final CheckpointCheck check;
    private final AuditHead head;
    private int calls;
    private int checkpoints;
    private int torn;
    private int unchecked;
    private String prevHash;
    private long prevSeq = -1;
    private String prevWhere = "";
    private boolean prevTorn;
    private String previousFile;
    private String trail = "";
    private String lastWhere = "";
    private String headProblem;
    private boolean headSeen;

    Chain(CheckpointCheck check, AuditHead head) {
      this.check = check;
      this.head = head;
    }

    AuditVerdict verdict(String problem) {
      return new AuditVerdict(
          Optional.ofNullable(problem),
          calls,
          checkpoints,
          torn,
          unchecked,
          check != null,
          head != null,
          trail);
    }

    /** The first problem, or null. */
    String walk(List<Read> read) {
      for (Read file : read) {
        byte[] data = file.data();
        if (data.length > 0 && data[data.length - 1] != '\n') {
          return file.name() + " does not end with a whole line";
        }
        int number = 0;
        for (byte[] line : lines(data)) {
          number++;
          String problem = line(file.name(), number, line);
          if (problem != null) {
            return problem;
          }
        }
        previousFile = file.name();
      }
      if (head != null && headProblem == null) {
        if (lastWhere.isEmpty()) {
          headProblem = "the files hold no lines, but the trail's anchor reaches seq " + head.seq();
        } else if (!headSeen) {
          headProblem =
              lastWhere
                  + ": the trail ends at seq "
                  + prevSeq
                  + ", before the anchored head at seq "
                  + head.seq()
                  + ": lines were removed from its end";
        }
      }
      return headProblem;
    }

    private String line(String name, int number, byte[] line) {
      String where = name + ":" + number;
      JsonObject record = parse(line);
      String kind;
      long seq;
      String prev;
      try {
        kind = record.get("type").getAsString();
        seq = record.get("seq").getAsLong();
        prev = record.get("prev").getAsString();
      } catch (RuntimeException notARecord) {
        // A line cut short by a crash; the restart's start line chains over it.
        if (prevHash == null && head != null) {
          return where + ": the trail's first line is not a whole record: its start was cut";
        }
        torn++;
        prevHash = sha256(line);
        prevWhere = where;
        prevTorn = true;
        return null;
      }
      String lineHash = sha256(line);
      if (prevHash == null && !kind.equals("start")) {
        return where
            + ": the trail's first line, seq "
            + seq
            + ", is a "
            + kind
            + " line, not a start line: lines before it were removed";
      }
      if (prevHash == null && head != null) {
        boolean genesis =
            kind.equals("start")
                && "new".equals(field(record, "why"))
                && seq == 0
                && prev.equals(GENESIS_PREV);
        if (!genesis && seq > head.firstSeq()) {
          return where
              + ": the trail starts at seq "
              + seq
              + ", but its anchor starts it at seq "
              + head.firstSeq()
              + ": lines before were removed"
              + missingFiles(head.firstSeq(), seq - 1);
        }
      }
      boolean inSequence = prevHash == null || seq == prevSeq + 1;
      if (prevHash != null && !prev.equals(prevHash)) {
        if (inSequence) {
          String altered = prevTorn ? prevWhere + ":" : prevWhere + ": seq " + prevSeq;
          return altered + " altered (its hash is not the prev of the line after it)";
        }
        return where
            + ": seq "
            + seq
            + " follows seq "
            + prevSeq
            + " (lines removed or reordered)"
            + missingFiles(prevSeq + 1, seq - 1);
      }
      if (!inSequence) {
        return where
            + ": seq "
            + seq
            + " follows seq "
            + prevSeq
            + missingFiles(prevSeq + 1, seq - 1);
      }
      if (kind.equals("start")) {
        String problem = startLineProblem(record, number == 1);
        if (problem != null) {
          return where + ": " + problem;
        }
        if (trail.isEmpty()) {
          trail = field(record, "trail");
        }
      }
      if (head != null && headProblem == null) {
        if (seq == head.firstSeq() && !lineHash.equals(head.firstHash())) {
          headProblem =
              where
                  + ": seq "
                  + seq
                  + " is not the anchored first line (its hash is not the anchor's): the trail's"
                  + " start was rewritten";
        } else if (seq == head.seq() && !headSeen && !lineHash.equals(head.hash())) {
          headProblem =
              where
                  + ": the line at seq "
                  + seq
                  + " is not the anchored head (its hash is not the anchor's): the tail was"
                  + " rewritten";
        }
      }
      headSeen = headSeen || (head != null && seq == head.seq());
      lastWhere = where;
      if (kind.equals("call")) {
        calls++;
        unchecked++;
      } else if (kind.equals("checkpoint")) {
        if (check != null
            && !check.valid(
                new Checkpoint(seq, field(record, "time"), prev, field(record, "mac")))) {
          return where + ": checkpoint seq " + seq + " fails its MAC";
        }
        checkpoints++;
        unchecked = 0;
      }
      prevHash = lineHash;
      prevSeq = seq;
      prevWhere = where;
      prevTorn = false;
      return null;
    }

    /** A cut the server recorded at a restart, or a rotation line not naming the file before it. */
    private String startLineProblem(JsonObject record, boolean firstOfFile) {
      JsonElement cut = record.get("cut");
      if (cut != null && cut.isJsonObject()) {
        JsonObject at = cut.getAsJsonObject();
        return "the server found the trail cut at restart: its anchor was at seq "
            + at.get("anchored_seq")
            + ", the files ended at seq "
            + at.get("found_seq");
      }
      if ("rotation".equals(field(record, "why"))
          && firstOfFile
          && previousFile != null
          && !field(record, "from").equals(previousFile)) {
        return "the rotation line says the trail went on from \""
            + field(record, "from")
            + "\", but the file before it is \""
            + previousFile
            + "\": files were removed, renamed or reordered";
      }
      return null;
    }

    private String missingFiles(long first, long last) {
      if (head == null) {
        return "";
      }
      String missing =
          head.files().stream()
              .filter(f -> f.firstSeq() <= last && f.lastSeq() >= first)
              .map(f -> f.name() + ", seqs " + f.firstSeq() + "-" + f.lastSeq())
              .collect(Collectors.joining("; "));
      return missing.isEmpty() ? "" : " (missing: " + missing + ")";
    }
  }

  private static String field(JsonObject record, String name) {
    JsonElement value = record.get(name);
    return value == null || value.isJsonNull() ? "" : value.getAsString();
  }

  /** A line as a JSON object, strictly parsed; null for anything else (a torn line). */
  private static JsonObject parse(byte[] line) {
    try {
      JsonReader reader =
          new JsonReader(new StringReader(new String(line, StandardCharsets.UTF_8)));
      reader.setStrictness(Strictness.STRICT);
      JsonElement element = JsonParser.parseReader(reader);
      if (reader.peek() != com.google.gson.stream.JsonToken.END_DOCUMENT) {
        return null;
      }
      return element.isJsonObject() ? element.getAsJsonObject() : null;
    } catch (RuntimeException | IOException e) {
      return null;
    }
  }

  /** The lines of {@code data} split at '\n', without the part after the last newline. */
  private static List<byte[]> lines(byte[] data) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == '\n') {
        lines.add(Arrays.copyOfRange(data, start, i));
        start = i + 1;
      }
    }
    return lines;
  }

  private static int lastNewline(byte[] data) {
    for (int i = data.length - 1; i >= 0; i--) {
      if (data[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static String sha256(byte[] line) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(line));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  private static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is not available", e);
    }
  }
}
