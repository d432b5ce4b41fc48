package io.cipherd.server.keystore.kek;

import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Opens a {@link KeyEncryptionKey} of one kind, found by {@link ServiceLoader}: a jar on the class
 * path with {@code META-INF/services/io.cipherd.server.keystore.kek.KeyEncryptionKeyFactory} naming
 * its factory adds a kind, selected with {@code --kek=<name>} and configured with {@code
 * --kek-option name=value} (a cloud KMS's key id, region, endpoint; credentials from the SDK's own
 * environment, never an option). cipherd's own {@code pkcs11} kind is found this way too; {@code
 * transit} is built by the Vault store, which owns the Vault session it calls through.
 */
public interface KeyEncryptionKeyFactory {
  /** The {@code --kek} value that selects this kind, such as {@code aws-kms}. */
  String name();

  /**
   * Opens the KEK, checking what it can at once (the key exists and wraps); throws {@link
   * IllegalArgumentException} naming a missing or bad option.
   */
  KeyEncryptionKey open(Map<String, String> options);

  /** The factory named {@code name} on the class path, if any. */
  static Optional<KeyEncryptionKeyFactory> find(String name) {
    for (KeyEncryptionKeyFactory factory : ServiceLoader.load(KeyEncryptionKeyFactory.class)) {
      if (factory.name().equals(name)) {
        return Optional.of(factory);
      }
    }
    return Optional.empty();
  }
}
