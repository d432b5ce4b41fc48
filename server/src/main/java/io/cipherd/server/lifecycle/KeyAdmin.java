package io.cipherd.server.lifecycle;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.ExportedKey;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNames;
import io.cipherd.server.keys.KeyNotExportableException;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.keys.WipeableSecretKey;
import io.cipherd.server.usage.UsageLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.crypto.SecretKey;

/**
 * Key administration: create, rotate, import, change policy, list. Every write goes through the
 * {@link KeyCache}, so the crypto path sees it at once; every call may reach the store. New
 * versions are made and checked by {@link NewVersions}; rotation by policy is {@link
 * PolicyRotation}'s.
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

  /** The type of a new key or an import that names none. */
  private static final KeyType DEFAULT_TYPE = CipherMode.GCM;

  private final KeyStore store;
  private final KeyCache cache;
  private final Clock clock;
  private final UsageLedger usage;
  private final NewVersions versions;
  private final PolicyRotation policyRotation;
  private final KeyLifecycleAdmin lifecycle;

  /**
   * Counts usage into {@code usage}, which the crypto path records to and automatic rotation reads.
   */
  public KeyAdmin(KeyStore store, KeyCache cache, Clock clock, UsageLedger usage) {
    this.store = store;
    this.cache = cache;
    this.clock = clock;
    this.usage = usage;
    this.versions = new NewVersions(clock);
    this.policyRotation = new PolicyRotation(store, cache, clock, usage, versions);
    this.lifecycle = new KeyLifecycleAdmin(store, cache, clock, usage);
  }

  /** Disabling, destroying, deleting and retiring, on the same store, cache, clock and usage. */
  public KeyLifecycleAdmin lifecycle() {
    return lifecycle;
  }

  /**
   * Each version's usage across replicas as last merged, plus this replica's since; reads the
   * store.
   */
  public Map<Integer, VersionUsage> usage(String name) {
    KeyNames.check(name);
    return usage.refresh(name);
  }

  /**
   * Which versions of {@code name} saw use within {@code quietPeriod} (null or zero: the default);
   * reads the store.
   */
  public KeyCensus census(String name, Duration quietPeriod) {
    KeyNames.check(name);
    Duration quiet = KeyCensus.quietPeriod(quietPeriod);
    KeyMetadata metadata = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
    return KeyCensus.of(
        metadata, usage.refresh(name), quiet, clock.instant(), lifecycle.subjectKeysOf(name));
  }

  /**
   * Rotates {@code name} by itself if its policy says its current version has made enough
   * encryptions (as merged across replicas) or is old enough; returns the new version, or 0.
   */
  public int rotateIfDue(String name) {
    return policyRotation.rotateIfDue(name);
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

  /**
   * Creates a key with a generated version 1 made from {@code template}, and the default policy.
   */
  public KeyMetadata create(String name, KeyTemplate template) {
    return create(name, template, KeyPolicy.DEFAULT);
  }

  /**
   * Creates a key with a generated version 1 made from {@code template}, and {@code policy} (null:
   * the default).
   */
  public KeyMetadata create(String name, KeyTemplate template, KeyPolicy policy) {
    KeyNames.check(name);
    KeyType type = template.typeOr(DEFAULT_TYPE);
    NewVersions.checkAuthenticated(type, template.allowUnauthenticated(), "create a key");
    KeyPolicy initial = policy == null ? KeyPolicy.DEFAULT : policy;
    initial.checkFits(1);
    int bits = template.keySizeBits() == 0 ? type.defaultKeySizeBits() : template.keySizeBits();
    FpeFormat fpe = NewVersions.formatOf(type, template, "create");
    NewKeyVersion first = versions.generated(1, type, bits, fpe);
    try {
      return cache.write(() -> store.createKey(name, first, initial));
    } catch (KeyAlreadyExistsException taken) {
      KeyLifecycle.State state =
          store.readKey(name).map(key -> key.lifecycle().state()).orElse(null);
      throw state == KeyLifecycle.State.DELETED ? KeyAlreadyExistsException.deleted(name) : taken;
    } finally {
      NewVersions.wipe(first);
    }
  }

  /**
   * Adds a generated version made from {@code template} (its defaults: the current version's type
   * and size) and makes it current; a race with another writer is retried on the fresh state.
   */
  public KeyMetadata rotate(String name, KeyTemplate template) {
    KeyNames.check(name);
    return cache.write(
        () ->
            retryOnConflict(
                () -> {
                  KeyMetadata now =
                      store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
                  LifecycleRules.refuseIfDeleting(now, "rotated");
                  KeyVersionInfo current = now.current();
                  if (current.isLegacy()) {
                    throw new InvalidArgumentException(
                        "key '"
                            + name
                            + "' is a legacy key: it gets versions from ImportKey "
                            + "with legacy_cipher only, and never encrypts; create another key to rewrap its data into");
                  }
                  KeyType type = template.typeOr(current.type());
                  if (type != current.type()) {
                    NewVersions.checkSameKind(name, current.type(), type);
                    NewVersions.checkAuthenticated(
                        type, template.allowUnauthenticated(), "rotate a key into");
                  }
                  int bits = NewVersions.rotatedSize(current, type, template.keySizeBits());
                  // A format-preserving key's versions all keep its format.
                  FpeFormat fpe = current.fpe();
                  NewVersions.checkPrefixFits(name, fpe, now.currentVersion() + 1);
                  NewKeyVersion next =
                      versions.generated(now.currentVersion() + 1, type, bits, fpe);
                  try {
                    return store.addVersion(name, now.currentVersion(), next);
                  } finally {
                    NewVersions.wipe(next);
                  }
                }));
  }

  /**
   * Adds caller-supplied bytes as a new version of {@code template}'s type (its size is the
   * material's), creating the key if it does not exist.
   */
  public KeyMetadata importVersion(String name, KeyTemplate template, byte[] material) {
    return importVersion(name, template, material, /* transitKdf= */ null);
  }

  /**
   * As {@link #importVersion(String, KeyTemplate, byte[])}; with a {@code transitKdf}, the version
   * is a derived Vault Transit key's (gcm or chacha): it derives each context's key from the bytes
   * and opens Transit's ciphertexts only.
   */
  public KeyMetadata importVersion(
      String name, KeyTemplate template, byte[] material, TransitKdf transitKdf) {
    KeyNames.check(name);
    KeyType type = template.typeOr(DEFAULT_TYPE);
    NewVersions.checkAuthenticated(type, template.allowUnauthenticated(), "import a key for");
    if (template.keySizeBits() != 0 && template.keySizeBits() != material.length * 8) {
      throw new InvalidArgumentException(
          "key_material is " + material.length * 8 + " bits, not " + template.keySizeBits());
    }
    int bits = NewVersions.checkedImportSize(type, material);
    FpeFormat fpe = NewVersions.formatOf(type, template, "import");
    if (transitKdf != null) {
      if (type.mode() != CipherMode.GCM && type.mode() != CipherMode.CHACHA) {
        throw new InvalidArgumentException(
            "transit_kdf is for the versions of a derived Vault Transit key (aes128-gcm96,"
                + " aes256-gcm96, chacha20-poly1305): mode MODE_GCM or MODE_CHACHA, not "
                + type.typeName());
      }
      return addImported(
          name,
          type,
          /* fpe= */ null,
          version ->
              KeyVersionInfo.transitDerived(version, type, bits, clock.instant(), transitKdf),
          material);
    }
    return addImported(
        name,
        type,
        fpe,
        version ->
            fpe == null
                ? KeyVersionInfo.imported(version, type, bits, clock.instant())
                : KeyVersionInfo.formatPreserving(
                    version, bits, clock.instant(), /* imported= */ true, fpe),
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
          KeyType.LEGACY,
          /* fpe= */ null,
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
      String name, KeyType type, FpeFormat fpe, IntFunction<KeyVersionInfo> info, byte[] material) {
    return cache.write(
        () ->
            retryOnConflict(
                () -> {
                  Optional<KeyMetadata> now = store.readKey(name);
                  now.ifPresent(LifecycleRules::refuseImport);
                  now.ifPresent(key -> NewVersions.checkSameKind(name, key.current().type(), type));
                  now.ifPresent(key -> checkSameFormat(name, key.current().fpe(), fpe));
                  int version = now.map(KeyMetadata::currentVersion).orElse(0) + 1;
                  NewVersions.checkPrefixFits(name, fpe, version);
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
                    NewVersions.wipe(next);
                  }
                }));
  }

  /** An import into an existing format-preserving key must give the key's format. */
  private static void checkSameFormat(String name, FpeFormat current, FpeFormat imported) {
    if (current != null && !current.equals(imported)) {
      throw new InvalidArgumentException(
          "key '"
              + name
              + "' keeps values of format "
              + current
              + ", and fpe_format differs: every version of a format-preserving key has the"
              + " format it was created with");
    }
  }

  /**
   * Marks a key exportable for good (idempotent); a race with a lifecycle change is retried on the
   * fresh state.
   */
  public KeyMetadata setExportable(String name) {
    KeyNames.check(name);
    return cache.write(
        () ->
            retryOnConflict(
                () -> {
                  KeyMetadata now =
                      store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
                  LifecycleRules.refuseIfDeleting(now, "changed");
                  return store.setExportable(name);
                }));
  }

  /**
   * Key {@code name} whole, read from the store: its metadata and the bytes of every version not
   * destroyed (a version pending destruction included, with its schedule). Throws {@link
   * KeyNotExportableException} unless the key is exportable. The caller wipes the result.
   */
  public ExportedKey export(String name) {
    KeyNames.check(name);
    KeyMetadata key = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
    if (!key.exportable()) {
      throw new KeyNotExportableException(name);
    }
    List<NewKeyVersion> live = new ArrayList<>();
    try {
      for (KeyVersionInfo version : key.versions()) {
        if (LifecycleChange.isDestroyed(version)) {
          continue;
        }
        SecretKey material = store.readMaterial(name, version);
        try {
          live.add(new NewKeyVersion(version, material.getEncoded()));
        } finally {
          WipeableSecretKey.destroyQuietly(material);
        }
      }
      return new ExportedKey(key, live);
    } catch (RuntimeException e) {
      live.forEach(NewVersions::wipe);
      throw e;
    }
  }

  /**
   * Creates key {@code exported.key()} whole, as a backup holds it: its version numbers, states,
   * destruction schedules, policy, lifecycle and exportable flag; never over an existing key
   * ({@link KeyAlreadyExistsException}, the store's create-if-absent).
   */
  public KeyMetadata restore(ExportedKey exported) {
    KeyMetadata key = exported.key();
    KeyNames.check(key.name());
    key.policy().checkFits(key.currentVersion());
    try {
      return cache.write(() -> store.restoreKey(key, exported.live()));
    } catch (KeyAlreadyExistsException taken) {
      KeyLifecycle.State state =
          store.readKey(key.name()).map(k -> k.lifecycle().state()).orElse(null);
      throw state == KeyLifecycle.State.DELETED
          ? KeyAlreadyExistsException.deleted(key.name())
          : taken;
    }
  }

  /** Replaces a key's policy after checking that its minimums name existing versions. */
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    KeyNames.check(name);
    return cache.write(
        () -> {
          KeyMetadata now = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
          LifecycleRules.refuseIfDeleting(now, "changed");
          policy.checkFits(now.currentVersion());
          return store.updatePolicy(name, policy);
        });
  }

  private static KeyMetadata retryOnConflict(Supplier<KeyMetadata> attempt) {
    return Failsafe.with(CONFLICT_RETRY).get(attempt::get);
  }
}
