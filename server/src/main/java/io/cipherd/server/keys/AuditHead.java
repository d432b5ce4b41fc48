package io.cipherd.server.keys;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Where an audit trail stood at its last anchor, as the key store keeps it outside the audit file:
 * the last checkpoint made durable (its seq, the SHA-256 of its line, its time and its byte offset
 * in the live file), the first line the trail still keeps, and the files it is kept in. Whoever can
 * rewrite the file cannot rewrite this without write access to the key store, so a file that no
 * longer reaches its head was cut. docs/audit.md, "The anchor", says what it proves against whom.
 *
 * @param trail the trail's name, as its start lines' {@code trail} field gives it
 * @param seq the sequence number of the anchored checkpoint line
 * @param hash the hex SHA-256 of that line's bytes, without its newline
 * @param time that line's {@code time} field as written
 * @param offset where that line starts in the live file (the last of {@code files}); -1 when
 *     unknown (standard output)
 * @param firstSeq the sequence number of the first line kept: 0 until retention removed files
 * @param firstHash the hex SHA-256 of that first kept line
 * @param files the files kept, oldest first, the live file last
 * @param anchoredAt when the server wrote this anchor
 */
public record AuditHead(
    String trail,
    long seq,
    String hash,
    String time,
    long offset,
    long firstSeq,
    String firstHash,
    List<TrailFile> files,
    Instant anchoredAt) {
  /** Longest trail name, in UTF-8 bytes. */
  public static final int MAX_TRAIL_BYTES = 256;

  public AuditHead {
    Objects.requireNonNull(trail, "trail");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(firstHash, "firstHash");
    Objects.requireNonNull(anchoredAt, "anchoredAt");
    files = List.copyOf(files);
    if (seq < 0 || firstSeq < 0 || firstSeq > seq) {
      throw new IllegalArgumentException(
          "an audit head's first seq must be 0 to its seq, got " + firstSeq + " and " + seq);
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("an audit head lists at least its live file");
    }
  }

  /**
   * One file of the trail.
   *
   * @param name the file's name, without directory
   * @param firstSeq the seq of its first line
   * @param lastSeq the seq of its last line; for the live file, the head's seq
   */
  public record TrailFile(String name, long firstSeq, long lastSeq) {
    public TrailFile {
      Objects.requireNonNull(name, "name");
    }
  }

  /** The live file: the last one listed. */
  public TrailFile liveFile() {
    return files.get(files.size() - 1);
  }
}
