package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * An exclusive OS lock on a key store directory. Each store rewrites whole files from its own
 * memory, so a second process writing the same directory would silently drop the first one's
 * versions; the lock makes the second open fail instead.
 */
final class DirectoryLock implements AutoCloseable {
  static final String FILE = "keys.lock";

  private final FileChannel channel;

  private DirectoryLock(FileChannel channel) {
    this.channel = channel;
  }

  /**
   * Locks {@code dir}, or throws {@link KeyStoreUnavailableException} if another store holds it.
   */
  static DirectoryLock acquire(Path dir) {
    Path file = dir.resolve(FILE);
    FileChannel channel;
    try {
      channel =
          FileChannel.open(
              file,
              Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
              AtomicFiles.privateFileAttributes());
    } catch (IOException e) {
      throw new KeyStoreUnavailableException("cannot open lock file " + file + ": " + e, e);
    }
    try {
      FileLock lock = channel.tryLock();
      if (lock != null) {
        return new DirectoryLock(channel);
      }
    } catch (OverlappingFileLockException e) {
      // This JVM already has the directory open: just as busy as another process holding it.
    } catch (IOException e) {
      closeQuietly(channel);
      throw new KeyStoreUnavailableException("cannot lock " + file + ": " + e, e);
    }
    closeQuietly(channel);
    throw new KeyStoreUnavailableException(
        "key store "
            + dir
            + " is already open in another cipherd process ("
            + file
            + " is locked)");
  }

  /** Releases the lock; closing the channel is what releases it, and may be repeated. */
  @Override
  public void close() {
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // The OS drops the lock with the descriptor whatever close reports.
    }
  }
}
