package io.cipherd.server.keystore.vault;

import dev.failsafe.Failsafe;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyMaterialUnusableException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.keys.WipeableSecretKey;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.KeyEncryptionKey;
import io.github.jopenlibs.vault.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import javax.crypto.SecretKey;

/**
 * Keys in Vault's KV v2 engine, shared by every replica.
 *
 * <p>Layout: one KV secret per key name at {@code <mount>/data/<prefix>/<name>}; KV version N holds
 * key version N, with the fields {@code algorithm}, {@code mode}, {@code key_size_bits}, {@code
 * created}, {@code imported} and {@code material} (base64; with a key-encryption key {@code
 * material_wrapped} and {@code kek} instead, see {@link KvMaterial}), and for a legacy version
 * {@code legacy_cipher}, {@code legacy_iv} and {@code legacy_fixed_iv} (see {@link
 * KvVersionFields}). The key's policy is the secret's custom metadata ({@code
 * <mount>/metadata/<prefix>/<name>}: {@code min_decryption_version}, {@code
 * min_encryption_version}, {@code allow_ecb_encryption}), next to {@code max_versions} set to the
 * largest value Vault accepts, {@code cas_required = true} and {@code delete_version_after = 0s}
 * (see {@link KvKeySettings}).
 *
 * <p>Every version write is a check-and-set on the KV version it expects to follow ({@code cas=0}
 * to create), so two replicas writing at once never overwrite each other: the loser gets {@link
 * ConcurrentKeyUpdateException} and nothing is stored. A version's metadata never changes once
 * written, so it is remembered and {@link #readKey} then costs a metadata read and a read of the
 * lifecycle secret {@code <prefix>/_lifecycle/<name>} ({@link KvLifecycle}); key bytes are not
 * kept. Destroying a version destroys its KV version's data ({@code <mount>/destroy/...}) and the
 * wrapped copy {@code cipherd kek migrate} or {@code rewrap} may have made of it ({@link
 * KvMigratedVersions}); one interrupted is finished by the next read of the key ({@link KvKeys}).
 */
public final class VaultKeyStore implements KeyStore, UsageStore, AuditStore {
  /**
   * After Vault was unreachable, calls fail at once for this long instead of each waiting out
   * timeouts.
   */
  static final Duration CIRCUIT_OPEN_FOR = Duration.ofSeconds(1);

  /** What the start-up round trip through the KEK is bound to. */
  private static final byte[] PROBE_DATA = "cipherd kek-probe".getBytes(StandardCharsets.UTF_8);

  private final VaultSession session;
  private final KvClient kv;

  private final KvKeys keys;
  private final KvAuditHeads auditHeads;
  private final KvMaterial material;
  private final UnwrapFailureLog unwrapFailures = new UnwrapFailureLog(Clock.systemUTC());

  /** A store keeping key material as it is, with no key-encryption key. */
  public VaultKeyStore(VaultSession session) {
    this(session, KekConfig.OFF);
  }

  /**
   * A store whose material is wrapped by the KEK {@code kek} names; a KEK is tried once (a wrap and
   * an unwrap) before the store is used, so a wrong key or a missing grant stops the start.
   */
  public VaultKeyStore(VaultSession session, KekConfig kek) {
    this.session = session;
    VaultConfig config = session.config();
    this.kv =
        new KvClient(
            session,
            new KvPaths(config.mount(), config.prefix()),
            new VaultCircuit(CIRCUIT_OPEN_FOR, longestCall(config), Clock.systemUTC()));
    this.keys = new KvKeys(kv);
    this.auditHeads = new KvAuditHeads(kv);
    this.material = material(kv, kek);
  }

  private static KvMaterial material(KvClient kv, KekConfig config) {
    if (!config.enabled()) {
      return KvMaterial.UNWRAPPED;
    }
    KeyEncryptionKey kek =
        config.kind().equals(KekConfig.TRANSIT)
            ? new TransitKek(kv, config.transitMount(), config.transitKey())
            : config.openFromFactory();
    byte[] probe = NonceSource.bytes(32);
    byte[] back = kek.unwrap(kek.wrap(probe, PROBE_DATA), PROBE_DATA);
    if (!MessageDigest.isEqual(probe, back)) {
      throw new IllegalStateException(
          "the key-encryption key " + kek.id() + " does not round-trip");
    }
    List<KeyEncryptionKey> others = new ArrayList<>();
    for (String id : config.alsoUnwrap()) {
      if (!id.equals(kek.id())) {
        others.add(alsoUnwrapping(kv, config, id));
      }
    }
    return new KvMaterial(kek, others, config.requireWrapped());
  }

  /**
   * The KEK {@code id} names, to read its blobs: {@code transit:<mount>/<key>} through this store's
   * session (its token needs {@code update} on that key's decrypt path only), any other through its
   * factory ({@link KekConfig#openFromFactory(String)}). Nothing is wrapped with it, so it is not
   * tried at start; a blob it cannot unwrap fails when read.
   */
  private static KeyEncryptionKey alsoUnwrapping(KvClient kv, KekConfig config, String id) {
    String transit = KekConfig.TRANSIT + ":";
    if (id.startsWith(transit)) {
      String path = id.substring(transit.length());
      int slash = path.lastIndexOf('/');
      if (slash <= 0 || slash == path.length() - 1) {
        throw new IllegalArgumentException(
            "--kek-also-unwrap " + id + " is not transit:<mount>/<key>");
      }
      return new TransitKek(kv, path.substring(0, slash), path.substring(slash + 1));
    }
    return config.openFromFactory(id);
  }

  /**
   * The longest one Vault call can take, the driver's retries included: how long a circuit probe
   * may take.
   */
  static Duration longestCall(VaultConfig config) {
    return config
        .openTimeout()
        .plus(config.readTimeout())
        .multipliedBy(config.maxRetries() + 1L)
        .plus(config.retryInterval().multipliedBy(config.maxRetries()));
  }

  /** Logs in with {@code config} and opens the store. */
  public static VaultKeyStore open(VaultConfig config) {
    return open(config, KekConfig.OFF);
  }

  /** Logs in with {@code config} and opens the store, its material wrapped by {@code kek}. */
  public static VaultKeyStore open(VaultConfig config, KekConfig kek) {
    VaultSession session = VaultSession.open(config);
    try {
      return new VaultKeyStore(session, kek);
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  /** The id of the key-encryption key wrapping stored material, if any. */
  public Optional<String> kekId() {
    return material.wraps() ? Optional.of(material.kek().id()) : Optional.empty();
  }

  /**
   * The in-place migration of stored material to this store's KEK ({@code cipherd kek migrate}).
   */
  public KekMigration kekMigration() {
    if (!material.wraps()) {
      throw new IllegalArgumentException("migrating needs a key-encryption key (--kek)");
    }
    // The migration reads raw material whatever --kek-require-wrapped says: that is its job.
    return new KekMigration(kv, keys, material.requiringWrapped(false));
  }

  /**
   * The rewrap of every stored blob to this store's KEK at its newest version ({@code cipherd kek
   * rewrap}), reading blobs of the KEKs it also unwraps.
   */
  public KekRewrap kekRewrap() {
    if (!material.wraps()) {
      throw new IllegalArgumentException("rewrapping needs a key-encryption key (--kek)");
    }
    return new KekRewrap(kv, keys, material.requiringWrapped(false));
  }

  public VaultSession session() {
    return session;
  }

  @Override
  public List<String> listKeyNames() {
    List<String> names = new ArrayList<>(kv.listNames());
    names.sort(Comparator.naturalOrder());
    return List.copyOf(names);
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    return keys.read(name).map(KvKeys.Snapshot::key);
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    KvLifecycle lifecycle = keys.lifecycle(name);
    if (lifecycle.isDestroyed(version.version())) {
      throw KeyUnavailableException.version(
          name, version.version(), lifecycle.destroyed().get(version.version()).lifecycle());
    }
    JsonObject fields =
        KvMigratedVersions.read(kv, name, version.version())
            .orElseThrow(() -> KeyNotFoundException.version(name, version.version()));
    KeyVersionInfo stored = KvVersionFields.decodeInfo(name, version.version(), fields);
    if (stored.type() != version.type()
        || stored.keySizeBits() != version.keySizeBits()
        || !Objects.equals(stored.legacy(), version.legacy())
        || !Objects.equals(stored.fpe(), version.fpe())) {
      throw new IllegalStateException(
          "key '"
              + name
              + "' version "
              + version.version()
              + " in Vault does not match its metadata");
    }
    byte[] material = unwrapped(name, version.version(), fields);
    if (material.length * 8 != stored.keySizeBits()) {
      Arrays.fill(material, (byte) 0);
      throw new IllegalStateException(
          "key '"
              + name
              + "' version "
              + version.version()
              + " in Vault has material of the wrong length");
    }
    // The key ring's cache owns the only copy and overwrites it when the version is evicted.
    return new WipeableSecretKey(material, stored.keyAlgorithm());
  }

  /**
   * Version {@code version}'s bytes from {@code fields}. A blob that does not unwrap (another
   * KEK's, changed, copied from another version's place, raw where wrapped is required) will not
   * unwrap on a retry: {@link KeyMaterialUnusableException} for the caller, saying no more than
   * that, and the details (which KEK, why) in an ERROR line for the operator. A KEK that cannot be
   * reached is the store's unavailable error instead, from the KEK itself.
   */
  private byte[] unwrapped(String name, int version, JsonObject fields) {
    try {
      return this.material.get(
          "key '" + name + "' version " + version, fields, KvMaterial.versionData(name, version));
    } catch (KekUnwrapException e) {
      unwrapFailures.report(name, version, KvMaterial.wrappedBy(fields), e);
      throw new KeyMaterialUnusableException(name, version, e);
    }
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    if (first.info().version() != 1) {
      throw new IllegalArgumentException(
          "a new key's first version must be 1, got " + first.info().version());
    }
    if (!kv.writeVersion(name, /* cas= */ 0, KvVersionFields.encode(name, first, material))) {
      throw new KeyAlreadyExistsException(name);
    }
    // Only the writer that won cas=0 sets the policy, so a losing create never changes the key.
    kv.writeMetadata(name, KvKeySettings.metadataWrite(policy));
    keys.remember(name, first.info());
    return new KeyMetadata(name, List.of(first.info()), policy);
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    if (next.info().version() != expectedCurrentVersion + 1) {
      throw new IllegalArgumentException(
          "key '"
              + name
              + "': the version after "
              + expectedCurrentVersion
              + " is "
              + (expectedCurrentVersion + 1)
              + ", not "
              + next.info().version());
    }
    JsonObject metadata = kv.readMetadata(name).orElseThrow(() -> KeyNotFoundException.key(name));
    if (KvKeys.currentVersion(metadata) == 0) {
      throw KeyNotFoundException.key(name);
    }
    if (!KvKeySettings.keepsAllVersions(metadata)) {
      // A key created by a crashed create, or by hand: keep every version before adding one.
      kv.writeMetadata(name, KvKeySettings.metadataWrite(KvKeySettings.policy(metadata)));
    }
    if (!kv.writeVersion(name, expectedCurrentVersion, KvVersionFields.encode(name, next, material))
        && !isOurs(name, next)) {
      throw new ConcurrentKeyUpdateException(name, expectedCurrentVersion);
    }
    keys.remember(name, next.info());
    KeyMetadata now = readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
    // Another replica may already have added more; report the key as this write left it.
    return new KeyMetadata(
        name, now.versions().subList(0, next.info().version()), now.policy(), now.lifecycle());
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    KeyMetadata now = readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
    kv.writeMetadata(name, KvKeySettings.metadataWrite(policy));
    return now.withPolicy(policy);
  }

  /**
   * Check-and-set on the lifecycle secret's KV version; the winner alone then writes the policy (if
   * {@code next} changes it) and destroys the newly destroyed versions' data in Vault: their
   * wrapped copies, their KV versions ({@link KvKeys#finishDestruction}). A crash before the policy
   * write loses nothing that matters: scheduled versions refuse every call anyway. The lifecycle
   * write lists the newly destroyed versions as {@code destroying} and the list is cleared only
   * after Vault's destroys, so a crash or a Vault error at any point after it is finished by the
   * next read of the key ({@link KvKeys}).
   */
  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    String name = expected.name();
    KvKeys.Snapshot now = keys.read(name).orElseThrow(() -> KeyNotFoundException.key(name));
    List<Integer> erase = LifecycleChange.newlyDestroyed(now.key(), expected, next);
    // The flag is never cleared, whatever the writer read before it was set; the check-and-set
    // below is against the lifecycle secret that says it.
    KeyMetadata written = now.key().exportable() ? next.asExportable() : next;
    Set<Integer> destroying = new TreeSet<>(now.lifecycle().destroying());
    destroying.addAll(erase);
    KvLifecycle stored = writeLifecycle(now, written, destroying, expected.currentVersion());
    if (!next.policy().equals(now.key().policy())) {
      kv.writeMetadata(name, KvKeySettings.metadataWrite(next.policy()));
    }
    if (!erase.isEmpty()) {
      keys.finishDestruction(name, stored, destroying);
    }
    return written;
  }

  /**
   * A check-and-set write of the lifecycle secret with the flag set (so it never races a lifecycle
   * change into losing it); {@link ConcurrentKeyUpdateException} if another writer won.
   */
  @Override
  public KeyMetadata setExportable(String name) {
    KvKeys.Snapshot now = keys.read(name).orElseThrow(() -> KeyNotFoundException.key(name));
    if (now.key().exportable()) {
      return now.key();
    }
    KeyMetadata next = now.key().asExportable();
    writeLifecycle(now, next, now.lifecycle().destroying(), now.key().currentVersion());
    return next;
  }

  /**
   * Writes {@code next} as the lifecycle secret's next KV version, listing {@code destroying}
   * (which includes what {@code now} lists: no writer drops it), check-and-set against the one
   * {@code now} was read from; a write whose answer was lost and whose retry then failed the
   * check-and-set is recognised by its write id. Returns the lifecycle as written; {@link
   * ConcurrentKeyUpdateException} (about {@code expectedVersion}) if another writer won.
   */
  private KvLifecycle writeLifecycle(
      KvKeys.Snapshot now, KeyMetadata next, Set<Integer> destroying, int expectedVersion) {
    String name = now.key().name();
    String writeId = UUID.randomUUID().toString();
    JsonObject data = KvLifecycle.of(next, destroying).encode(writeId);
    if (!kv.writeVersion(KvLifecycle.path(name), now.lifecycle().kvVersion(), data)
        && !writeId.equals(keys.lifecycle(name).writeId())) {
      throw new ConcurrentKeyUpdateException(name, expectedVersion);
    }
    return KvLifecycle.decode(name, new KvClient.Versioned(data, now.lifecycle().kvVersion() + 1));
  }

  /**
   * Version 1 is written with {@code cas=0}, as {@link #createKey} writes it: the restore that wins
   * it owns the name, and any other gets {@link KeyAlreadyExistsException} having stored nothing.
   * The lifecycle secret (states, schedules, destroyed versions' metadata, the exportable flag)
   * follows at once, then the other versions in order, the policy, and Vault's destroy of the
   * destroyed versions' KV data. A destroyed version's KV data is written first as fresh random
   * bytes that nobody knows (KV version N must be key version N), then destroyed; a crash before
   * the destroy is finished by the next read ({@link KvKeys}).
   */
  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    String name = key.name();
    Map<Integer, NewKeyVersion> byNumber = new HashMap<>();
    live.forEach(version -> byNumber.put(version.info().version(), version));
    List<Integer> destroyed = new ArrayList<>();
    for (KeyVersionInfo version : key.versions()) {
      NewKeyVersion written = byNumber.get(version.version());
      boolean placeholder = written == null;
      if (placeholder) {
        destroyed.add(version.version());
        written = new NewKeyVersion(version, NonceSource.bytes(version.keySizeBits() / 8));
      }
      try {
        boolean stored =
            kv.writeVersion(
                name, version.version() - 1, KvVersionFields.encode(name, written, material));
        if (!stored && version.version() == 1) {
          throw new KeyAlreadyExistsException(name);
        }
        if (!stored) {
          throw new ConcurrentKeyUpdateException(name, version.version() - 1);
        }
      } finally {
        if (placeholder) {
          Arrays.fill(written.material(), (byte) 0);
        }
      }
      if (version.version() == 1) {
        String path = KvLifecycle.path(name);
        int lifecycleVersion = kv.readLatest(path).map(KvClient.Versioned::version).orElse(0);
        if (!kv.writeVersion(
            path,
            lifecycleVersion,
            KvLifecycle.of(key, Set.of()).encode(UUID.randomUUID().toString()))) {
          throw new ConcurrentKeyUpdateException(name, 1);
        }
      }
      keys.remember(name, version.withLifecycle(VersionLifecycle.ENABLED));
    }
    kv.writeMetadata(name, KvKeySettings.metadataWrite(key.policy()));
    if (!destroyed.isEmpty()) {
      kv.destroyVersions(name, destroyed);
    }
    return key;
  }

  @Override
  public Map<Integer, VersionUsage> readUsage(String name) {
    return kv.readLatest(KvUsage.path(name))
        .map(latest -> KvUsage.decode(latest.data()))
        .orElse(Map.of());
  }

  /**
   * Adds {@code delta} to the usage secret {@code _usage/<name>} (a folder key names cannot clash
   * with) with check-and-set, re-reading and retrying after a jittered pause when another replica
   * wrote first ({@link KvUsage#CAS_RETRY}).
   */
  @Override
  public Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta) {
    String path = KvUsage.path(name);
    return Failsafe.with(KvUsage.CAS_RETRY).get(() -> addUsageOnce(name, path, delta));
  }

  private Map<Integer, VersionUsage> addUsageOnce(
      String name, String path, Map<Integer, VersionUsage> delta) {
    Optional<KvClient.Versioned> latest = kv.readLatest(path);
    Map<Integer, VersionUsage> merged =
        new HashMap<>(latest.map(l -> KvUsage.decode(l.data())).orElse(Map.of()));
    delta.forEach((version, counts) -> merged.merge(version, counts, VersionUsage::plus));
    if (!kv.writeVersion(
        path, latest.map(KvClient.Versioned::version).orElse(0), KvUsage.encode(merged))) {
      throw new ConcurrentKeyUpdateException(name, 0);
    }
    return Map.copyOf(merged);
  }

  @Override
  public byte[] auditKeyMaterial() {
    return KvAuditKey.readOrCreate(kv, material);
  }

  @Override
  public Optional<AuditHead> readAuditHead(String trail) {
    return auditHeads.read(trail);
  }

  @Override
  public boolean writeAuditHead(AuditHead expected, AuditHead next) {
    return auditHeads.write(expected, next);
  }

  @Override
  public void close() {
    if (material.wraps()) {
      material.kek().close();
      material.alsoUnwraps().forEach(KeyEncryptionKey::close);
    }
    session.close();
  }

  /**
   * Whether {@code next} is already stored: the driver retries a write whose answer was lost (a
   * timeout, a 5xx), and the retry then fails check-and-set against our own first attempt.
   */
  private boolean isOurs(String name, NewKeyVersion next) {
    Optional<JsonObject> stored = kv.readVersion(name, next.info().version());
    if (stored.isEmpty()) {
      return false;
    }
    byte[] material;
    try {
      material =
          this.material.get(
              "key '" + name + "' version " + next.info().version(),
              stored.get(),
              KvMaterial.versionData(name, next.info().version()));
    } catch (KekUnwrapException notOurs) {
      // Another writer's, wrapped by a KEK this server does not read: not our write.
      return false;
    }
    try {
      return MessageDigest.isEqual(material, next.material())
          && KvVersionFields.decodeInfo(name, next.info().version(), stored.get())
              .equals(next.info());
    } finally {
      Arrays.fill(material, (byte) 0);
    }
  }
}
