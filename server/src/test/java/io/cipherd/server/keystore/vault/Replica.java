package io.cipherd.server.keystore.vault;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

/**
 * One cipherd replica for tests: its own Vault session, key cache and engine, with every store call
 * counted.
 */
final class Replica implements AutoCloseable {
  static final ByteString CONTEXT = ByteString.copyFromUtf8("tenant=7");

  final VaultKeyStore vault;
  final CountingKeyStore store;
  final Keys keyRing;
  final CryptoEngine engine;
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);

  Replica(VaultConfig config) {
    this(config, KekConfig.OFF);
  }

  /** A replica whose stored material is wrapped by {@code kek}. */
  Replica(VaultConfig config, KekConfig kek) {
    this.vault = VaultKeyStore.open(config, kek);
    this.store = new CountingKeyStore(vault);
    this.keyRing = Keys.over(store, Clock.systemUTC());
    this.engine =
        new CryptoEngine(keyRing.cache(), pools, Authorizer.ALLOW_ALL, CryptoObserver.NONE);
  }

  ByteString encrypt(String key, String plaintext) {
    return engine.encrypt(key, 0, ByteString.copyFromUtf8(plaintext), CONTEXT).ciphertext();
  }

  String decrypt(ByteString ciphertext) {
    return new String(
        engine.decrypt(ciphertext.toStringUtf8(), CONTEXT).plaintext(), StandardCharsets.UTF_8);
  }

  int versionOf(ByteString ciphertext) {
    return Envelope.peekHeader(ciphertext).version();
  }

  @Override
  public void close() {
    store.close();
    pools.close();
  }
}
