package io.cipherd.server.keystore.pkcs12;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Crash-safe replacement of small private files: write a temp file in the same directory, fsync it,
 * rename it over the target, fsync the directory. A reader (or a restart) sees the old file or the
 * new one, never a mix.
 */
final class AtomicFiles {
  static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
  static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

  private static final String TEMP_SUFFIX = ".tmp";
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  /** Writes the content of a file to a stream; may throw any checked exception it meets. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws Exception;
  }

  private AtomicFiles() {}

  /** Creates {@code dir} and missing parents; a directory this call creates is made 0700. */
  static void createPrivateDirectory(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (POSIX) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
      // The mode given to mkdir is filtered by the umask; set it exactly.
      Files.setPosixFilePermissions(dir, OWNER_DIR);
    } else {
      Files.createDirectories(dir);
    }
  }

  /**
   * Replaces {@code target} with {@code content}, leaving the old file in place if anything before
   * the rename fails. On return the new file is in place and its bytes are on disk; call {@link
   * #syncDirectory} to make the rename itself durable.
   */
  static void replace(Path target, Content content) throws Exception {
    Path dir = target.toAbsolutePath().getParent();
    Path temp =
        POSIX
            ? Files.createTempFile(dir, tempPrefix(target), TEMP_SUFFIX, privateFile())
            : Files.createTempFile(dir, tempPrefix(target), TEMP_SUFFIX);
    boolean moved = false;
    try {
      if (POSIX) {
        // Exactly 0600 before any secret byte is written, whatever the umask made of the create
        // mode.
        Files.setPosixFilePermissions(temp, OWNER_FILE);
      }
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream out = Channels.newOutputStream(channel);
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
    } finally {
      if (!moved) {
        Files.deleteIfExists(temp);
      }
    }
  }

  /** Flushes {@code dir}'s entries, so a rename into it survives a power loss. */
  static void syncDirectory(Path dir) throws IOException {
    if (!POSIX) {
      return; // Windows cannot open a directory as a channel; NTFS journals the rename itself.
    }
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /**
   * Deletes temp files that {@link #replace} left beside {@code target} when the process died
   * before the rename; they were never the committed state, so deleting them loses nothing. Returns
   * how many were deleted.
   */
  static int deleteLeftoverTemps(Path target) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    String glob = globEscape(tempPrefix(target)) + "*" + TEMP_SUFFIX;
    int deleted = 0;
    try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(dir, glob)) {
      for (Path leftover : leftovers) {
        Files.deleteIfExists(leftover);
        deleted++;
      }
    }
    return deleted;
  }

  /** Whether anyone but the owner has any permission on {@code path} (always false off POSIX). */
  static boolean isAccessibleByOthers(Path path) throws IOException {
    if (!POSIX) {
      return false;
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
    return perms.stream()
        .anyMatch(p -> p.name().startsWith("GROUP_") || p.name().startsWith("OTHERS_"));
  }

  /** Attributes that create a file 0600 (none off POSIX), for callers opening files themselves. */
  static FileAttribute<?>[] privateFileAttributes() {
    return POSIX ? new FileAttribute<?>[] {privateFile()} : new FileAttribute<?>[0];
  }

  private static String tempPrefix(Path target) {
    return target.getFileName() + ".";
  }

  private static FileAttribute<Set<PosixFilePermission>> privateFile() {
    return PosixFilePermissions.asFileAttribute(OWNER_FILE);
  }

  private static String globEscape(String literal) {
    return literal.replaceAll("([\\\\*?\\[\\]{}])", "\\\\$1");
  }
}
