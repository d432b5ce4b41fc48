package io.cipherd.server.keystore.vault;

import io.github.jopenlibs.vault.json.JsonObject;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Key versions whose raw KV data {@code cipherd kek migrate} destroyed: KV v2 cannot rewrite an old
 * version in place, so the migration writes each version's fields, its material wrapped, to the KV
 * secret {@code <prefix>/_kek/<name>/<version>} (once, {@code cas=0}), checks that it unwraps to
 * the same bytes, then destroys the raw KV version's data. The KV version's metadata stays (the
 * key's version numbers are KV's), marked destroyed; versions written with a KEK configured are
 * wrapped in the key's own KV version and never copied here, until {@code cipherd kek rewrap}
 * rewraps them: it writes the rewrapped fields here too (the copy's next KV version,
 * check-and-set), then destroys the data it replaced (the key's KV version, or the copy's older
 * versions). A version's fields are therefore its key's KV version while that has data, else the
 * newest version of its copy.
 *
 * <p>Destroying a key version destroys its copy here too: the data of every KV version of it, as KV
 * v2's destroy does for the key's own versions. The copy's KV metadata stays, marked destroyed,
 * with no data: deleting it would take {@code delete} on the metadata path, which cipherd's Vault
 * policy withholds so that its token can never remove a key ({@code
 * deploy/vault/cipherd-policy.hcl}). The lifecycle write that destroys a version lists it until the
 * copy and the KV data are destroyed, so a destruction interrupted at any point is finished by the
 * next read of the key ({@link KvKeys}); no wrapped copy outlives a destruction.
 */
final class KvMigratedVersions {
  private KvMigratedVersions() {}

  static String path(String name, int version) {
    return "_kek/" + name + "/" + version;
  }

  /**
   * Version {@code version}'s fields: its KV version's data, else its migrated copy; empty if
   * neither exists.
   */
  static Optional<JsonObject> read(KvClient kv, String name, int version) {
    Optional<JsonObject> fields = kv.readVersion(name, version);
    if (fields.isPresent()) {
      return fields;
    }
    return kv.readLatest(path(name, version)).map(KvClient.Versioned::data);
  }

  /** The newest version of version {@code version}'s copy, if it has one. */
  static Optional<KvClient.Versioned> latestCopy(KvClient kv, String name, int version) {
    return kv.readLatest(path(name, version));
  }

  /**
   * Reads back the copy just written for version {@code version} ({@code kind}: "wrapped copy",
   * "rewrapped copy") and checks that it unwraps to {@code bytes} and describes the same version as
   * {@code fields}, the data it replaces; throws {@link IllegalStateException} naming {@code what}
   * and ending with {@code otherwise} when not, before anything is destroyed.
   */
  static void checkCopy(
      KvClient kv,
      KvMaterial material,
      String what,
      String kind,
      String name,
      int version,
      JsonObject fields,
      byte[] bytes,
      String otherwise) {
    String path = path(name, version);
    JsonObject copy =
        latestCopy(kv, name, version)
            .orElseThrow(() -> new IllegalStateException(what + ": its " + kind + " is gone"))
            .data();
    byte[] back =
        material.get(what + " (" + kind + ")", copy, KvMaterial.versionData(name, version));
    try {
      if (!MessageDigest.isEqual(bytes, back)
          || !KvVersionFields.decodeInfo(name, version, copy)
              .equals(KvVersionFields.decodeInfo(name, version, fields))) {
        throw new IllegalStateException(
            what + ": its " + kind + " at " + path + " is not the same version" + otherwise);
      }
    } finally {
      Arrays.fill(back, (byte) 0);
    }
  }

  /**
   * Destroys the data of every KV version of the copies of {@code versions} (a migration writes
   * version 1, each rewrap one more): one metadata read per version, and a destroy for each that
   * has a copy; destroying a copy that does not exist, or again, is a no-op.
   */
  static void destroy(KvClient kv, String name, List<Integer> versions) {
    for (int version : versions) {
      String path = path(name, version);
      int newest = kv.readMetadata(path).map(KvKeys::currentVersion).orElse(0);
      if (newest > 0) {
        kv.destroyVersions(path, upTo(newest));
      }
    }
  }

  /** 1 to {@code last}. */
  static List<Integer> upTo(int last) {
    return IntStream.rangeClosed(1, last).boxed().toList();
  }
}
