package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.KeyEncryptionKey;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Secret bytes in a KV secret's fields, as the store's KEK says: {@code material} (base64) without
 * a KEK, or {@code material_wrapped} (the KEK's blob) and {@code kek} (its {@link
 * KeyEncryptionKey#id()}) with one. Both are read while a migration runs, unless {@code
 * requireWrapped}, which refuses {@code material}. Blobs of the KEKs it {@code alsoUnwraps} (the
 * one a {@code cipherd kek rewrap} moves away from) are read too; it writes with its own KEK only.
 *
 * <p>The associated data names what the bytes are ({@link #versionData}, {@link #AUDIT_KEY_DATA}),
 * so a blob copied into another key's or version's place does not unwrap there.
 */
final class KvMaterial {
  static final String MATERIAL = "material";
  static final String WRAPPED = "material_wrapped";
  static final String KEK = "kek";

  /** What the audit key's wrapping is bound to. */
  static final byte[] AUDIT_KEY_DATA = "cipherd audit-key".getBytes(StandardCharsets.UTF_8);

  /** No KEK: material stored as it is. */
  static final KvMaterial UNWRAPPED = new KvMaterial(null, false);

  private final KeyEncryptionKey kek;
  private final Map<String, KeyEncryptionKey> alsoUnwraps;
  private final boolean requireWrapped;

  KvMaterial(KeyEncryptionKey kek, boolean requireWrapped) {
    this(kek, List.of(), requireWrapped);
  }

  KvMaterial(KeyEncryptionKey kek, List<KeyEncryptionKey> alsoUnwraps, boolean requireWrapped) {
    if (kek == null && (requireWrapped || !alsoUnwraps.isEmpty())) {
      throw new IllegalArgumentException("requiring or reading wrapped material needs a KEK");
    }
    this.kek = kek;
    Map<String, KeyEncryptionKey> byId = new LinkedHashMap<>();
    alsoUnwraps.forEach(other -> byId.put(other.id(), other));
    this.alsoUnwraps = Map.copyOf(byId);
    this.requireWrapped = requireWrapped;
  }

  /** What key {@code name} version {@code version}'s wrapping is bound to. */
  static byte[] versionData(String name, int version) {
    return ("cipherd key-version name=" + name + " version=" + version)
        .getBytes(StandardCharsets.UTF_8);
  }

  boolean wraps() {
    return kek != null;
  }

  KeyEncryptionKey kek() {
    return kek;
  }

  /** The other KEKs whose blobs this reads. */
  List<KeyEncryptionKey> alsoUnwraps() {
    return List.copyOf(alsoUnwraps.values());
  }

  /** The same KEKs, with {@code requireWrapped} as given. */
  KvMaterial requiringWrapped(boolean require) {
    return new KvMaterial(kek, alsoUnwraps(), require);
  }

  /**
   * Whether {@code fields} hold material wrapped by this store's KEK at its newest version, which
   * {@code cipherd kek rewrap} leaves as it is.
   */
  boolean isCurrent(JsonObject fields) {
    JsonValue wrapped = fields.get(WRAPPED);
    return kek != null
        && wrapped != null
        && wrapped.isString()
        && stored(fields, KEK).equals(kek.id())
        && kek.isCurrent(wrapped.asString());
  }

  /** The id of the KEK that wrapped {@code fields}' material, or "none" if it is raw. */
  static String wrappedBy(JsonObject fields) {
    return isWrapped(fields) ? stored(fields, KEK) : KekConfig.NONE;
  }

  /** Adds {@code material} to {@code fields}: wrapped with the KEK when there is one. */
  JsonObject put(JsonObject fields, byte[] material, byte[] associatedData) {
    if (kek == null) {
      return fields.add(MATERIAL, Base64.getEncoder().encodeToString(material));
    }
    return fields.add(WRAPPED, kek.wrap(material, associatedData)).add(KEK, kek.id());
  }

  /**
   * {@code fields} with their bytes stored wrapped by the KEK instead of raw or wrapped by another.
   */
  JsonObject wrapped(JsonObject fields, byte[] material, byte[] associatedData) {
    JsonObject copy = new JsonObject();
    for (JsonObject.Member member : fields) {
      String name = member.getName();
      if (!name.equals(MATERIAL) && !name.equals(WRAPPED) && !name.equals(KEK)) {
        copy.add(member.getName(), member.getValue());
      }
    }
    return copy.add(WRAPPED, kek.wrap(material, associatedData)).add(KEK, kek.id());
  }

  static boolean isWrapped(JsonObject fields) {
    return fields.get(WRAPPED) != null;
  }

  /**
   * The bytes {@code fields} hold (the caller wipes them); {@code what} names them in errors, such
   * as "key 'payments' version 3".
   */
  byte[] get(String what, JsonObject fields, byte[] associatedData) {
    JsonValue wrapped = fields.get(WRAPPED);
    if (wrapped != null) {
      if (!wrapped.isString()) {
        throw new KekUnwrapException(what + " in Vault has a " + WRAPPED + " that is no text");
      }
      String by = stored(fields, KEK);
      if (kek == null) {
        throw new KekUnwrapException(
            what
                + " in Vault is wrapped by the key-encryption key "
                + by
                + ", and this server has none (--kek)");
      }
      KeyEncryptionKey unwrapping = by.equals(kek.id()) ? kek : alsoUnwraps.get(by);
      if (unwrapping == null) {
        throw new KekUnwrapException(
            what
                + " in Vault is wrapped by "
                + by
                + ", not by this server's "
                + kek.id()
                + (alsoUnwraps.isEmpty() ? "" : " or " + String.join(", ", alsoUnwraps.keySet())));
      }
      try {
        return unwrapping.unwrap(wrapped.asString(), associatedData);
      } catch (KekUnwrapException e) {
        throw new KekUnwrapException(
            what + " in Vault did not unwrap with " + by + " (changed, or moved from elsewhere)",
            e);
      }
    }
    JsonValue material = fields.get(MATERIAL);
    if (material == null || !material.isString()) {
      throw new IllegalStateException(what + " in Vault has no material");
    }
    if (requireWrapped) {
      throw new KekUnwrapException(
          what
              + " in Vault is stored unwrapped, and --kek-require-wrapped refuses it: run"
              + " `cipherd kek migrate` with this server's --kek options");
    }
    return Base64.getDecoder().decode(material.asString());
  }

  private static String stored(JsonObject fields, String field) {
    JsonValue value = fields.get(field);
    return value != null && value.isString() ? value.asString() : "(unnamed)";
  }
}
