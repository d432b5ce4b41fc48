package io.cipherd.server.keystore.vault.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads one secret value from a file, trimmed; the error names the file, never its content. */
final class Secrets {
  private Secrets() {}

  static String read(Path file, String what) {
    try {
      String value = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (value.isEmpty()) {
        throw new IllegalArgumentException(what + " file " + file + " is empty");
      }
      return value;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " file " + file, e);
    }
  }
}
