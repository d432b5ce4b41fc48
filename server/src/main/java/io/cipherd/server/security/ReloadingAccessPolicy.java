package io.cipherd.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access policy in a file, read again when the file changes (e.g. a Kubernetes ConfigMap
 * update). A changed file that does not validate is logged and ignored: the last good policy stays
 * in force, so a typo never opens or closes everything.
 */
public final class ReloadingAccessPolicy implements Supplier<AccessPolicy>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReloadingAccessPolicy.class);

  /** How often the file is checked for changes. */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(10);

  private final Path file;
  private final ScheduledExecutorService checker;
  private volatile AccessPolicy current;
  private FileTime loadedModified;

  private ReloadingAccessPolicy(Path file, AccessPolicy first, FileTime modified) {
    this.file = file;
    this.current = first;
    this.loadedModified = modified;
    this.checker =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "cipherd-policy-reload");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Loads {@code file} now (a bad file fails here) and checks it for changes every {@code period}.
   */
  public static ReloadingAccessPolicy start(Path file, Duration period) throws IOException {
    Objects.requireNonNull(period, "period");
    FileTime modified = Files.getLastModifiedTime(file);
    ReloadingAccessPolicy policy =
        new ReloadingAccessPolicy(file, AccessPolicyFile.load(file), modified);
    policy.checker.scheduleWithFixedDelay(
        policy::reloadIfChanged, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return policy;
  }

  @Override
  public AccessPolicy get() {
    return current;
  }

  /**
   * Reads the file again if its modification time changed; public for tests and SIGHUP-style use.
   */
  public void reloadIfChanged() {
    try {
      FileTime modified = Files.getLastModifiedTime(file);
      if (modified.equals(loadedModified)) {
        return;
      }
      loadedModified = modified;
      AccessPolicy next = AccessPolicyFile.load(file);
      current = next;
      log.info("access policy {} reloaded: {} callers", file, next.callers());
    } catch (IOException | RuntimeException e) {
      log.error(
          "access policy {} changed but was not applied; the previous policy stays in force: {}",
          file,
          e.getMessage());
    }
  }

  @Override
  public void close() {
    checker.shutdownNow();
  }
}
