package io.cipherd.server.security;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * update). A change is found by content ({@link WatchedFile}), so an edit that keeps the
 * modification time applies too. A changed file that does not validate (a typo, or a file caught
 * half-written) is logged and ignored: the last good policy stays in force, so a typo never opens
 * or closes everything, and the next write that validates applies.
 *
 * <p>Each policy applied is a new {@link AccessPolicy} instance, logged once it is in force: calls
 * and open streams compare it with the one their caller's credential was last checked against
 * ({@link CallerCredential}), so a replaced token or certificate name stops working on streams
 * already open, from their first item after the reload is logged.
 */
public final class ReloadingAccessPolicy implements Supplier<AccessPolicy>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReloadingAccessPolicy.class);

  /**
   * How often the file is read and compared: a change applies within this (plus the read, well
   * under a millisecond for a policy file). Reading a few kilobytes every two seconds costs nothing
   * measurable; a Kubernetes ConfigMap update itself takes up to a minute to reach the pod.
   */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(2);

  private final WatchedFile file;
  private final ScheduledExecutorService checker;
  private volatile AccessPolicy current;

  private ReloadingAccessPolicy(Path file, AccessPolicy first, byte[] content) {
    this.file = new WatchedFile(file, content);
    this.current = first;
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
    byte[] content = Files.readAllBytes(file);
    ReloadingAccessPolicy policy = new ReloadingAccessPolicy(file, parse(file, content), content);
    policy.checker.scheduleWithFixedDelay(
        policy::reloadIfChanged, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return policy;
  }

  @Override
  public AccessPolicy get() {
    return current;
  }

  /**
   * Reads the file and applies it if its content changed; public for tests and SIGHUP-style use.
   * One thread at a time (the checker's, or a test's while the period is long).
   */
  public synchronized void reloadIfChanged() {
    try {
      byte[] content = file.changed();
      if (content == null) {
        return;
      }
      AccessPolicy next = parse(file.path(), content);
      current = next;
      log.info(
          "access policy {} reloaded: {} callers; open calls and streams re-check their callers",
          file.path(),
          next.callers());
    } catch (IOException | RuntimeException e) {
      log.error(
          "access policy {} changed but was not applied; the previous policy stays in force: {}",
          file.path(),
          e.getMessage());
    }
  }

  private static AccessPolicy parse(Path file, byte[] content) {
    return AccessPolicyFile.parse(
        file.toString(),
        new InputStreamReader(
            new ByteArrayInputStream(content), StandardCharsets.UTF_8.newDecoder()));
  }

  @Override
  public void close() {
    checker.shutdownNow();
  }
}
