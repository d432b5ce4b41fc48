package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.WipeableSecretKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStore.PasswordProtection;
import java.security.KeyStore.SecretKeyEntry;
import java.security.UnrecoverableKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.crypto.SecretKey;
import javax.security.auth.DestroyFailedException;

/**
 * The {@code keys.p12} file: one secret-key entry per key version ({@link VersionEntries}), read
 * and added under the password, every way that can fail turned into a {@link
 * KeyStoreUnavailableException} that names the file (and never the password). The JDK key store
 * object is not thread-safe: {@link Pkcs12KeyStore} calls this under its lock.
 */
final class Pkcs12File {
  private final Path file;
  private final PasswordProtection password;
  private final KeyStore jks;

  private Pkcs12File(Path file, PasswordProtection password, KeyStore jks) {
    this.file = file;
    this.password = password;
    this.jks = jks;
  }

  /**
   * The key store in {@code file}, or a new empty one if there is no file yet; {@code password} is
   * the file's from now on, destroyed by {@link #close}.
   */
  static Pkcs12File load(Path file, PasswordProtection password) {
    return new Pkcs12File(file, password, loadJks(file, password));
  }

  private static KeyStore loadJks(Path file, PasswordProtection password) {
    KeyStore jks;
    try {
      jks = KeyStore.getInstance("PKCS12");
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("this JDK has no PKCS12 key store", e);
    }
    try {
      if (!Files.exists(file)) {
        jks.load(/* stream= */ null, password.getPassword()); // a new, empty key store
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
   * The versions that have an entry, by key name and number, rebuilt from the aliases and
   * attributes. A stray alias or a version without its metadata means the file was changed outside
   * cipherd; guessing would invent or hide versions, so it is refused. Destroyed versions have no
   * entry: the caller fills those gaps from {@code keys.json}.
   */
  Map<String, SortedMap<Integer, KeyVersionInfo>> versions() {
    Map<String, SortedMap<Integer, KeyVersionInfo>> found = new TreeMap<>();
    try {
      for (String alias : Collections.list(jks.aliases())) {
        if (Pkcs12AuditKey.ALIAS.equals(alias)) {
          continue;
        }
        VersionEntries.Alias parsed = VersionEntries.parseAlias(alias);
        if (parsed == null || !jks.entryInstanceOf(alias, SecretKeyEntry.class)) {
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
    return found;
  }

  /**
   * The key bytes of {@code stored}, version of key {@code name}, checked against its size; the key
   * takes over its copy, so the key ring can overwrite it on eviction.
   */
  SecretKey readKey(String name, KeyVersionInfo stored) {
    String alias = VersionEntries.alias(name, stored.version());
    SecretKeyEntry entry;
    try {
      checkOpen();
      entry = (SecretKeyEntry) jks.getEntry(alias, password);
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("cannot read entry '" + alias + "' of " + file, e);
    }
    if (entry == null) {
      throw new KeyStoreUnavailableException(
          file + " has no entry '" + alias + "' though its metadata was loaded");
    }
    byte[] bytes = entry.getSecretKey().getEncoded();
    if (bytes.length * 8 != stored.keySizeBits()) {
      Arrays.fill(bytes, (byte) 0);
      throw new KeyStoreUnavailableException(
          "entry '"
              + alias
              + "' of "
              + file
              + " holds a "
              + bytes.length * 8
              + "-bit key but its metadata says "
              + stored.keySizeBits());
    }
    return new WipeableSecretKey(bytes, stored.keyAlgorithm());
  }

  /**
   * Removes the entries of {@code versions} of key {@code name} (those it still has) and rewrites
   * the file atomically, so the bytes leave the committed file. If the write fails the entries stay
   * removed from memory, which is ahead of the file until a later write or the next open erases
   * them: the caller has already marked them destroyed, so they are never read again.
   */
  void eraseVersions(String name, List<Integer> versions) {
    boolean removed = false;
    try {
      for (int version : versions) {
        String alias = VersionEntries.alias(name, version);
        if (jks.containsAlias(alias)) {
          jks.deleteEntry(alias);
          removed = true;
        }
      }
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("cannot remove entries of '" + name + "'", e);
    }
    if (!removed) {
      return;
    }
    try {
      AtomicFiles.replace(file, out -> jks.store(out, password.getPassword()));
    } catch (Exception e) {
      throw new KeyStoreUnavailableException(
          "cannot write " + file + " without the destroyed versions of key '" + name + "': " + e,
          e);
    }
  }

  /**
   * Adds one entry to the file; on any failure before the rename, the file and memory are
   * unchanged.
   */
  void addVersion(String name, NewKeyVersion version) {
    addVersions(name, List.of(version));
  }

  /**
   * Adds the entries of {@code versions} to the file in one atomic write (a restored key's live
   * versions appear together or not at all); on any failure before the rename, the file and memory
   * are unchanged.
   */
  void addVersions(String name, List<NewKeyVersion> versions) {
    List<String> added = new ArrayList<>();
    try {
      for (NewKeyVersion version : versions) {
        String alias = VersionEntries.alias(name, version.info().version());
        if (jks.containsAlias(alias)) {
          throw new IllegalStateException(
              file + " already holds '" + alias + "'; a version is never overwritten");
        }
        jks.setEntry(
            alias,
            new SecretKeyEntry(
                VersionEntries.storedKey(version.info(), version.material()),
                VersionEntries.attributes(version.info())),
            password);
        added.add(alias);
      }
      AtomicFiles.replace(file, out -> jks.store(out, password.getPassword()));
    } catch (Exception e) {
      for (String alias : added) {
        try {
          jks.deleteEntry(alias); // It never reached the file; memory must match the file again.
        } catch (GeneralSecurityException ignored) {
          // Removing an entry from the in-memory PKCS12 store does not fail.
        }
      }
      if (e instanceof IllegalStateException taken) {
        throw taken;
      }
      throw new KeyStoreUnavailableException(
          "cannot write "
              + file
              + " with new entries of key '"
              + name
              + "'; nothing was stored: "
              + e,
          e);
    }
  }

  /** The bytes of the secret entry {@code alias} (outside the key-name grammar), or null. */
  byte[] readSecret(String alias) {
    try {
      checkOpen();
      SecretKeyEntry entry = (SecretKeyEntry) jks.getEntry(alias, password);
      return entry == null ? null : entry.getSecretKey().getEncoded();
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("cannot read entry '" + alias + "' of " + file, e);
    }
  }

  /** Stores {@code key} as the new secret entry {@code alias}, durably, or stores nothing. */
  void addSecret(String alias, SecretKey key) {
    try {
      jks.setEntry(alias, new SecretKeyEntry(key), password);
      AtomicFiles.replace(file, out -> jks.store(out, password.getPassword()));
    } catch (Exception e) {
      try {
        jks.deleteEntry(alias);
      } catch (GeneralSecurityException ignored) {
        // Removing an entry from the in-memory PKCS12 store does not fail.
      }
      throw new KeyStoreUnavailableException(
          "cannot write " + file + "; nothing was stored: " + e, e);
    }
  }

  /** Fails once {@link #close} has wiped the password. */
  void checkOpen() {
    if (password.isDestroyed()) {
      throw new KeyStoreUnavailableException(file + " was closed");
    }
  }

  /** Wipes the password; the file cannot be read or written afterwards. */
  void close() {
    try {
      password.destroy();
    } catch (DestroyFailedException e) {
      // PasswordProtection.destroy clears its array and never fails.
    }
  }

  Path path() {
    return file;
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
      if (jks.entryInstanceOf(alias, SecretKeyEntry.class)) {
        jks.getEntry(alias, password);
      }
    }
  }

  private static KeyStoreUnavailableException inconsistent(Path file, String problem) {
    return new KeyStoreUnavailableException(file + " is inconsistent: " + problem);
  }
}
