package io.cipherd.server.keystore.vault;

import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.legacy.IvConvention;
import io.cipherd.server.crypto.legacy.LegacyCipher;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.VersionLifecycle;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The fields of one KV version, which holds one key version: {@code algorithm}, {@code mode},
 * {@code key_size_bits}, {@code created} (ISO-8601), {@code imported} and the material, as {@link
 * KvMaterial} stores it ({@code material}, base64, or {@code material_wrapped} and {@code kek} with
 * a key-encryption key). A legacy version (mode {@code legacy}) adds {@code legacy_cipher} (e.g.
 * {@code aes-cbc}), {@code legacy_iv} ({@code none}, {@code prepended}, {@code separate} or {@code
 * fixed}) and, for a fixed IV, {@code legacy_fixed_iv} (hex). A format-preserving version (mode
 * {@code ff1}) adds {@code fpe_format}, as {@code FpeFormat.storeText} writes it. A version
 * imported from a derived Vault Transit key adds {@code transit_kdf}, Transit's name of its KDF
 * ({@code hkdf_sha256} or {@code hmac-sha256-counter}).
 */
final class KvVersionFields {
  static final String ALGORITHM = "algorithm";
  static final String MODE = "mode";
  static final String KEY_SIZE_BITS = "key_size_bits";
  static final String CREATED = "created";
  static final String IMPORTED = "imported";
  static final String LEGACY_CIPHER = "legacy_cipher";
  static final String LEGACY_IV = "legacy_iv";
  static final String LEGACY_FIXED_IV = "legacy_fixed_iv";
  static final String FPE_FORMAT = "fpe_format";
  static final String TRANSIT_KDF = "transit_kdf";

  private KvVersionFields() {}

  /**
   * The JSON object written as the KV version's data, its material as {@code material} stores it.
   */
  static JsonObject encode(String name, NewKeyVersion version, KvMaterial material) {
    return material.put(
        encodeInfo(version.info()),
        version.material(),
        KvMaterial.versionData(name, version.info().version()));
  }

  /**
   * The version's fields without its bytes: what the lifecycle secret keeps of a destroyed version.
   */
  static JsonObject encodeInfo(KeyVersionInfo info) {
    JsonObject fields =
        Json.object()
            .add(ALGORITHM, info.keyAlgorithm())
            .add(MODE, info.type().typeName())
            .add(KEY_SIZE_BITS, info.keySizeBits())
            .add(CREATED, info.createdAt().toString())
            .add(IMPORTED, info.imported());
    if (info.isLegacy()) {
      fields
          .add(LEGACY_CIPHER, info.legacy().cipher().storeName())
          .add(LEGACY_IV, info.legacy().iv().storeName());
      if (info.legacy().iv() == IvConvention.FIXED) {
        fields.add(LEGACY_FIXED_IV, HexFormat.of().formatHex(info.legacy().fixedIv()));
      }
    }
    if (info.fpe() != null) {
      fields.add(FPE_FORMAT, info.fpe().storeText());
    }
    if (info.isTransitDerived()) {
      fields.add(TRANSIT_KDF, info.transitKdf().storeName());
    }
    return fields;
  }

  /**
   * The version's metadata; throws {@link IllegalStateException} naming the field that is wrong.
   */
  static KeyVersionInfo decodeInfo(String name, int version, JsonObject data) {
    try {
      KeyType type = KeyType.fromName(string(data, MODE));
      int bits = data.get(KEY_SIZE_BITS).asInt();
      Instant created = Instant.parse(string(data, CREATED));
      boolean imported = data.get(IMPORTED).asBoolean();
      return new KeyVersionInfo(
          version,
          type,
          bits,
          created,
          imported,
          type == KeyType.LEGACY ? legacy(data) : null,
          VersionLifecycle.ENABLED,
          type == KeyType.FF1 ? FpeFormat.fromStoreText(string(data, FPE_FORMAT)) : null,
          data.get(TRANSIT_KDF) == null ? null : transitKdf(string(data, TRANSIT_KDF)));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "KV version "
              + version
              + " of key '"
              + name
              + "' in Vault is not a cipherd key version (fields "
              + data.names()
              + ")",
          e);
    }
  }

  private static TransitKdf transitKdf(String name) {
    TransitKdf kdf = TransitKdf.fromStoreName(name);
    if (kdf == null) {
      throw new IllegalArgumentException("unknown " + TRANSIT_KDF);
    }
    return kdf;
  }

  private static LegacyFormat legacy(JsonObject data) {
    LegacyCipher cipher = LegacyCipher.fromStoreName(string(data, LEGACY_CIPHER));
    IvConvention iv = IvConvention.fromStoreName(string(data, LEGACY_IV));
    if (cipher == null || iv == null) {
      throw new IllegalArgumentException("unknown " + LEGACY_CIPHER + " or " + LEGACY_IV);
    }
    JsonValue fixedIv = data.get(LEGACY_FIXED_IV);
    return LegacyFormat.of(
        cipher,
        iv,
        fixedIv == null ? null : HexFormat.of().parseHex(string(data, LEGACY_FIXED_IV)));
  }

  private static String string(JsonObject data, String field) {
    JsonValue value = data.get(field);
    if (value == null || !value.isString()) {
      throw new IllegalArgumentException("missing " + field);
    }
    return value.asString();
  }
}
