package io.cipherd.server.keystore.pkcs12;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

/** A PKCS12 file read and written with the JDK's own key store, as keytool or an operator would. */
final class JdkPkcs12 {
  private JdkPkcs12() {}

  static KeyStore load(Path file, String password) throws Exception {
    KeyStore jks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      jks.load(in, password.toCharArray());
    }
    return jks;
  }

  static void store(KeyStore jks, Path file, String password) throws Exception {
    try (OutputStream out = Files.newOutputStream(file)) {
      jks.store(out, password.toCharArray());
    }
  }
}
