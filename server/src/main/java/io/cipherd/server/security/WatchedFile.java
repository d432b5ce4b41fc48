package io.cipherd.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A file whose changes are found by its content, not its modification time: each look reads it and
 * compares its SHA-256 with the content seen last, so an edit that keeps the modification time (a
 * copy with {@code cp -p}, {@code touch -r}, a clock step) is seen too. Content that was seen once
 * is not reported again, valid or not, so a broken file is reported once, and a later write is seen
 * whatever it holds. Not thread-safe: one checker thread looks.
 */
final class WatchedFile {
  private final Path path;
  private byte[] seen;
  private byte[] content;

  /** {@code path}, taking {@code content} (what was loaded at start) as seen. */
  WatchedFile(Path path, byte[] content) {
    this.path = path;
    this.seen = sha256(content);
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
    byte[] content = Files.readAllBytes(path);
    byte[] digest = sha256(content);
    if (MessageDigest.isEqual(digest, seen)) {
      return null;
    }
    seen = digest;
    this.content = content;
    return content;
  }

  private static byte[] sha256(byte[] content) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
