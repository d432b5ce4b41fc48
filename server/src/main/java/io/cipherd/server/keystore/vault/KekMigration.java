package io.cipherd.server.keystore.vault;

import io.github.jopenlibs.vault.json.JsonObject;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code cipherd kek migrate}: wraps, in place, the key material a Vault store keeps raw, with the
 * store's KEK. For each key, each version not destroyed whose KV data holds {@code material}: its
 * fields with the material wrapped are written once ({@code cas=0}) to {@link KvMigratedVersions},
 * read back and unwrapped to the same bytes, then the raw KV version's data is destroyed. The audit
 * key is written wrapped as its secret's next KV version (check-and-set) and the raw versions are
 * destroyed. Versions already wrapped are left as they are.
 *
 * <p>Idempotent and resumable: run again after a crash or an outage, it finishes what was half done
 * (a copy written but its raw data not yet destroyed is checked and the raw data destroyed).
 * Servers keep serving while it runs, reading raw and wrapped material alike; it prints counts and
 * key names, never material.
 */
public final class KekMigration {
  private final KvClient kv;
  private final KvKeys keys;
  private final KvMaterial material;

  KekMigration(KvClient kv, KvKeys keys, KvMaterial material) {
    this.kv = kv;
    this.keys = keys;
    this.material = material;
  }

  /**
   * What one run did.
   *
   * @param keys keys walked
   * @param wrapped versions whose raw material this run wrapped (and destroyed raw)
   * @param alreadyWrapped versions found wrapped
   * @param destroyed versions destroyed by their lifecycle, which have no material
   * @param auditKeyWrapped whether this run wrapped the audit key (false: wrapped already, or none)
   */
  public record Counts(
      int keys, int wrapped, int alreadyWrapped, int destroyed, boolean auditKeyWrapped) {}

  /**
   * Migrates every key and the audit key, printing a line per key and the totals to {@code out}.
   */
  public Counts run(PrintStream out) {
    List<String> names = new ArrayList<>(kv.listNames());
    names.sort(Comparator.naturalOrder());
    int wrapped = 0;
    int already = 0;
    int destroyed = 0;
    for (String name : names) {
      Counts one = migrateKey(name);
      out.printf(
          "key '%s': %d wrapped now, %d already wrapped, %d destroyed%n",
          name, one.wrapped(), one.alreadyWrapped(), one.destroyed());
      wrapped += one.wrapped();
      already += one.alreadyWrapped();
      destroyed += one.destroyed();
    }
    boolean audit = migrateAuditKey();
    out.printf(
        "audit key: %s%n",
        audit ? "wrapped now" : KvAuditKey.read(kv, material).isPresent() ? "wrapped" : "none yet");
    Counts total = new Counts(names.size(), wrapped, already, destroyed, audit);
    out.printf(
        "%d keys: %d versions wrapped now, %d already wrapped, %d destroyed; with %s%n",
        total.keys(),
        total.wrapped(),
        total.alreadyWrapped(),
        total.destroyed(),
        material.kek().id());
    return total;
  }

  private Counts migrateKey(String name) {
    Optional<JsonObject> metadata = kv.readMetadata(name);
    int current = metadata.map(KvKeys::currentVersion).orElse(0);
    KvLifecycle lifecycle = keys.lifecycle(name);
    int wrapped = 0;
    int already = 0;
    int destroyed = 0;
    for (int version = 1; version <= current; version++) {
      if (lifecycle.isDestroyed(version)) {
        // A destruction that crashed between its lifecycle write and deleting the copy.
        KvMigratedVersions.destroy(kv, name, List.of(version));
        destroyed++;
        continue;
      }
      Optional<JsonObject> fields = kv.readVersion(name, version);
      if (fields.isPresent() && !KvMaterial.isWrapped(fields.get())) {
        migrateVersion(name, version, fields.get());
        wrapped++;
      } else if (fields.isPresent()
          || kv.readLatest(KvMigratedVersions.path(name, version)).isPresent()) {
        already++;
      } else {
        throw new IllegalStateException(
            "key '" + name + "' version " + version + " is missing from Vault");
      }
    }
    return new Counts(1, wrapped, already, destroyed, false);
  }

  private void migrateVersion(String name, int version, JsonObject fields) {
    String what = "key '" + name + "' version " + version;
    byte[] associatedData = KvMaterial.versionData(name, version);
    byte[] raw = material.get(what, fields, associatedData);
    try {
      String path = KvMigratedVersions.path(name, version);
      // False: an earlier run (or another migrator) wrote the copy; it is checked below either way.
      kv.writeVersion(path, 0, material.wrapped(fields, raw, associatedData));
      KvMigratedVersions.checkCopy(
          kv, material, what, "wrapped copy", name, version, fields, raw, "; left raw");
      kv.destroyVersions(name, List.of(version));
    } finally {
      Arrays.fill(raw, (byte) 0);
    }
    if (keys.lifecycle(name).isDestroyed(version)) {
      // Destroyed while this ran: the destruction may have looked for the copy before it was
      // written.
      KvMigratedVersions.destroy(kv, name, List.of(version));
    }
  }

  /** Wraps the audit key in place; false when there is none or it is wrapped already. */
  private boolean migrateAuditKey() {
    Optional<KvClient.Versioned> latest = kv.readLatest(KvAuditKey.PATH);
    if (latest.isEmpty()) {
      return false;
    }
    boolean wrappedNow = false;
    int newest = latest.get().version();
    if (!KvMaterial.isWrapped(latest.get().data())) {
      byte[] raw = KvAuditKey.decode(latest.get().data(), material);
      try {
        if (!kv.writeVersion(
            KvAuditKey.PATH,
            newest,
            material.wrapped(latest.get().data(), raw, KvMaterial.AUDIT_KEY_DATA))) {
          throw new IllegalStateException(
              "the audit key changed while it was being wrapped; run the migration again");
        }
      } finally {
        Arrays.fill(raw, (byte) 0);
      }
      newest++;
      wrappedNow = true;
    }
    byte[] check = KvAuditKey.read(kv, material).orElseThrow();
    Arrays.fill(check, (byte) 0);
    if (newest > 1) {
      kv.destroyVersions(KvAuditKey.PATH, KvMigratedVersions.upTo(newest - 1));
    }
    return wrappedNow;
  }
}
