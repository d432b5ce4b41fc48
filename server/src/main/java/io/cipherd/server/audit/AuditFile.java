package io.cipherd.server.audit;

import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.stream.Stream;

/**
 * Where audit lines go: a file opened for appending (mode 0600), rotated by renaming it aside, or
 * standard output. A file that already holds lines is continued: {@link #chain} reads its last
 * line, so the chain runs on across restarts and rotations.
 */
final class AuditFile implements Closeable {
  private static final DateTimeFormatter ROTATED =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

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
   * is, numbered after the last record before it; the verifier reports it as torn.
   */
  Resumed chain() throws IOException {
    if (path == null || channel.size() == 0) {
      return new Resumed(AuditChain.start(), false);
    }
    AuditTail tail;
    try (FileChannel reader = FileChannel.open(path, StandardOpenOption.READ)) {
      tail = AuditTail.read(reader, reader.size());
    }
    if (!tail.endsWithNewline()) {
      write(ByteBuffer.wrap(new byte[] {'\n'}));
    }
    return new Resumed(AuditChain.after(tail.lastSeq(), tail.lastLine()), true);
  }

  /** The chain {@link #chain} found, and whether it continues lines already in the file. */
  record Resumed(AuditChain chain, boolean continued) {}

  /** The file a rotation opened, and the name the old lines now have. */
  record Rotated(AuditFile next, String aside) {}

  /**
   * Renames this file aside (to {@code NAME.<time>}) and opens a new one at its path. The name is
   * never one that exists, and sorts after every file rotated before (the verifiers take rotated
   * files in name order): two rotations in one millisecond, or a clock that stepped back, take the
   * millisecond after the newest rotated file's. The move never replaces a file.
   */
  Rotated rotate(Instant now) throws IOException {
    channel.force(true);
    channel.close();
    Instant at = now;
    Instant newest = newestRotation();
    if (newest != null && !at.isAfter(newest)) {
      at = newest.plusMillis(1);
    }
    Path aside;
    while (true) {
      aside = path.resolveSibling(path.getFileName() + "." + ROTATED.format(at));
      try {
        // Without REPLACE_EXISTING (and so without ATOMIC_MOVE, whose rename(2) would replace a
        // file of that name), a move to a name that exists fails rather than replacing it.
        Files.move(path, aside);
        break;
      } catch (FileAlreadyExistsException taken) {
        at = at.plusMillis(1);
      }
    }
    return new Rotated(open(path), aside.getFileName().toString());
  }

  /** The time in the name of the newest file rotated aside from this one, or null if none. */
  private Instant newestRotation() throws IOException {
    String prefix = path.getFileName() + ".";
    Instant newest = null;
    Path dir = path.toAbsolutePath().getParent();
    try (Stream<Path> siblings = Files.list(dir)) {
      for (Path sibling : (Iterable<Path>) siblings::iterator) {
        String name = sibling.getFileName().toString();
        if (!name.startsWith(prefix)) {
          continue;
        }
        try {
          Instant time = ROTATED.parse(name.substring(prefix.length()), Instant::from);
          if (newest == null || time.isAfter(newest)) {
            newest = time;
          }
        } catch (DateTimeParseException notRotated) {
          // another file beside the trail
        }
      }
    }
    return newest;
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
}
