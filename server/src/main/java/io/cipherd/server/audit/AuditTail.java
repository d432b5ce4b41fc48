package io.cipherd.server.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The end of an audit file, read back line by line to the previous newline whatever a line's
 * length: its last line (whole or cut short by a crash), and the seq of its last audit record. A
 * crash at any byte of a write leaves at most a line that is not a record at the end (and a newline
 * the next start added after it, if it then crashed again); the chain goes on after that line, as
 * the verifiers count such a line as torn: numbered after the last record, chained over the line.
 *
 * @param lastLine the bytes of the file's last line, without its newline
 * @param lastSeq the seq of the last line that is an audit record, or -1 if none is (a crash during
 *     the very first line)
 * @param endsWithNewline whether the file ends with a whole line
 */
record AuditTail(byte[] lastLine, long lastSeq, boolean endsWithNewline) {
  /** How far back a line is looked for at a time. */
  private static final int CHUNK = 1 << 16;

  /**
   * Lines that are not records passed over before the file is taken for something else than an
   * audit trail: a crash leaves one, a crash of the restart after it one more.
   */
  private static final int MAX_TORN_LINES = 3;

  /** Reads the tail of the non-empty file {@code reader} of {@code size} bytes. */
  static AuditTail read(FileChannel reader, long size) throws IOException {
    boolean endsWithNewline = byteAt(reader, size - 1) == '\n';
    long lineEnd = endsWithNewline ? size - 1 : size;
    byte[] lastLine = null;
    for (int passed = 0; ; passed++) {
      long lineStart = lineStart(reader, lineEnd);
      byte[] line = read(reader, lineStart, lineEnd);
      if (lastLine == null) {
        lastLine = line;
      }
      long seq = AuditChain.seqOf(line);
      if (seq >= 0) {
        return new AuditTail(lastLine, seq, endsWithNewline);
      }
      if (lineStart == 0) {
        return new AuditTail(lastLine, -1, endsWithNewline);
      }
      if (passed + 1 == MAX_TORN_LINES) {
        throw new IllegalStateException(
            "the audit log's last lines are not audit records; move the file aside and restart");
      }
      lineEnd = lineStart - 1;
    }
  }

  /** Where the line ending at {@code end} (exclusive) starts: after the newline before it, or 0. */
  private static long lineStart(FileChannel reader, long end) throws IOException {
    long at = end;
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
    while (at > 0) {
      int length = (int) Math.min(CHUNK, at);
      chunk.clear().limit(length);
      readFully(reader, chunk, at - length);
      for (int i = length - 1; i >= 0; i--) {
        if (chunk.get(i) == '\n') {
          return at - length + i + 1;
        }
      }
      at -= length;
    }
    return 0;
  }

  private static byte[] read(FileChannel reader, long from, long to) throws IOException {
    if (to - from > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "the audit log's last line is over 2 GiB; move the file aside and restart");
    }
    ByteBuffer line = ByteBuffer.allocate((int) (to - from));
    readFully(reader, line, from);
    return line.array();
  }

  private static byte byteAt(FileChannel reader, long position) throws IOException {
    ByteBuffer one = ByteBuffer.allocate(1);
    readFully(reader, one, position);
    return one.get(0);
  }

  private static void readFully(FileChannel reader, ByteBuffer buffer, long position)
      throws IOException {
    int start = buffer.position();
    while (buffer.hasRemaining()) {
      if (reader.read(buffer, position + buffer.position() - start) < 0) {
        throw new IOException("the audit log shrank while it was read");
      }
    }
  }
}
