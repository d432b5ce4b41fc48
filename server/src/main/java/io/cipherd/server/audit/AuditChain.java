package io.cipherd.server.audit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where the hash chain stands: the sequence number of the next record and the SHA-256 of the last
 * line written. Each line carries the hash of the line before it ({@code prev}), so altering,
 * removing or reordering a line breaks the chain at that point. Owned by the audit writer's thread.
 */
final class AuditChain {
  /** The {@code prev} of the first record of a new chain. */
  static final String GENESIS = "0".repeat(64);

  private final MessageDigest sha256;
  private long nextSeq;
  private String prev;

  private AuditChain(long nextSeq, String prev) {
    this.sha256 = newSha256();
    this.nextSeq = nextSeq;
    this.prev = prev;
  }

  /** A new chain, starting at sequence number 0. */
  static AuditChain start() {
    return new AuditChain(0, GENESIS);
  }

  /**
   * The chain that continues after a line numbered {@code lastSeq} whose bytes were {@code line}.
   */
  static AuditChain after(long lastSeq, byte[] line) {
    return new AuditChain(lastSeq + 1, hash(line));
  }

  long nextSeq() {
    return nextSeq;
  }

  String prev() {
    return prev;
  }

  /**
   * Moves the chain past {@code line} (its bytes without the newline), numbered {@link #nextSeq}.
   */
  void append(byte[] line) {
    prev = hash(sha256, line);
    nextSeq++;
  }

  /**
   * The hex SHA-256 of {@code line} (its bytes without the newline), as the next line's {@code
   * prev} and an anchor's head carry it.
   */
  static String hash(byte[] line) {
    return hash(newSha256(), line);
  }

  /**
   * The seq of {@code line} when it is an audit record (an object with {@code type}, {@code seq}
   * and {@code prev}, as the verifiers take one), else -1: a line torn by a crash is not numbered.
   */
  static long seqOf(byte[] line) {
    if (line.length == 0 || line[0] != '{' || line[line.length - 1] != '}') {
      return -1;
    }
    try {
      JsonElement parsed = JsonParser.parseString(new String(line, StandardCharsets.UTF_8));
      if (!parsed.isJsonObject()) {
        return -1;
      }
      JsonObject record = parsed.getAsJsonObject();
      if (!record.has("type") || !record.has("prev") || !record.has("seq")) {
        return -1;
      }
      long seq = record.get("seq").getAsLong();
      return seq >= 0 ? seq : -1;
    } catch (RuntimeException notARecord) {
      return -1;
    }
  }

  private static String hash(MessageDigest sha256, byte[] line) {
    return HexFormat.of().formatHex(sha256.digest(line));
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this JDK", e);
    }
  }
}
