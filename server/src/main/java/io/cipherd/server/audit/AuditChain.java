package io.cipherd.server.audit;

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
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable in this JDK", e);
    }
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
    AuditChain chain = new AuditChain(lastSeq + 1, GENESIS);
    chain.prev = chain.hash(line);
    return chain;
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
    prev = hash(line);
    nextSeq++;
  }

  private String hash(byte[] line) {
    return HexFormat.of().formatHex(sha256.digest(line));
  }
}
