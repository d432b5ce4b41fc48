package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.KeyEncryptionKey;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Secret bytes in a KV secret's fields, as the store's KEK says: {@code material} (base64) without
 * a KEK, or {@code material_wrapped} (the KEK's blob) and {@code kek} (its {@link
 * KeyEncryptionKey#id()}) with one. Both are read while a migration runs, unless {@code
 * requireWrapped}, which refuses {@code material}.
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
  private final boolean requireWrapped;

  KvMaterial(KeyEncryptionKey kek, boolean requireWrapped) {
    if (kek == null && requireWrapped) {
      throw new IllegalArgumentException("requiring wrapped material needs a KEK");
    }
    this.kek = kek;
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

  /** Adds {@code material} to {@code fields}: wrapped with the KEK when there is one. */
  JsonObject put(JsonObject fields, byte[] material, byte[] associatedData) {
    if (kek == null) {
      return fields.add(MATERIAL, Base64.getEncoder().encodeToString(material));
    }
    return fields.add(WRAPPED, kek.wrap(material, associatedData)).add(KEK, kek.id());
  }

  /** {@code fields} with their bytes stored wrapped by the KEK instead of raw. */
  JsonObject wrapped(JsonObject fields, byte[] material, byte[] associatedData) {
    JsonObject copy = new JsonObject();
    for (JsonObject.Member member : fields) {
      if (!member.getName().equals(MATERIAL)) {
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
        throw new IllegalStateException(what + " in Vault has a " + WRAPPED + " that is no text");
      }
      if (kek == null) {
        throw new IllegalStateException(
            what
                + " in Vault is wrapped by the key-encryption key "
                + stored(fields, KEK)
                + ", and this server has none (--kek)");
      }
      String by = stored(fields, KEK);
      if (!by.equals(kek.id())) {
        throw new KekUnwrapException(
            what + " in Vault is wrapped by " + by + ", not by this server's " + kek.id());
      }
      try {
        return kek.unwrap(wrapped.asString(), associatedData);
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
      throw new IllegalStateException(
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
