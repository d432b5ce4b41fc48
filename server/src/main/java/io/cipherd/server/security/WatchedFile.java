package io.cipherd.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * A file whose changes are found by its content, not its modification time: each look reads it and
 * compares it byte for byte with the content seen last, so an edit that keeps the modification time
 * (a copy with {@code cp -p}, {@code touch -r}, a clock step) is seen too. Content that was seen
 * once is not reported again, valid or not, so a broken file is reported once, and a later write is
 * seen whatever it holds. Not thread-safe: one checker thread looks.
 */
final class WatchedFile {
  private final Path path;
  private byte[] content;

  /** {@code path}, taking {@code content} (what was loaded at start) as seen. */
  WatchedFile(Path path, byte[] content) {
    this.path = path;
    this.content = content;
  }

  /** {@code path}, read now and taken as seen. */
  static WatchedFile read(Path path) throws IOException {
    return new WatchedFile(path, Files.readAllBytes(path));
  }

  /** What the file held when last read. */
  byte[] content() {
    return content;
  }

  Path path() {
    return path;
  }

  /** The file's content if it differs from what was seen last, else null; it is then seen. */
  byte[] changed() throws IOException {
    byte[] read = Files.readAllBytes(path);
    if (MessageDigest.isEqual(read, content)) {
      return null;
    }
    content = read;
    return read;
  }
}
