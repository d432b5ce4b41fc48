package io.cipherd.server.keystore.kek;

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
 */
public record KekConfig(
    String kind,
    String transitMount,
    String transitKey,
    Map<String, String> options,
    boolean requireWrapped) {
  public static final String NONE = "none";
  public static final String TRANSIT = "transit";

  /** No KEK: key material stored as it is (cipherd's behaviour before KEKs). */
  public static final KekConfig OFF =
      new KekConfig(NONE, "transit", "cipherd-kek", Map.of(), false);

  public KekConfig {
    Objects.requireNonNull(kind, "kind");
    options = Map.copyOf(options);
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

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
