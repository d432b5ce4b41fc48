package io.cipherd.server.cli;

import io.cipherd.server.keystore.kek.KekConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
      names = "--kek-pkcs11-library",
      defaultValue = "${env:CIPHERD_KEK_PKCS11_LIBRARY}",
      description =
          "The PKCS#11 module of --kek=pkcs11, e.g. /usr/lib/softhsm/libsofthsm2.so "
              + "(CIPHERD_KEK_PKCS11_LIBRARY).")
  String pkcs11Library;

  @Option(
      names = "--kek-pkcs11-slot",
      defaultValue = "${env:CIPHERD_KEK_PKCS11_SLOT}",
      description = "The token's slot id (CIPHERD_KEK_PKCS11_SLOT).")
  Long pkcs11Slot;

  @Option(
      names = "--kek-pkcs11-slot-index",
      defaultValue = "${env:CIPHERD_KEK_PKCS11_SLOT_INDEX:-0}",
      description =
          "Without --kek-pkcs11-slot: the token's place in the module's slot list "
              + "(CIPHERD_KEK_PKCS11_SLOT_INDEX). Default: ${DEFAULT-VALUE}.")
  int pkcs11SlotIndex;

  @Option(
      names = "--kek-pkcs11-key-label",
      defaultValue = "${env:CIPHERD_KEK_PKCS11_KEY_LABEL:-cipherd-kek}",
      description =
          "Label of the AES key on the token (CIPHERD_KEK_PKCS11_KEY_LABEL). "
              + "Default: ${DEFAULT-VALUE}.")
  String pkcs11KeyLabel;

  @Option(
      names = "--kek-pkcs11-pin-file",
      defaultValue = "${env:CIPHERD_KEK_PKCS11_PIN_FILE}",
      description =
          "File holding the token's user PIN (CIPHERD_KEK_PKCS11_PIN_FILE); "
              + "CIPHERD_KEK_PKCS11_PIN is used when this is not set. Never the PIN itself.")
  String pkcs11PinFile;

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

  @Option(
      names = "--kek-also-unwrap",
      split = ",",
      defaultValue = "${env:CIPHERD_KEK_ALSO_UNWRAP}",
      description =
          "Also read material wrapped by these other KEKs, by the id stored beside each blob "
              + "(transit:<mount>/<key>, pkcs11:<key label> on the --kek-pkcs11-* token), never "
              + "wrap with them: the KEK being left while `cipherd kek rewrap` moves to --kek. "
              + "Comma-separated or repeated (CIPHERD_KEK_ALSO_UNWRAP).")
  List<String> alsoUnwrap = new ArrayList<>();

  /** The validated KEK choice. */
  public KekConfig toConfig() {
    Map<String, String> settings = new LinkedHashMap<>(options);
    List<String> others =
        alsoUnwrap == null
            ? List.of()
            : alsoUnwrap.stream().map(String::strip).filter(id -> !id.isEmpty()).toList();
    if (kind.equals("pkcs11") || others.stream().anyMatch(id -> id.startsWith("pkcs11:"))) {
      putIfSet(settings, "library", pkcs11Library);
      putIfSet(settings, "slot", pkcs11Slot == null ? null : pkcs11Slot.toString());
      settings.put("slot-index", Integer.toString(pkcs11SlotIndex));
      putIfSet(settings, "key-label", pkcs11KeyLabel);
      putIfSet(settings, "pin-file", pkcs11PinFile);
    }
    return new KekConfig(kind, transitMount, transitKey, settings, requireWrapped, others);
  }

  private static void putIfSet(Map<String, String> settings, String name, String value) {
    if (value != null && !value.isBlank()) {
      settings.put(name, value);
    }
  }
}
