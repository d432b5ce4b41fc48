package io.cipherd.server.keystore.pkcs12;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreContractTest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit key in the PKCS12 store: made once, kept across restarts, never a key. */
class Pkcs12AuditKeyTest {
  private static final char[] PASSWORD = "audit-key-test".toCharArray();

  @TempDir Path dir;

  @Test
  void auditKey_isCreatedOnce_survivesReopening_andIsNoKey() throws Exception {
    byte[] first;
    try (Pkcs12KeyStore store = Pkcs12KeyStore.open(dir, PASSWORD)) {
      first = store.auditKeyMaterial();
      store.createKey(
          "orders", KeyStoreContractTest.version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
      assertThat(first).hasSize(32).isEqualTo(store.auditKeyMaterial());
    }
    try (Pkcs12KeyStore reopened = Pkcs12KeyStore.open(dir, PASSWORD)) {
      assertThat(reopened.auditKeyMaterial()).isEqualTo(first);
      assertThat(reopened.listKeyNames()).containsExactly("orders");
    }
    KeyStore p12 = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve(Pkcs12KeyStore.KEYSTORE_FILE))) {
      p12.load(in, PASSWORD);
    }
    assertThat(Collections.list(p12.aliases())).contains(Pkcs12AuditKey.ALIAS);
  }

  @Test
  void auditKey_ofAnotherStore_differs() throws Exception {
    try (Pkcs12KeyStore a = Pkcs12KeyStore.open(dir.resolve("a"), PASSWORD);
        Pkcs12KeyStore b = Pkcs12KeyStore.open(dir.resolve("b"), PASSWORD)) {
      assertThat(a.auditKeyMaterial()).isNotEqualTo(b.auditKeyMaterial());
    }
  }
}
