package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.legacy.IvConvention;
import io.cipherd.server.crypto.legacy.LegacyCipher;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.VersionLifecycle;
import java.security.KeyStore.Entry.Attribute;
import java.security.PKCS12Attribute;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;

/**
 * How one key version is laid out as a PKCS12 secret-key entry: alias {@code NAME/vVERSION}, the
 * version's metadata as entry attributes, and the raw bytes as the key.
 *
 * <p>The metadata rides on the entry itself so that adding a version is a single file write.
 * Attribute OIDs live under {@code 2.25.<uuid>} (ITU-T X.667), an arc that needs no registration.
 */
final class VersionEntries {
  /**
   * {@code 2.25.} + the integer of UUID d971bebc-6e98-4677-99f2-b41109561c36, cipherd's own arc.
   */
  private static final String ARC = "2.25.289033073217287867018064949388357540918";

  private static final String MODE = ARC + ".1";
  private static final String KEY_SIZE_BITS = ARC + ".2";
  private static final String CREATED_AT = ARC + ".3";
  private static final String IMPORTED = ARC + ".4";

  /**
   * A legacy version's cipher and IV convention (their store names), and its fixed IV (hex) if it
   * has one.
   */
  private static final String LEGACY_CIPHER = ARC + ".5";

  private static final String LEGACY_IV = ARC + ".6";
  private static final String LEGACY_FIXED_IV = ARC + ".7";

  /** A format-preserving version's format, as {@code FpeFormat.storeText} writes it. */
  private static final String FPE_FORMAT = ARC + ".8";

  /** The KDF of a version imported from a derived Vault Transit key, by Transit's name. */
  private static final String TRANSIT_KDF = ARC + ".9";

  /**
   * id-alg-AEADChaCha20Poly1305 (RFC 8103). PKCS12 records each key's algorithm as an OID and the
   * JDK knows none for the name "ChaCha20", so ChaCha keys are stored under this OID instead.
   */
  private static final String CHACHA_STORAGE_ALGORITHM = "1.2.840.113549.1.9.16.3.18";

  private static final String CHACHA_KEY_ALGORITHM = "ChaCha20";

  private static final Pattern ALIAS =
      Pattern.compile("(" + EnvelopeHeader.KEY_NAME_SYNTAX + ")/v([1-9][0-9]{0,8})");

  private VersionEntries() {}

  /** The alias of a version, e.g. {@code payments/v3}. */
  static String alias(String name, int version) {
    return name + "/v" + version;
  }

  /** An alias split into key name and version, or null if it is not {@code NAME/vVERSION}. */
  static Alias parseAlias(String alias) {
    Matcher m = ALIAS.matcher(alias);
    return m.matches() ? new Alias(m.group(1), Integer.parseInt(m.group(2))) : null;
  }

  /** A parsed alias. */
  record Alias(String name, int version) {}

  /** The key object that holds {@code material} in the file. */
  static SecretKeySpec storedKey(KeyVersionInfo info, byte[] material) {
    String algorithm =
        CHACHA_KEY_ALGORITHM.equals(info.keyAlgorithm())
            ? CHACHA_STORAGE_ALGORITHM
            : info.keyAlgorithm();
    return new SecretKeySpec(material, algorithm);
  }

  /** The version's metadata as entry attributes. */
  static Set<Attribute> attributes(KeyVersionInfo info) {
    Set<Attribute> attributes = new HashSet<>();
    // Plain strings only: PKCS12Attribute would read "ab:cd"-like or "[..]" values as hex or lists.
    attributes.add(new PKCS12Attribute(MODE, info.type().typeName()));
    attributes.add(new PKCS12Attribute(KEY_SIZE_BITS, Integer.toString(info.keySizeBits())));
    attributes.add(new PKCS12Attribute(CREATED_AT, info.createdAt().toString()));
    attributes.add(new PKCS12Attribute(IMPORTED, Boolean.toString(info.imported())));
    if (info.isLegacy()) {
      attributes.add(new PKCS12Attribute(LEGACY_CIPHER, info.legacy().cipher().storeName()));
      attributes.add(new PKCS12Attribute(LEGACY_IV, info.legacy().iv().storeName()));
      if (info.legacy().iv() == IvConvention.FIXED) {
        // Hex of 8 bytes or more: never the "ab" or "ab:cd" form PKCS12Attribute would read as DER.
        attributes.add(
            new PKCS12Attribute(
                LEGACY_FIXED_IV, HexFormat.of().formatHex(info.legacy().fixedIv())));
      }
    }
    if (info.fpe() != null) {
      // "template=…" or "alphabet=<base64url>;…": never a hex pair list or a bracketed list.
      attributes.add(new PKCS12Attribute(FPE_FORMAT, info.fpe().storeText()));
    }
    if (info.isTransitDerived()) {
      // "hkdf_sha256" or "hmac-sha256-counter": never hex pairs or a bracketed list.
      attributes.add(new PKCS12Attribute(TRANSIT_KDF, info.transitKdf().storeName()));
    }
    return attributes;
  }

  /**
   * Reads a version's metadata back from its entry's attributes; throws {@link
   * IllegalArgumentException} saying what is missing or malformed.
   */
  static KeyVersionInfo info(int version, Set<Attribute> attributes) {
    Map<String, String> values = new HashMap<>();
    for (Attribute a : attributes) {
      values.put(a.getName(), a.getValue());
    }
    KeyType type = KeyType.fromName(required(values, MODE, "mode"));
    if (type == null) {
      throw new IllegalArgumentException("unknown mode attribute '" + values.get(MODE) + "'");
    }
    String bits = required(values, KEY_SIZE_BITS, "key size");
    String created = required(values, CREATED_AT, "creation time");
    String imported = required(values, IMPORTED, "imported flag");
    if (!imported.equals("true") && !imported.equals("false")) {
      throw new IllegalArgumentException(
          "imported attribute is '" + imported + "', not true or false");
    }
    try {
      return new KeyVersionInfo(
          version,
          type,
          Integer.parseInt(bits),
          Instant.parse(created),
          Boolean.parseBoolean(imported),
          type == KeyType.LEGACY ? legacy(values) : null,
          VersionLifecycle.ENABLED,
          type == KeyType.FF1
              ? FpeFormat.fromStoreText(required(values, FPE_FORMAT, "FF1 format"))
              : null,
          transitKdf(values.get(TRANSIT_KDF)));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException("malformed attribute: " + e.getMessage(), e);
    }
  }

  /** The Transit KDF an attribute names; null when there is none. */
  private static TransitKdf transitKdf(String name) {
    if (name == null) {
      return null;
    }
    TransitKdf kdf = TransitKdf.fromStoreName(name);
    if (kdf == null) {
      throw new IllegalArgumentException("unknown Transit KDF attribute '" + name + "'");
    }
    return kdf;
  }

  private static LegacyFormat legacy(Map<String, String> values) {
    LegacyCipher cipher =
        LegacyCipher.fromStoreName(required(values, LEGACY_CIPHER, "legacy cipher"));
    IvConvention iv =
        IvConvention.fromStoreName(required(values, LEGACY_IV, "legacy IV convention"));
    if (cipher == null || iv == null) {
      throw new IllegalArgumentException(
          "unknown legacy cipher '"
              + values.get(LEGACY_CIPHER)
              + "' or IV convention '"
              + values.get(LEGACY_IV)
              + "'");
    }
    String fixedIv = values.get(LEGACY_FIXED_IV);
    try {
      return LegacyFormat.of(cipher, iv, fixedIv == null ? null : HexFormat.of().parseHex(fixedIv));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("malformed legacy attributes: " + e.getMessage(), e);
    }
  }

  private static String required(Map<String, String> values, String oid, String what) {
    String value = values.get(oid);
    if (value == null) {
      throw new IllegalArgumentException("no " + what + " attribute (" + oid + ")");
    }
    return value;
  }
}
