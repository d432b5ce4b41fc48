package io.cipherd.server.keys;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.cipherd.server.crypto.Mode;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Key administration: create, rotate, import, change policy, list. Every write goes through the
 * {@link KeyCache}, so the crypto path sees it at once; every call may reach the store.
 */
public final class KeyAdmin {
  /**
   * A write that lost a race to another writer (another replica rotating the same key through a
   * shared store such as Vault) is retried on the fresh state after a short random pause, so
   * replicas in lockstep do not keep colliding; each call still adds exactly one version.
   */
  private static final RetryPolicy<KeyMetadata> CONFLICT_RETRY =
      RetryPolicy.<KeyMetadata>builder()
          .handle(ConcurrentKeyUpdateException.class)
          .withMaxAttempts(5)
          .withBackoff(Duration.ofMillis(2), Duration.ofMillis(40))
          .withJitter(0.5)
          .build();

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(KeyAdmin.class);

  private final KeyStore store;
  private final KeyCache cache;
  private final Clock clock;
  private final UsageLedger usage;

  public KeyAdmin(KeyStore store, KeyCache cache, Clock clock) {
    this(store, cache, clock, new UsageLedger(clock));
  }

  /**
   * Counts usage into {@code usage}, which the crypto path records to and automatic rotation reads.
   */
  public KeyAdmin(KeyStore store, KeyCache cache, Clock clock, UsageLedger usage) {
    this.store = store;
    this.cache = cache;
    this.clock = clock;
    this.usage = usage;
  }

  /**
   * Each version's usage across replicas as last merged, plus this replica's since; reads the
   * store.
   */
  public Map<Integer, VersionUsage> usage(String name) {
    KeyNames.check(name);
    return usage.refresh(name, store);
  }

  /**
   * Which versions of {@code name} saw use within {@code quietPeriod} (null or zero: the default);
   * reads the store.
   */
  public KeyCensus census(String name, Duration quietPeriod) {
    KeyNames.check(name);
    Duration quiet = KeyCensus.quietPeriod(quietPeriod);
    KeyMetadata metadata = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
    return KeyCensus.of(metadata, usage.refresh(name, store), quiet, clock.instant());
  }

  /**
   * Rotates {@code name} by itself if its policy says its current version has made enough
   * encryptions (as merged across replicas) or is old enough; returns the new version, or 0.
   * Replicas racing here all try to add the same next version with check-and-set: exactly one write
   * succeeds, and the others see the key already rotated, so a limit rotates a key once.
   */
  public int rotateIfDue(String name) {
    // The cached view decides whether the store needs reading at all: each interval, most keys are
    // not due.
    Optional<KeyMetadata> cached = cache.peek(name);
    if (cached.isPresent() && rotationReason(cached.get()) == null) {
      return 0;
    }
    KeyMetadata now = store.readKey(name).orElse(null);
    if (now == null) {
      return 0;
    }
    // What another replica rotated (or a policy it changed) is used here from now on.
    cache.offer(now);
    String reason = rotationReason(now);
    if (reason == null) {
      return 0;
    }
    KeyVersionInfo current = now.current();
    NewKeyVersion next = generated(current.version() + 1, current.mode(), current.keySizeBits());
    try {
      cache.write(() -> store.addVersion(name, current.version(), next));
      LOG.info(
          "rotated key '{}' to version {} by its policy: {}", name, current.version() + 1, reason);
      return current.version() + 1;
    } catch (ConcurrentKeyUpdateException anotherReplicaFirst) {
      // The version this replica would have added exists already: use it, add none.
      cache.reload(name);
      return 0;
    } finally {
      wipe(next);
    }
  }

  /**
   * Why {@code key} must rotate now by its policy, judged on its current version's merged usage;
   * null if not.
   */
  private String rotationReason(KeyMetadata key) {
    KeyVersionInfo current = key.current();
    long encryptions =
        usage.usage(key.name()).getOrDefault(current.version(), VersionUsage.NONE).encryptions();
    return key.policy().rotationReason(current, encryptions, clock.instant());
  }

  /**
   * Up to {@code limit} key names after {@code after} (empty for the first) that {@code shown}
   * accepts, in name order: one listing of the store, and no key read, so a caller's filter costs
   * no store call per name it leaves out.
   */
  public List<String> names(String after, int limit, Predicate<String> shown) {
    return store.listKeyNames().stream()
        .filter(name -> name.compareTo(after) > 0)
        .filter(shown)
        .limit(limit)
        .toList();
  }

  /**
   * The metadata of each of {@code names} still in the store, in their order: one store read per
   * name.
   */
  public List<KeyMetadata> read(List<String> names) {
    return names.stream().map(store::readKey).flatMap(Optional::stream).toList();
  }

  /** A key's metadata, from the cache or the store. */
  public KeyMetadata describe(String name) {
    return cache.describe(name);
  }

  /** Creates a key with a generated version 1. */
  public KeyMetadata create(
      String name, Mode mode, int keySizeBits, boolean allowUnauthenticated, KeyPolicy policy) {
    KeyNames.check(name);
    Mode chosen = mode == null ? Mode.GCM : mode;
    checkNotLegacy(chosen);
    checkAuthenticated(chosen, allowUnauthenticated, "create a key");
    KeyPolicy initial = policy == null ? KeyPolicy.DEFAULT : policy;
    initial.checkFits(1);
    NewKeyVersion first =
        generated(1, chosen, keySizeBits == 0 ? chosen.defaultKeySizeBits() : keySizeBits);
    try {
      return cache.write(() -> store.createKey(name, first, initial));
    } finally {
      wipe(first);
    }
  }

  /**
   * Adds a generated version and makes it current; a race with another writer is retried on the
   * fresh state.
   */
  public KeyMetadata rotate(String name, Mode mode, int keySizeBits, boolean allowUnauthenticated) {
    KeyNames.check(name);
    return cache.write(
        () ->
            retryOnConflict(
                () -> {
                  KeyMetadata now =
                      store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
                  KeyVersionInfo current = now.current();
                  if (current.isLegacy()) {
                    throw new InvalidArgumentException(
                        "key '"
                            + name
                            + "' is a legacy key: it gets versions from ImportKey "
                            + "with legacy_cipher only, and never encrypts; create another key to rewrap its data into");
                  }
                  Mode chosen = mode == null ? current.mode() : mode;
                  checkNotLegacy(chosen);
                  if (chosen != current.mode()) {
                    checkSameKind(name, current.mode(), chosen);
                    checkAuthenticated(chosen, allowUnauthenticated, "rotate a key into");
                  }
                  int bits =
                      keySizeBits != 0
                          ? keySizeBits
                          : chosen.acceptsKeySize(current.keySizeBits())
                              ? current.keySizeBits()
                              : chosen.defaultKeySizeBits();
                  NewKeyVersion next = generated(now.currentVersion() + 1, chosen, bits);
                  try {
                    return store.addVersion(name, now.currentVersion(), next);
                  } finally {
                    wipe(next);
                  }
                }));
  }

  /** Adds caller-supplied bytes as a new version, creating the key if it does not exist. */
  public KeyMetadata importVersion(
      String name, Mode mode, byte[] material, boolean allowUnauthenticated) {
    KeyNames.check(name);
    Mode chosen = mode == null ? Mode.GCM : mode;
    checkNotLegacy(chosen);
    checkAuthenticated(chosen, allowUnauthenticated, "import a key for");
    int bits = material.length * 8;
    if (!chosen.acceptsKeySize(bits)) {
      throw new InvalidArgumentException(
          "key_material for "
              + chosen.headerName()
              + " must be "
              + chosen.keySizesBits()
              + " bits, got "
              + bits);
    }
    return addImported(
        name,
        chosen,
        version -> new KeyVersionInfo(version, chosen, bits, clock.instant(), /* imported= */ true),
        material);
  }

  /**
   * Adds a decrypt-only legacy version with {@code material} (already checked against the cipher's
   * key lengths), creating the key if it does not exist. A legacy key holds legacy versions only,
   * so its data can only ever leave it through ReEncrypt, and a normal key never gets one.
   */
  public KeyMetadata importLegacyVersion(String name, LegacyFormat format, byte[] material) {
    KeyNames.check(name);
    if (!format.cipher().acceptsKeyLength(material.length)) {
      throw new InvalidArgumentException(
          "key_material for "
              + format.cipher().storeName()
              + " must be "
              + format.cipher().keyLengths()
              + ", got "
              + material.length);
    }
    byte[] stored = format.cipher().storedKey(material);
    try {
      return addImported(
          name,
          Mode.LEGACY,
          version -> KeyVersionInfo.legacy(version, format, stored.length * 8, clock.instant()),
          stored);
    } finally {
      Arrays.fill(stored, (byte) 0);
    }
  }

  /**
   * Adds {@code material} as the next version described by {@code info}, creating the key if
   * needed.
   */
  private KeyMetadata addImported(
      String name, Mode chosen, IntFunction<KeyVersionInfo> info, byte[] material) {
    return cache.write(
        () ->
            retryOnConflict(
                () -> {
                  Optional<KeyMetadata> now = store.readKey(name);
                  now.ifPresent(key -> checkSameKind(name, key.current().mode(), chosen));
                  int version = now.map(KeyMetadata::currentVersion).orElse(0) + 1;
                  NewKeyVersion next = new NewKeyVersion(info.apply(version), material.clone());
                  try {
                    if (now.isPresent()) {
                      return store.addVersion(name, version - 1, next);
                    }
                    try {
                      return store.createKey(name, next, KeyPolicy.DEFAULT);
                    } catch (KeyAlreadyExistsException raced) {
                      // Another writer created the key since we read: add to it instead, on the
                      // fresh state.
                      throw new ConcurrentKeyUpdateException(name, 0);
                    }
                  } finally {
                    wipe(next);
                  }
                }));
  }

  /** Replaces a key's policy after checking that its minimums name existing versions. */
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    KeyNames.check(name);
    return cache.write(
        () -> {
          KeyMetadata now = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
          policy.checkFits(now.currentVersion());
          return store.updatePolicy(name, policy);
        });
  }

  private static KeyMetadata retryOnConflict(Supplier<KeyMetadata> attempt) {
    return Failsafe.with(CONFLICT_RETRY).get(attempt::get);
  }

  private NewKeyVersion generated(int version, Mode mode, int bits) {
    if (!mode.acceptsKeySize(bits)) {
      throw new InvalidArgumentException(
          "key_size_bits for "
              + mode.headerName()
              + " must be one of "
              + mode.keySizesBits()
              + ", got "
              + bits);
    }
    return new NewKeyVersion(
        new KeyVersionInfo(version, mode, bits, clock.instant(), /* imported= */ false),
        NonceSource.bytes(bits / 8));
  }

  /** Stores copy what they keep, so the material handed to them is overwritten once they return. */
  private static void wipe(NewKeyVersion version) {
    Arrays.fill(version.material(), (byte) 0);
  }

  /**
   * A key's versions are all of one kind: an index key's are all hmac, so a query never meets a
   * ciphertext; a legacy key's are all legacy, so a legacy version never becomes the one new data
   * is encrypted with, and an encryption key never turns decrypt-only.
   */
  private static void checkSameKind(String name, Mode current, Mode chosen) {
    if (current.kind() != chosen.kind()) {
      String adding =
          chosen.kind() == Mode.Kind.LEGACY
              ? "a legacy version"
              : "a version in " + chosen.headerName() + " (" + chosen.kind().description() + "'s)";
      throw new InvalidArgumentException(
          "key '"
              + name
              + "' is "
              + current.kind().description()
              + " and cannot take "
              + adding
              + ": a key's versions are all of one kind; import or create it under another key name");
    }
  }

  /** Legacy versions come only from {@link #importLegacyVersion}, which knows their cipher. */
  private static void checkNotLegacy(Mode mode) {
    if (mode.kind() == Mode.Kind.LEGACY) {
      throw new InvalidArgumentException(
          "legacy versions are imported with legacy_cipher, never generated or given a mode");
    }
  }

  private static void checkAuthenticated(Mode mode, boolean allowUnauthenticated, String action) {
    if (mode.isCipher() && !mode.isAead() && !allowUnauthenticated) {
      throw new InvalidArgumentException(
          mode.headerName()
              + " does not authenticate its ciphertexts; set "
              + "allow_unauthenticated to "
              + action
              + " "
              + mode.headerName());
    }
  }
}
