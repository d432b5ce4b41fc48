package io.cipherd.server.keys;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The lifecycle of keys and their versions: disable and enable a key, schedule and cancel the
 * destruction of versions and the deletion of a key, and retire old versions. Each is one
 * check-and-set write through {@link KeyStore#updateLifecycle} of what {@link LifecycleRules}
 * allows; a race with another writer (another replica, or a rotation) is retried on the fresh
 * state, a few times.
 *
 * <p>Every write goes through the {@link KeyCache}, so this replica applies it at once: a version
 * or key that stops serving refuses its next call here, and its bytes held in memory are
 * overwritten. Other replicas sharing the store apply it when their {@code KeyRefresher} next
 * re-reads the key's metadata: within {@code --vault-refresh-interval} (30 seconds by default). The
 * bytes of a destroyed version are gone from the store at once, so a replica that had not loaded
 * them can never use them again.
 */
public final class KeyLifecycleAdmin {
  /** As {@code KeyAdmin}'s: a write that lost a race is retried on the fresh state. */
  private static final RetryPolicy<Object> CONFLICT_RETRY =
      RetryPolicy.builder()
          .handle(ConcurrentKeyUpdateException.class)
          .withMaxAttempts(5)
          .withBackoff(Duration.ofMillis(2), Duration.ofMillis(40))
          .withJitter(0.5)
          .build();

  /** More versions than any key has in one request is a mistake, not a plan. */
  private static final int MAX_VERSIONS = 10_000;

  private final KeyStore store;
  private final KeyCache cache;
  private final Clock clock;
  private final UsageLedger usage;

  /**
   * Lifecycle changes of the keys in {@code store}, written through {@code cache}, timed by {@code
   * clock}; retirement reads the counts of {@code usage}.
   */
  public KeyLifecycleAdmin(KeyStore store, KeyCache cache, Clock clock, UsageLedger usage) {
    this.store = store;
    this.cache = cache;
    this.clock = clock;
    this.usage = usage;
  }

  /** Makes a key refuse every cryptographic call; a disabled key stays disabled. */
  public KeyMetadata disable(String name) {
    return transition(name, LifecycleRules::disable);
  }

  /** Serves a disabled key again; refused for a key scheduled for deletion or deleted. */
  public KeyMetadata enable(String name) {
    return transition(name, LifecycleRules::enable);
  }

  /**
   * Schedules {@code versions} for destruction {@code window} from now (null or zero: 7 days; at
   * least 24 hours); they refuse every call at once. The current version is refused.
   */
  public KeyMetadata scheduleDestruction(String name, List<Integer> versions, Duration window) {
    List<Integer> named = checked(versions);
    LifecycleRules.window(window);
    return transition(
        name, key -> LifecycleRules.scheduleDestruction(key, named, window, clock.instant()));
  }

  /** Restores {@code versions} scheduled for destruction whose time has not come. */
  public KeyMetadata cancelDestruction(String name, List<Integer> versions) {
    List<Integer> named = checked(versions);
    return transition(name, key -> LifecycleRules.cancelDestruction(key, named, clock.instant()));
  }

  /** {@code versions} as a caller named them: at least one, each a version number, none twice. */
  private static List<Integer> checked(List<Integer> versions) {
    if (versions.isEmpty()) {
      throw new InvalidArgumentException("versions must name at least one version");
    }
    if (versions.size() > MAX_VERSIONS) {
      throw new InvalidArgumentException("versions must name at most " + MAX_VERSIONS);
    }
    for (int version : versions) {
      if (version < 1) {
        throw new InvalidArgumentException("versions must be 1 or more, got " + version);
      }
    }
    if (versions.stream().distinct().count() != versions.size()) {
      throw new InvalidArgumentException("versions must not name a version twice");
    }
    return List.copyOf(versions);
  }

  /**
   * Schedules the whole key's deletion {@code window} from now (null or zero: 7 days; at least 24
   * hours); it refuses every call at once, and its name stays taken for good.
   */
  public KeyMetadata scheduleDeletion(String name, Duration window) {
    LifecycleRules.window(window);
    return transition(name, key -> LifecycleRules.scheduleDeletion(key, window, clock.instant()));
  }

  /** Restores a key scheduled for deletion whose time has not come; it comes back disabled. */
  public KeyMetadata cancelDeletion(String name) {
    return transition(name, key -> LifecycleRules.cancelDeletion(key, clock.instant()));
  }

  /**
   * Retires every version of {@code name} below {@code belowVersion}: refuses with {@link
   * KeyVersionsInUseException} while any of them was used within {@code quietPeriod} (null or zero:
   * 7 days) on any replica, as the census merged through the store counts; otherwise raises
   * min_decryption_version to {@code belowVersion} (never lowers it) and schedules every older
   * version not yet scheduled or destroyed for destruction {@code pendingWindow} from now, in one
   * check-and-set write. With {@code validateOnly} the same checks run and the plan is returned,
   * nothing written. Reads the store.
   */
  public Retirement retire(
      String name,
      int belowVersion,
      Duration quietPeriod,
      Duration pendingWindow,
      boolean validateOnly) {
    KeyNames.check(name);
    if (belowVersion < 2) {
      throw new InvalidArgumentException(
          "below_version must be at least 2: the versions below it are retired");
    }
    Duration quiet = KeyCensus.quietPeriod(quietPeriod);
    Duration window = LifecycleRules.window(pendingWindow);
    if (validateOnly) {
      return plan(read(name), belowVersion, quiet, window).retirement(false);
    }
    AtomicReference<Plan> done = new AtomicReference<>();
    cache.write(
        () ->
            retryOnConflict(
                () -> {
                  Plan plan = plan(read(name), belowVersion, quiet, window);
                  KeyMetadata written = store.updateLifecycle(plan.before(), plan.after());
                  done.set(plan.written(written));
                  return written;
                }));
    return done.get().retirement(true);
  }

  /** A retirement worked out on {@code before}, to write as {@code after}. */
  private record Plan(KeyMetadata before, KeyMetadata after, List<Integer> retired, Instant at) {
    Plan written(KeyMetadata stored) {
      return new Plan(before, stored, retired, at);
    }

    Retirement retirement(boolean applied) {
      return new Retirement(
          applied ? after : before, retired, retired.isEmpty() ? null : at, applied);
    }
  }

  private Plan plan(KeyMetadata key, int belowVersion, Duration quiet, Duration window) {
    LifecycleRules.refuseIfDeleting(key, "retired");
    if (belowVersion > key.currentVersion()) {
      throw new KeyPolicyViolationException(
          "below_version "
              + belowVersion
              + " is above the current version "
              + key.currentVersion()
              + " of key '"
              + key.name()
              + "'");
    }
    Instant now = clock.instant();
    KeyCensus census = KeyCensus.of(key, usage.refresh(key.name(), store), quiet, now);
    List<Integer> inUse =
        census.versions().stream()
            .filter(entry -> entry.inUse() && entry.version() < belowVersion)
            .map(KeyCensus.Entry::version)
            .toList();
    if (!inUse.isEmpty()) {
      throw new KeyVersionsInUseException(key.name(), inUse, quiet);
    }
    List<Integer> retired =
        key.versions().stream()
            .filter(version -> version.version() < belowVersion && version.lifecycle().usable())
            .map(KeyVersionInfo::version)
            .toList();
    KeyPolicy policy = key.policy();
    KeyMetadata after =
        key.withPolicy(
            new KeyPolicy(
                Math.max(policy.minDecryptionVersion(), belowVersion),
                policy.minEncryptionVersion(),
                policy.allowEcbEncryption(),
                policy.autoRotatePeriod(),
                policy.maxEncryptionsPerVersion()));
    if (!retired.isEmpty()) {
      after = LifecycleRules.scheduleDestruction(after, retired, window, now);
    }
    return new Plan(key, after, retired, now.plus(window));
  }

  /**
   * Reads {@code name}, applies {@code rule}, and writes the result with check-and-set, retrying a
   * lost race on the fresh state; caches what was written.
   */
  private KeyMetadata transition(String name, UnaryOperator<KeyMetadata> rule) {
    KeyNames.check(name);
    return cache.write(
        () ->
            retryOnConflict(
                () -> {
                  KeyMetadata now = read(name);
                  KeyMetadata next = rule.apply(now);
                  return next.equals(now) ? now : store.updateLifecycle(now, next);
                }));
  }

  private KeyMetadata read(String name) {
    return store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
  }

  private static <T> T retryOnConflict(Supplier<T> attempt) {
    return Failsafe.with(CONFLICT_RETRY).get(attempt::get);
  }
}
