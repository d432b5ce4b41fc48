package io.cipherd.server.keystore.pkcs12;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.legacy.IvConvention;
import io.cipherd.server.crypto.legacy.LegacyCipher;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.VersionLifecycle;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The JSON of lifecycles and of a destroyed version's metadata in {@code keys.json}: the same
 * fields a live version keeps as PKCS12 entry attributes ({@link VersionEntries}), which go with
 * the entry when the version's bytes are erased. Malformed input throws {@link
 * IllegalArgumentException} saying which field.
 */
final class VersionInfoJson {
  private VersionInfoJson() {}

  static JsonObject keyLifecycle(KeyLifecycle lifecycle) {
    JsonObject o = new JsonObject();
    o.addProperty("state", lifecycle.state().name());
    if (lifecycle.deleteTime() != null) {
      o.addProperty("delete_time", lifecycle.deleteTime().toString());
    }
    return o;
  }

  static KeyLifecycle keyLifecycle(JsonObject o) {
    KeyLifecycle.State state = state(KeyLifecycle.State.class, string(o, "state"));
    try {
      return new KeyLifecycle(state, optionalInstant(o, "delete_time"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("key lifecycle: " + e.getMessage(), e);
    }
  }

  /** A version's lifecycle; for a destroyed one, with its metadata under {@code "metadata"}. */
  static JsonObject version(VersionLifecycle lifecycle, KeyVersionInfo destroyed) {
    JsonObject o = new JsonObject();
    o.addProperty("state", lifecycle.state().name());
    o.addProperty("destroy_time", lifecycle.destroyTime().toString());
    if (destroyed != null) {
      o.add("metadata", info(destroyed));
    }
    return o;
  }

  static VersionLifecycle versionLifecycle(JsonObject o) {
    VersionLifecycle.State state = state(VersionLifecycle.State.class, string(o, "state"));
    try {
      return new VersionLifecycle(state, optionalInstant(o, "destroy_time"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("version lifecycle: " + e.getMessage(), e);
    }
  }

  private static JsonObject info(KeyVersionInfo info) {
    JsonObject o = new JsonObject();
    o.addProperty("type", info.type().typeName());
    o.addProperty("key_size_bits", info.keySizeBits());
    o.addProperty("created_at", info.createdAt().toString());
    o.addProperty("imported", info.imported());
    if (info.isLegacy()) {
      JsonObject legacy = new JsonObject();
      legacy.addProperty("cipher", info.legacy().cipher().storeName());
      legacy.addProperty("iv", info.legacy().iv().storeName());
      if (info.legacy().iv() == IvConvention.FIXED) {
        legacy.addProperty("fixed_iv", HexFormat.of().formatHex(info.legacy().fixedIv()));
      }
      o.add("legacy", legacy);
    }
    if (info.fpe() != null) {
      o.addProperty("fpe_format", info.fpe().storeText());
    }
    if (info.isTransitDerived()) {
      o.addProperty("transit_kdf", info.transitKdf().storeName());
    }
    return o;
  }

  /** Version {@code number}'s metadata from {@code o}, in {@code lifecycle}. */
  static KeyVersionInfo info(int number, JsonObject o, VersionLifecycle lifecycle) {
    KeyType type = KeyType.fromName(string(o, "type"));
    if (type == null) {
      throw new IllegalArgumentException("unknown type '" + string(o, "type") + "'");
    }
    JsonElement imported = o.get("imported");
    if (imported == null
        || !imported.isJsonPrimitive()
        || !imported.getAsJsonPrimitive().isBoolean()) {
      throw new IllegalArgumentException("imported must be true or false");
    }
    JsonElement bits = o.get("key_size_bits");
    if (bits == null || !bits.isJsonPrimitive() || !((JsonPrimitive) bits).isNumber()) {
      throw new IllegalArgumentException("key_size_bits must be a number");
    }
    return new KeyVersionInfo(
        number,
        type,
        bits.getAsInt(),
        instant(string(o, "created_at"), "created_at"),
        imported.getAsBoolean(),
        type == KeyType.LEGACY ? legacy(o.getAsJsonObject("legacy")) : null,
        lifecycle,
        type == KeyType.FF1 ? FpeFormat.fromStoreText(string(o, "fpe_format")) : null,
        o.has("transit_kdf") ? transitKdf(string(o, "transit_kdf")) : null);
  }

  private static TransitKdf transitKdf(String name) {
    TransitKdf kdf = TransitKdf.fromStoreName(name);
    if (kdf == null) {
      throw new IllegalArgumentException("unknown transit_kdf '" + name + "'");
    }
    return kdf;
  }

  private static LegacyFormat legacy(JsonObject o) {
    if (o == null) {
      throw new IllegalArgumentException("a legacy version needs its legacy object");
    }
    LegacyCipher cipher = LegacyCipher.fromStoreName(string(o, "cipher"));
    IvConvention iv = IvConvention.fromStoreName(string(o, "iv"));
    if (cipher == null || iv == null) {
      throw new IllegalArgumentException(
          "unknown legacy cipher '" + string(o, "cipher") + "' or iv '" + string(o, "iv") + "'");
    }
    JsonElement fixed = o.get("fixed_iv");
    return LegacyFormat.of(
        cipher, iv, fixed == null ? null : HexFormat.of().parseHex(fixed.getAsString()));
  }

  private static <E extends Enum<E>> E state(Class<E> type, String name) {
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown state '" + name + "'", e);
    }
  }

  private static Instant optionalInstant(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e == null || e.isJsonNull() ? null : instant(e.getAsString(), field);
  }

  private static Instant instant(String text, String field) {
    try {
      return Instant.parse(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(field + " is not an ISO-8601 instant: " + text, e);
    }
  }

  private static String string(JsonObject o, String field) {
    JsonElement e = o.get(field);
    if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
      throw new IllegalArgumentException(field + " must be a string");
    }
    return e.getAsString();
  }
}
