package io.cipherd.server.keystore.kek;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which key-encryption key wraps the material a key store keeps.
 *
 * @param kind {@code none} (material stored as it is), {@code transit} (a Vault Transit key, see
 *     {@code transitMount} and {@code transitKey}) or the name of a {@link KeyEncryptionKeyFactory}
 *     ({@code pkcs11}, a cloud KMS's)
 * @param transitMount where the Transit engine is mounted, such as {@code transit}
 * @param transitKey the Transit key that wraps, such as {@code cipherd-kek}
 * @param options a factory's settings ({@code --kek-option} and the {@code --kek-pkcs11-*} options)
 * @param requireWrapped refuse material stored unwrapped (after {@code cipherd kek migrate})
 * @param alsoUnwrap the ids ({@link KeyEncryptionKey#id()}) of other KEKs whose blobs are read too,
 *     never written: the KEK being left while {@code cipherd kek rewrap} moves the store to this
 *     one ({@code --kek-also-unwrap})
 */
public record KekConfig(
    String kind,
    String transitMount,
    String transitKey,
    Map<String, String> options,
    boolean requireWrapped,
    List<String> alsoUnwrap) {
  public static final String NONE = "none";
  public static final String TRANSIT = "transit";

  /** No KEK: key material stored as it is (cipherd's behaviour before KEKs). */
  public static final KekConfig OFF =
      new KekConfig(NONE, "transit", "cipherd-kek", Map.of(), false);

  /** A KEK that reads no other KEK's blobs. */
  public KekConfig(
      String kind,
      String transitMount,
      String transitKey,
      Map<String, String> options,
      boolean requireWrapped) {
    this(kind, transitMount, transitKey, options, requireWrapped, List.of());
  }

  public KekConfig {
    Objects.requireNonNull(kind, "kind");
    options = Map.copyOf(options);
    alsoUnwrap = List.copyOf(alsoUnwrap);
    if (kind.equals(NONE) && !alsoUnwrap.isEmpty()) {
      throw new IllegalArgumentException("--kek-also-unwrap needs a --kek to write with");
    }
    if (kind.equals(TRANSIT) && (blank(transitMount) || blank(transitKey))) {
      throw new IllegalArgumentException(
          "--kek=transit needs --kek-transit-mount and --kek-transit-key");
    }
    if (kind.equals(NONE) && requireWrapped) {
      throw new IllegalArgumentException("--kek-require-wrapped needs a --kek");
    }
  }

  /** A Transit KEK: the key {@code key} of the Transit engine at {@code mount}. */
  public static KekConfig transit(String mount, String key, boolean requireWrapped) {
    return new KekConfig(TRANSIT, mount, key, Map.of(), requireWrapped);
  }

  /** This KEK, also reading the blobs of the KEKs {@code ids} names. */
  public KekConfig alsoUnwrapping(List<String> ids) {
    return new KekConfig(kind, transitMount, transitKey, options, requireWrapped, ids);
  }

  public boolean enabled() {
    return !kind.equals(NONE);
  }

  /** Opens a factory's KEK; {@code none} and {@code transit} are not opened here. */
  public KeyEncryptionKey openFromFactory() {
    return KeyEncryptionKeyFactory.find(kind)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown --kek "
                        + kind
                        + ": none, transit, pkcs11 or a KeyEncryptionKeyFactory on the class path"))
        .open(options);
  }

  /**
   * Opens the factory KEK whose id is {@code id} ({@code <factory>:...}, such as {@code
   * pkcs11:old-kek}) with this configuration's options, to read its blobs: a PKCS#11 id's label
   * replaces {@code key-label}, so another key on the same token is named by its id alone. Throws
   * {@link IllegalArgumentException} when no factory makes a KEK with that id from these options.
   */
  public KeyEncryptionKey openFromFactory(String id) {
    int colon = id.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          "--kek-also-unwrap " + id + " is not a KEK id such as transit:transit/old-kek");
    }
    String factoryKind = id.substring(0, colon);
    Map<String, String> settings = new LinkedHashMap<>(options);
    if (factoryKind.equals(Pkcs11KekFactory.NAME)) {
      settings.put("key-label", id.substring(colon + 1));
    }
    KeyEncryptionKey kek =
        KeyEncryptionKeyFactory.find(factoryKind)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--kek-also-unwrap "
                            + id
                            + ": no KEK kind '"
                            + factoryKind
                            + "' (transit, pkcs11 or a KeyEncryptionKeyFactory on the class path)"))
            .open(settings);
    if (!kek.id().equals(id)) {
      kek.close();
      throw new IllegalArgumentException(
          "--kek-also-unwrap " + id + ": the options open " + kek.id() + " instead");
    }
    return kek;
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
