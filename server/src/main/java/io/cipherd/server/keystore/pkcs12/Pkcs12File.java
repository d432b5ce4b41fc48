package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStore.PasswordProtection;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Opens {@code keys.p12} and reads its version metadata, turning every way it can fail into a
 * {@link KeyStoreUnavailableException} that names the file (and never the password).
 */
final class Pkcs12File {
  private Pkcs12File() {}

  /** The key store in {@code file}, or a new empty one if there is no file yet. */
  static KeyStore load(Path file, PasswordProtection password) {
    KeyStore jks;
    try {
      jks = KeyStore.getInstance("PKCS12");
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("this JDK has no PKCS12 key store", e);
    }
    try {
      if (!Files.exists(file)) {
        jks.load(null, password.getPassword());
        return jks;
      }
      try (InputStream in = Files.newInputStream(file)) {
        jks.load(in, password.getPassword());
      }
      proveOneEntryDecrypts(jks, password);
      return jks;
    } catch (IOException | GeneralSecurityException e) {
      if (e.getCause() instanceof UnrecoverableKeyException
          || e instanceof UnrecoverableKeyException) {
        // The PKCS12 integrity MAC is keyed by the password: a wrong password and altered bytes
        // look alike.
        throw new KeyStoreUnavailableException(
            "the key store password does not open "
                + file
                + " (check CIPHERD_KEYSTORE_PASSWORD; or the file was altered)",
            e);
      }
      throw new KeyStoreUnavailableException(
          file
              + " is not a readable PKCS12 key store (corrupt or truncated?): "
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage()),
          e);
    }
  }

  /**
   * Every key's versions, by name, rebuilt from the aliases and attributes. A stray alias, a
   * version without its metadata or a gap in the numbering means the file was changed outside
   * cipherd; guessing would invent or hide versions, so it is refused.
   */
  static Map<String, List<KeyVersionInfo>> versions(KeyStore jks, Path file) {
    Map<String, Map<Integer, KeyVersionInfo>> found = new TreeMap<>();
    try {
      for (String alias : Collections.list(jks.aliases())) {
        VersionEntries.Alias parsed = VersionEntries.parseAlias(alias);
        if (parsed == null || !jks.entryInstanceOf(alias, KeyStore.SecretKeyEntry.class)) {
          throw inconsistent(
              file,
              "entry '" + alias + "' is not a cipherd key version (NAME/vVERSION secret key)");
        }
        KeyVersionInfo info;
        try {
          info = VersionEntries.info(parsed.version(), jks.getAttributes(alias));
        } catch (IllegalArgumentException e) {
          throw inconsistent(file, "entry '" + alias + "': " + e.getMessage());
        }
        found.computeIfAbsent(parsed.name(), n -> new TreeMap<>()).put(parsed.version(), info);
      }
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("cannot list the entries of " + file, e);
    }
    Map<String, List<KeyVersionInfo>> byName = new TreeMap<>();
    found.forEach(
        (name, versions) -> {
          List<KeyVersionInfo> list = new ArrayList<>(versions.values());
          for (int i = 0; i < list.size(); i++) {
            if (list.get(i).version() != i + 1) {
              throw inconsistent(
                  file,
                  "key '"
                      + name
                      + "' has versions "
                      + versions.keySet()
                      + ", not 1 to "
                      + list.size()
                      + "; cipherd never deletes a version");
            }
          }
          byName.put(name, List.copyOf(list));
        });
    return byName;
  }

  /**
   * A PKCS12 file whose integrity MAC is off would load under any password; decrypting one entry
   * makes a wrong password fail here, at open, instead of at the first decrypt.
   */
  private static void proveOneEntryDecrypts(KeyStore jks, PasswordProtection password)
      throws GeneralSecurityException {
    var aliases = jks.aliases();
    if (aliases.hasMoreElements()) {
      String alias = aliases.nextElement();
      if (jks.entryInstanceOf(alias, KeyStore.SecretKeyEntry.class)) {
        jks.getEntry(alias, password);
      }
    }
  }

  private static KeyStoreUnavailableException inconsistent(Path file, String problem) {
    return new KeyStoreUnavailableException(file + " is inconsistent: " + problem, null);
  }
}
