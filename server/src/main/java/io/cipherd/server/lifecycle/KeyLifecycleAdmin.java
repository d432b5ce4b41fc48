package io.cipherd.server.lifecycle;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNames;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.usage.UsageLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntPredicate;
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
    checkNoSubjectKeys(name, named::contains);
    return transition(
        name, key -> LifecycleRules.scheduleDestruction(key, named, window, clock.instant()));
  }

  /** Restores {@code versions} scheduled for destruction whose time has not come. */
  public KeyMetadata cancelDestruction(String name, List<Integer> versions) {
    List<Integer> named = checked(versions);
    return transition(name, key -> LifecycleRules.cancelDestruction(key, named, clock.instant()));
  }

  /**
   * Cancels the scheduled destruction of {@code version} because a call tried to use it, if the
   * key's policy still sets cancel_destruction_on_use and the version is still pending and not yet
   * due; returns whether this call cancelled it (false: nothing to do, e.g. another replica did).
   */
  public boolean cancelDestructionOnUse(String name, int version) {
    AtomicBoolean cancelled = new AtomicBoolean();
    cache.write(
        () ->
            retryOnConflict(
                () -> {
                  cancelled.set(false);
                  KeyMetadata now = read(name);
                  if (!cancelsOnUse(now, version)) {
                    return now;
                  }
                  KeyMetadata next =
                      LifecycleRules.cancelDestruction(now, List.of(version), clock.instant());
                  KeyMetadata written = store.updateLifecycle(now, next);
                  cancelled.set(true);
                  return written;
                }));
    return cancelled.get();
  }

  private boolean cancelsOnUse(KeyMetadata key, int version) {
    if (!key.policy().cancelDestructionOnUse() || !key.lifecycle().serves()) {
      return false;
    }
    VersionLifecycle lifecycle =
        key.versions().stream()
            .filter(info -> info.version() == version)
            .map(KeyVersionInfo::lifecycle)
            .findFirst()
            .orElse(VersionLifecycle.ENABLED);
    return lifecycle.state() == VersionLifecycle.State.DESTRUCTION_SCHEDULED
        && !lifecycle.dueAt(clock.instant());
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

  /** As {@link #retire(String, int, Duration, Duration, boolean, List)}, with no inventory. */
  public Retirement retire(
      String name,
      int belowVersion,
      Duration quietPeriod,
      Duration pendingWindow,
      boolean validateOnly) {
    return retire(name, belowVersion, quietPeriod, pendingWindow, validateOnly, List.of());
  }

  /**
   * Retires every version of {@code name} below {@code belowVersion}: refuses with {@link
   * KeyVersionsInUseException} while any of {@code inventories} (scans of the stored data) counts a
   * ciphertext under one of them, or while any of them was used within {@code quietPeriod} (null or
   * zero: 7 days) on any replica, failures included, as the census merged through the store counts;
   * otherwise raises min_decryption_version to {@code belowVersion} (never lowers it) and schedules
   * every older version not yet scheduled or destroyed for destruction {@code pendingWindow} from
   * now, in one check-and-set write. With {@code validateOnly} the same checks run and the plan is
   * returned, nothing written. Reads the store.
   */
  public Retirement retire(
      String name,
      int belowVersion,
      Duration quietPeriod,
      Duration pendingWindow,
      boolean validateOnly,
      List<DataInventory> inventories) {
    KeyNames.check(name);
    if (belowVersion < 2) {
      throw new InvalidArgumentException(
          "below_version must be at least 2: the versions below it are retired");
    }
    RetirementPlan.checkInventories(name, inventories);
    checkNoSubjectKeys(name, version -> version < belowVersion);
    Duration quiet = KeyCensus.quietPeriod(quietPeriod);
    Duration window = LifecycleRules.window(pendingWindow);
    List<DataInventory> evidence = List.copyOf(inventories);
    if (validateOnly) {
      return plan(read(name), belowVersion, quiet, window, evidence).retirement(false);
    }
    AtomicReference<RetirementPlan> done = new AtomicReference<>();
    cache.write(
        () ->
            retryOnConflict(
                () -> {
                  RetirementPlan plan = plan(read(name), belowVersion, quiet, window, evidence);
                  KeyMetadata written = store.updateLifecycle(plan.before(), plan.after());
                  done.set(plan.written(written));
                  return written;
                }));
    return done.get().retirement(true);
  }

  /**
   * Where the subject keys each version of a key wraps are counted (the subject store's {@code
   * countByWrapVersion}); none by default. Set once by the wiring.
   */
  public void countSubjectKeysWith(Function<String, Map<Integer, Long>> counts) {
    this.subjectKeys = counts;
  }

  private volatile Function<String, Map<Integer, Long>> subjectKeys = name -> Map.of();

  /** How many live subject keys each version of {@code name} wraps. */
  Map<Integer, Long> subjectKeysOf(String name) {
    return subjectKeys.apply(name);
  }

  /**
   * Refuses (KEY_VERSIONS_IN_USE) to retire or destroy versions of {@code name} that {@code doomed}
   * selects while they still wrap live subject keys: nothing is erased by accident.
   */
  private void checkNoSubjectKeys(String name, IntPredicate doomed) {
    Map<Integer, Long> wrapping = new TreeMap<>();
    subjectKeys
        .apply(name)
        .forEach(
            (version, count) -> {
              if (count > 0 && doomed.test(version)) {
                wrapping.put(version, count);
              }
            });
    if (!wrapping.isEmpty()) {
      throw KeyVersionsInUseException.wrappingSubjectKeys(name, wrapping);
    }
  }

  private RetirementPlan plan(
      KeyMetadata key,
      int belowVersion,
      Duration quiet,
      Duration window,
      List<DataInventory> inventories) {
    return RetirementPlan.of(
        key, belowVersion, quiet, window, inventories, usage.refresh(key.name()), clock.instant());
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
