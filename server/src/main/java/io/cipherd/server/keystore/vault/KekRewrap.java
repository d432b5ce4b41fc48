package io.cipherd.server.keystore.vault;

import io.github.jopenlibs.vault.json.JsonObject;
import java.io.PrintStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code cipherd kek rewrap}: rewraps every wrapped blob the Vault store keeps (each key version
 * not destroyed, the audit key) that is not wrapped by the store's KEK at its newest version: after
 * a rotation of the Transit key (older {@code vault:vN:} blobs), or when moving from another KEK
 * named by {@code --kek-also-unwrap} (Transit key A to Transit key B, Transit to PKCS#11). Each
 * blob is unwrapped with the KEK that made it and wrapped with the store's own, bound to the same
 * associated data.
 *
 * <p>Not Transit's own {@code rewrap} endpoint, though it would keep the bytes inside Vault: up to
 * Vault 1.21 it ignores {@code associated_data}, and every cipherd blob is bound to what it holds,
 * so Transit cannot decrypt them there ({@code KekRewrapVaultTest} checks that this still holds).
 *
 * <p>KV v2 cannot rewrite a version in place, so the rewrapped fields go to the version's copy
 * {@code <prefix>/_kek/<name>/<version>} as its next KV version (check-and-set), are read back and
 * unwrapped to the same bytes, and only then is the data they replace destroyed: the key's own KV
 * version, or the copy's older versions ({@link KvMigratedVersions}). Idempotent (a blob already
 * current is left alone, so a second run rewraps nothing) and resumable (a run stopped half-way
 * leaves every version readable; the next finishes). Raw material is left to {@code cipherd kek
 * migrate} and counted. It prints key names and counts, never material.
 */
public final class KekRewrap {
  private final KvClient kv;
  private final KvKeys keys;
  private final KvMaterial material;

  KekRewrap(KvClient kv, KvKeys keys, KvMaterial material) {
    this.kv = kv;
    this.keys = keys;
    this.material = material;
  }

  /**
   * What one run did.
   *
   * @param keys keys walked
   * @param rewrapped versions this run rewrapped
   * @param current versions found wrapped by the store's KEK at its newest version
   * @param raw versions stored unwrapped, left to {@code cipherd kek migrate}
   * @param destroyed versions destroyed by their lifecycle, which have no material
   * @param auditKeyRewrapped whether this run rewrapped the audit key
   */
  public record Counts(
      int keys, int rewrapped, int current, int raw, int destroyed, boolean auditKeyRewrapped) {
    Counts plus(Counts other) {
      return new Counts(
          keys + other.keys,
          rewrapped + other.rewrapped,
          current + other.current,
          raw + other.raw,
          destroyed + other.destroyed,
          auditKeyRewrapped || other.auditKeyRewrapped);
    }
  }

  /** Rewraps every key and the audit key, printing a line per key and the totals to {@code out}. */
  public Counts run(PrintStream out) {
    List<String> names = new ArrayList<>(kv.listNames());
    names.sort(Comparator.naturalOrder());
    Counts total = new Counts(0, 0, 0, 0, 0, false);
    for (String name : names) {
      Counts one = rewrapKey(name);
      out.printf(
          "key '%s': %d rewrapped now, %d current, %d raw, %d destroyed%n",
          name, one.rewrapped(), one.current(), one.raw(), one.destroyed());
      total = total.plus(one);
    }
    String audit = rewrapAuditKey();
    out.printf("audit key: %s%n", audit);
    total = total.plus(new Counts(0, 0, 0, 0, 0, audit.equals("rewrapped now")));
    out.printf(
        "%d keys: %d versions rewrapped now, %d current, %d raw, %d destroyed; with %s%n",
        total.keys(),
        total.rewrapped(),
        total.current(),
        total.raw(),
        total.destroyed(),
        material.kek().id());
    if (total.raw() > 0) {
      out.printf(
          "%d versions are stored unwrapped: run `cipherd kek migrate` with the same options%n",
          total.raw());
    }
    return total;
  }

  private Counts rewrapKey(String name) {
    int newest = kv.readMetadata(name).map(KvKeys::currentVersion).orElse(0);
    KvLifecycle lifecycle = keys.lifecycle(name);
    int rewrapped = 0;
    int current = 0;
    int raw = 0;
    int destroyed = 0;
    for (int version = 1; version <= newest; version++) {
      if (lifecycle.isDestroyed(version)) {
        // A destruction that crashed between its lifecycle write and deleting the copy.
        KvMigratedVersions.destroy(kv, name, List.of(version));
        destroyed++;
        continue;
      }
      switch (rewrapVersion(name, version)) {
        case REWRAPPED -> rewrapped++;
        case CURRENT -> current++;
        case RAW -> raw++;
      }
    }
    return new Counts(1, rewrapped, current, raw, destroyed, false);
  }

  private enum Outcome {
    REWRAPPED,
    CURRENT,
    RAW
  }

  private Outcome rewrapVersion(String name, int version) {
    String what = "key '" + name + "' version " + version;
    String copyPath = KvMigratedVersions.path(name, version);
    Optional<JsonObject> own = kv.readVersion(name, version);
    Optional<KvClient.Versioned> copy = KvMigratedVersions.latestCopy(kv, name, version);
    JsonObject fields =
        own.or(() -> copy.map(KvClient.Versioned::data))
            .orElseThrow(() -> new IllegalStateException(what + " is missing from Vault"));
    int copyVersion = copy.map(KvClient.Versioned::version).orElse(0);
    if (!KvMaterial.isWrapped(fields)) {
      return Outcome.RAW;
    }
    if (material.isCurrent(fields)) {
      if (own.isEmpty() && copyVersion > 1) {
        // A run that stopped after writing the copy and before destroying what it replaced.
        kv.destroyVersions(copyPath, KvMigratedVersions.upTo(copyVersion - 1));
      }
      return Outcome.CURRENT;
    }
    byte[] associatedData = KvMaterial.versionData(name, version);
    byte[] bytes = material.get(what, fields, associatedData);
    try {
      if (!kv.writeVersion(
          copyPath, copyVersion, material.wrapped(fields, bytes, associatedData))) {
        throw new IllegalStateException(
            what + " was rewrapped by someone else meanwhile; run `cipherd kek rewrap` again");
      }
      KvMigratedVersions.checkCopy(
          kv, material, what, "rewrapped copy", name, version, fields, bytes, "");
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
    if (own.isPresent()) {
      kv.destroyVersions(name, List.of(version));
    }
    if (copyVersion > 0) {
      kv.destroyVersions(copyPath, KvMigratedVersions.upTo(copyVersion));
    }
    if (keys.lifecycle(name).isDestroyed(version)) {
      // Destroyed while this ran: the destruction may have read the copy before it was written.
      KvMigratedVersions.destroy(kv, name, List.of(version));
    }
    return Outcome.REWRAPPED;
  }

  /** "rewrapped now", "current", "raw (run `cipherd kek migrate`)" or "none yet". */
  private String rewrapAuditKey() {
    Optional<KvClient.Versioned> latest = kv.readLatest(KvAuditKey.PATH);
    if (latest.isEmpty()) {
      return "none yet";
    }
    JsonObject fields = latest.get().data();
    if (!KvMaterial.isWrapped(fields)) {
      return "raw (run `cipherd kek migrate`)";
    }
    int newest = latest.get().version();
    String outcome = "current";
    if (!material.isCurrent(fields)) {
      byte[] bytes = KvAuditKey.decode(fields, material);
      try {
        if (!kv.writeVersion(
            KvAuditKey.PATH, newest, material.wrapped(fields, bytes, KvMaterial.AUDIT_KEY_DATA))) {
          throw new IllegalStateException(
              "the audit key changed while it was being rewrapped; run `cipherd kek rewrap` again");
        }
        byte[] back = KvAuditKey.read(kv, material).orElseThrow();
        try {
          if (!MessageDigest.isEqual(bytes, back)) {
            throw new IllegalStateException("the rewrapped audit key does not read back the same");
          }
        } finally {
          Arrays.fill(back, (byte) 0);
        }
      } finally {
        Arrays.fill(bytes, (byte) 0);
      }
      newest++;
      outcome = "rewrapped now";
    }
    if (newest > 1) {
      kv.destroyVersions(KvAuditKey.PATH, KvMigratedVersions.upTo(newest - 1));
    }
    return outcome;
  }
}
