package io.cipherd.server.vault;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherPoolConfig;
import io.cipherd.server.crypto.CipherPools;
import io.cipherd.server.crypto.PayloadCipher;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.KeyRing;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

/** One cipherd replica for tests: its own Vault session, key cache and engine, with every store call counted. */
final class Replica implements AutoCloseable {
  static final byte[] CONTEXT = "tenant=7".getBytes(StandardCharsets.UTF_8);

  final VaultKeyStore vault;
  final CountingKeyStore store;
  final KeyRing keyRing;
  final CryptoEngine engine;
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);

  Replica(VaultConfig config) {
    this.vault = VaultKeyStore.open(config);
    this.store = new CountingKeyStore(vault);
    this.keyRing = new KeyRing(store, Clock.systemUTC());
    this.engine = new CryptoEngine(keyRing, new PayloadCipher(pools));
  }

  ByteString encrypt(String key, String plaintext) {
    return engine.encrypt(key, 0, plaintext.getBytes(StandardCharsets.UTF_8), CONTEXT).ciphertext();
  }

  String decrypt(ByteString ciphertext) {
    return new String(engine.decrypt(ciphertext, CONTEXT).plaintext(), StandardCharsets.UTF_8);
  }

  int versionOf(ByteString ciphertext) {
    return CryptoEngine.parseHeader(ciphertext).version();
  }

  @Override
  public void close() {
    store.close();
    pools.close();
  }
}
