package io.cipherd.server.audit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads single lines of a trail's files for its anchor: a file's first line, the line at a byte
 * offset, the line numbered {@code seq}. Each line is identified as the chain does ({@link
 * AuditChain#seqOf}, {@link AuditChain#hash}): its seq and the SHA-256 of its bytes without the
 * newline.
 */
final class TrailLines {
  private TrailLines() {}

  /** A line of a file: its seq (-1 if it is not a record) and hex SHA-256. */
  record Line(long seq, String hash) {}

  /** The first line of {@code file}, or null if it is empty or missing. */
  static Line first(Path file) throws IOException {
    if (!Files.exists(file)) {
      return null;
    }
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
      byte[] line = next(in);
      return line == null ? null : identify(line);
    }
  }

  /** The line that starts at byte {@code offset} of {@code file}, or null if there is none. */
  static Line at(Path file, long offset) throws IOException {
    if (offset < 0 || !Files.exists(file) || offset >= Files.size(file)) {
      return null;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.position(offset);
      byte[] line = next(new BufferedInputStream(Channels.newInputStream(channel)));
      return line == null ? null : identify(line);
    }
  }

  /** The line numbered {@code seq} in {@code file}, or null if it holds none. */
  static Line find(Path file, long seq) throws IOException {
    if (!Files.exists(file)) {
      return null;
    }
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      for (byte[] line = next(in); line != null; line = next(in)) {
        long found = AuditChain.seqOf(line);
        if (found == seq) {
          return identify(line);
        }
        if (found > seq) {
          return null;
        }
      }
    }
    return null;
  }

  private static Line identify(byte[] line) {
    return new Line(AuditChain.seqOf(line), AuditChain.hash(line));
  }

  /** The next line's bytes without its newline (a last line without one too), or null at end. */
  private static byte[] next(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    int b;
    while ((b = in.read()) != -1 && b != '\n') {
      line.write(b);
    }
    return b == -1 && line.size() == 0 ? null : line.toByteArray();
  }
}
