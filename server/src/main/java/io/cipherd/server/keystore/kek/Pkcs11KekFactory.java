package io.cipherd.server.keystore.kek;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code --kek=pkcs11}: an AES key on a PKCS#11 token ({@link Pkcs11Kek}). Options: {@code library}
 * (the module, such as {@code /usr/lib/softhsm/libsofthsm2.so}), {@code slot} (the slot id) or
 * {@code slot-index} (its place in the module's slot list, 0 by default), {@code key-label} (the
 * key's CKA_LABEL, {@code cipherd-kek} by default) and {@code pin-file}; without a PIN file the PIN
 * comes from {@code CIPHERD_KEK_PKCS11_PIN}. Never the PIN itself as an option.
 */
public final class Pkcs11KekFactory implements KeyEncryptionKeyFactory {
  public static final String NAME = "pkcs11";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public KeyEncryptionKey open(Map<String, String> options) {
    String library = options.get("library");
    if (library == null || library.isBlank()) {
      throw new IllegalArgumentException("--kek=pkcs11 needs --kek-pkcs11-library");
    }
    StringBuilder config =
        new StringBuilder("name = cipherd-kek\nlibrary = ").append(library.strip()).append('\n');
    if (options.get("slot") != null) {
      config.append("slot = ").append(Long.parseLong(options.get("slot").strip())).append('\n');
    } else {
      config
          .append("slotListIndex = ")
          .append(Integer.parseInt(options.getOrDefault("slot-index", "0").strip()))
          .append('\n');
    }
    return Pkcs11Kek.open(
        config.toString(),
        pin(options.get("pin-file")),
        options.getOrDefault("key-label", "cipherd-kek"));
  }

  private static char[] pin(String file) {
    if (file != null) {
      try {
        String text = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
          throw new IllegalArgumentException("the PKCS#11 PIN file " + file + " is empty");
        }
        return text.toCharArray();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the PKCS#11 PIN file " + file, e);
      }
    }
    String fromEnv = System.getenv("CIPHERD_KEK_PKCS11_PIN");
    if (fromEnv == null || fromEnv.isEmpty()) {
      throw new IllegalArgumentException(
          "no PKCS#11 PIN: set --kek-pkcs11-pin-file or CIPHERD_KEK_PKCS11_PIN");
    }
    return fromEnv.toCharArray();
  }
}
