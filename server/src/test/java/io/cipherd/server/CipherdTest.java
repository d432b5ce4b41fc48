package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.subjects.MemorySubjectStore;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import org.junit.jupiter.api.Test;

/**
 * The wiring's own duties: forgetting every key held in memory, in the cache and in the cipher
 * pools.
 */
class CipherdTest {
  @Test
  void forgetKeys_wipesCachedVersions_andDropsIdlePooledCiphers() throws Exception {
    try (Cipherd cipherd =
        Cipherd.builder(new InMemoryKeyStore()).subjectStore(new MemorySubjectStore()).build()) {
      cipherd.admin().create("k", KeyTemplate.of(CipherMode.GCM));
      UsableKey key = cipherd.keys().forEncryption("k", 0);
      Cipher used = cipherd.cipherPools().borrow(CipherMode.GCM);
      used.init(Cipher.ENCRYPT_MODE, key.secret(), new GCMParameterSpec(128, new byte[12]));
      cipherd.cipherPools().release(CipherMode.GCM, used);
      assertThat(cipherd.cipherPools().pool(CipherMode.GCM).getNumIdle()).isEqualTo(1);

      cipherd.forgetKeys();

      assertThat(cipherd.keys().cacheSize()).isZero();
      assertThat(key.secret().isDestroyed()).isTrue();
      assertThat(cipherd.cipherPools().pool(CipherMode.GCM).getNumIdle())
          .as("idle ciphers still holding a key schedule")
          .isZero();
      assertThat(cipherd.keys().forEncryption("k", 0).header().version())
          .as("read again from the store")
          .isEqualTo(1);
    }
  }
}
