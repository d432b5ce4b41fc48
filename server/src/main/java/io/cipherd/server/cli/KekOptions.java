package io.cipherd.server.cli;

import io.cipherd.server.keystore.kek.KekConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code --kek*} options: the key-encryption key that wraps the key material the Vault store
 * keeps (docs/security.md); each has a CIPHERD_KEK_* variable.
 */
public final class KekOptions {
  @Option(
      names = "--kek",
      defaultValue = "${env:CIPHERD_KEK:-none}",
      description =
          "What wraps the key material kept in Vault: none, transit (a Vault Transit key, see "
              + "--kek-transit-*), pkcs11 or the name of a KeyEncryptionKeyFactory on the class "
              + "path (CIPHERD_KEK). Default: ${DEFAULT-VALUE}: material stored as it is.")
  String kind;

  @Option(
      names = "--kek-transit-mount",
      defaultValue = "${env:CIPHERD_KEK_TRANSIT_MOUNT:-transit}",
      description =
          "Path of the Transit engine holding the KEK (CIPHERD_KEK_TRANSIT_MOUNT). "
              + "Default: ${DEFAULT-VALUE}.")
  String transitMount;

  @Option(
      names = "--kek-transit-key",
      defaultValue = "${env:CIPHERD_KEK_TRANSIT_KEY:-cipherd-kek}",
      description =
          "Name of the Transit key (aes256-gcm96) that wraps; cipherd's token needs update on "
              + "<mount>/encrypt/<key> and <mount>/decrypt/<key> (CIPHERD_KEK_TRANSIT_KEY). "
              + "Default: ${DEFAULT-VALUE}.")
  String transitKey;

  @Option(
      names = "--kek-option",
      description =
          "A setting of a KeyEncryptionKeyFactory's KEK, name=value, repeatable (a cloud KMS's key "
              + "id, region). Never a secret: those come from the factory's own environment.")
  Map<String, String> options = new LinkedHashMap<>();

  @Option(
      names = "--kek-require-wrapped",
      defaultValue = "${env:CIPHERD_KEK_REQUIRE_WRAPPED:-false}",
      description =
          "Refuse key material stored unwrapped (set it once `cipherd kek migrate` has run) "
              + "(CIPHERD_KEK_REQUIRE_WRAPPED).")
  boolean requireWrapped;

  /** The validated KEK choice. */
  public KekConfig toConfig() {
    return new KekConfig(kind, transitMount, transitKey, options, requireWrapped);
  }
}
