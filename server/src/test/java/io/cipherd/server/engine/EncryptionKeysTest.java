package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lease's items look their encryption key up once; an engine of its own looks it up per
 * encryption.
 */
class EncryptionKeysTest {
  private final Keys keys = Keys.over(new InMemoryKeyStore());

  @AfterEach
  void close() {
    keys.close();
  }

  @Test
  void perLease_keepsTheVersionUntilForgotten_thenSeesTheRotation() {
    keys.create("k", KeyTemplate.of(CipherMode.GCM), KeyPolicy.DEFAULT);
    EncryptionKeys lease = EncryptionKeys.perLease(keys.cache());
    assertThat(lease.forEncryption("k", 0).header().version()).isEqualTo(1);

    keys.rotate("k", KeyTemplate.of(CipherMode.GCM));

    assertThat(lease.forEncryption("k", 0).header().version()).isEqualTo(1);
    lease.forget();
    assertThat(lease.forEncryption("k", 0).header().version()).isEqualTo(2);
  }

  @Test
  void perLease_asksAgainForAnotherNameOrVersion() {
    keys.create("a", KeyTemplate.of(CipherMode.GCM), KeyPolicy.DEFAULT);
    keys.create("b", KeyTemplate.of(CipherMode.CHACHA), KeyPolicy.DEFAULT);
    keys.rotate("a", KeyTemplate.of(CipherMode.GCM));
    EncryptionKeys lease = EncryptionKeys.perLease(keys.cache());

    assertThat(lease.forEncryption("a", 0).header().version()).isEqualTo(2);
    assertThat(lease.forEncryption("a", 1).header().version()).isEqualTo(1);
    assertThat(lease.forEncryption("b", 0).header().mode()).isEqualTo(CipherMode.CHACHA);
  }

  @Test
  void perEncryption_seesTheRotationAtOnce() {
    keys.create("k", KeyTemplate.of(CipherMode.GCM), KeyPolicy.DEFAULT);
    EncryptionKeys own = EncryptionKeys.perEncryption(keys.cache());
    assertThat(own.forEncryption("k", 0).header().version()).isEqualTo(1);

    keys.rotate("k", KeyTemplate.of(CipherMode.GCM));

    assertThat(own.forEncryption("k", 0).header().version()).isEqualTo(2);
  }
}
