package io.cipherd.server.audit;

import com.google.gson.JsonParser;
import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * Where audit lines go: a file opened for appending (mode 0600), rotated by renaming it aside, or
 * standard output. A file that already holds lines is continued: {@link #chain} reads its last
 * line, so the chain runs on across restarts and rotations.
 */
final class AuditFile implements Closeable {
  private static final DateTimeFormatter ROTATED =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** Longest line the tail reader looks back over; a call line is far shorter. */
  private static final int TAIL_BYTES = 1 << 16;

  private final Path path;
  private final FileChannel channel;
  private final boolean durable;

  private AuditFile(Path path, FileChannel channel, boolean durable) {
    this.path = path;
    this.channel = channel;
    this.durable = durable;
  }

  static AuditFile open(Path path) throws IOException {
    if (!Files.exists(path)) {
      Files.createFile(
          path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    FileChannel channel =
        FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    return new AuditFile(path, channel, true);
  }

  /** Standard output: never rotated, and nothing to force (the reader owns durability). */
  @SuppressWarnings("resource") // closing the channel would close the process's stdout
  static AuditFile stdout() {
    return new AuditFile(null, new FileOutputStream(FileDescriptor.out).getChannel(), false);
  }

  /** The file's name, or {@code -} for standard output. */
  String name() {
    return path == null ? "-" : path.getFileName().toString();
  }

  boolean rotatable() {
    return path != null;
  }

  long size() throws IOException {
    return path == null ? 0 : channel.size();
  }

  void write(ByteBuffer lines) throws IOException {
    while (lines.hasRemaining()) {
      channel.write(lines);
    }
  }

  /** Makes what was written durable (a file only). */
  void force() throws IOException {
    if (durable) {
      channel.force(false);
    }
  }

  /**
   * The chain to continue in this file: after its last line, or a new one when it is empty. A last
   * line cut short (the server stopped mid-write) is ended with a newline and chained over as it
   * is; the verifier reports it as torn.
   */
  Resumed chain() throws IOException {
    if (path == null || channel.size() == 0) {
      return new Resumed(AuditChain.start(), false);
    }
    byte[] tail = readTail();
    boolean torn = tail[tail.length - 1] != '\n';
    if (torn) {
      write(ByteBuffer.wrap(new byte[] {'\n'}));
    }
    int end = torn ? tail.length : tail.length - 1;
    int start = lineStart(tail, end);
    long lastSeq = torn ? seqBefore(tail, start) : seqOf(tail, start, end);
    return new Resumed(AuditChain.after(lastSeq, Arrays.copyOfRange(tail, start, end)), true);
  }

  /** The chain {@link #chain} found, and whether it continues lines already in the file. */
  record Resumed(AuditChain chain, boolean continued) {}

  /** The file a rotation opened, and the name the old lines now have. */
  record Rotated(AuditFile next, String aside) {}

  /** Renames this file aside (to {@code NAME.<time>}) and opens a new one at its path. */
  Rotated rotate(Instant now) throws IOException {
    channel.force(true);
    channel.close();
    Path aside = path.resolveSibling(path.getFileName() + "." + ROTATED.format(now));
    Files.move(path, aside, StandardCopyOption.ATOMIC_MOVE);
    return new Rotated(open(path), aside.getFileName().toString());
  }

  Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    if (path != null) {
      channel.close();
    }
  }

  private byte[] readTail() throws IOException {
    long size = channel.size();
    int length = (int) Math.min(size, TAIL_BYTES);
    ByteBuffer buffer = ByteBuffer.allocate(length);
    try (FileChannel reader = FileChannel.open(path, StandardOpenOption.READ)) {
      while (buffer.hasRemaining() && reader.read(buffer, size - length + buffer.position()) > 0) {
        // reads until the buffer is full
      }
    }
    return buffer.array();
  }

  private static int lineStart(byte[] tail, int end) {
    int start = end;
    while (start > 0 && tail[start - 1] != '\n') {
      start--;
    }
    return start;
  }

  /** The seq of the line before the one starting at {@code start}, or -1 when there is none. */
  private static long seqBefore(byte[] tail, int start) {
    if (start == 0) {
      return -1;
    }
    return seqOf(tail, lineStart(tail, start - 1), start - 1);
  }

  private static long seqOf(byte[] tail, int start, int end) {
    String line = new String(tail, start, end - start, StandardCharsets.UTF_8);
    try {
      return JsonParser.parseString(line).getAsJsonObject().get("seq").getAsLong();
    } catch (RuntimeException notARecord) {
      throw new IllegalStateException(
          "the audit log's last line is not an audit record; move the file aside and restart");
    }
  }
}
