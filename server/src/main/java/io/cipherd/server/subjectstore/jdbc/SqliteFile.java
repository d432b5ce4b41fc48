package io.cipherd.server.subjectstore.jdbc;

import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The embedded store's database file, made private before SQLite opens it: the folder 0700 when
 * this creates it (as the embedded key store's), the file 0600. SQLite gives its WAL and shared
 * memory files the database file's mode.
 */
final class SqliteFile {
  /** The file's name in the data folder. */
  static final String NAME = "subjects.db";

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private SqliteFile() {}

  /** {@code dataDir}/{@value #NAME}, created empty and private if it does not exist. */
  static Path prepare(Path dataDir) {
    Path file = dataDir.resolve(NAME);
    try {
      if (!Files.isDirectory(dataDir)) {
        if (POSIX) {
          Files.createDirectories(
              dataDir,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
          // The mode given to mkdir is filtered by the umask; set it exactly.
          Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));
        } else {
          Files.createDirectories(dataDir);
        }
      }
      if (!Files.exists(file)) {
        try {
          if (POSIX) {
            Files.createFile(
                file,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
          } else {
            Files.createFile(file);
          }
        } catch (FileAlreadyExistsException raced) {
          // Another process made it first: theirs is as good.
        }
      }
    } catch (IOException e) {
      throw new SubjectStoreUnavailableException(
          "subject store: cannot create " + file + ": " + e.getMessage(), e);
    }
    return file;
  }
}
