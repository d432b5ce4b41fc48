package io.cipherd.server.keys;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.lifecycle.KeyAdmin;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.usage.UsageLedger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

/**
 * A {@link KeyCache} and a {@link KeyAdmin} over one store, wired as {@code Cipherd} wires them,
 * for tests that administer keys and then use them.
 */
public final class Keys implements AutoCloseable {
  private final UsageLedger usage;
  private final KeyCache cache;
  private final KeyAdmin admin;
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final ArrayPayloadCipher cipher = new ArrayPayloadCipher(pools);

  private Keys(KeyStore store, UsageStore counts, Clock clock) {
    this.usage = new UsageLedger(counts, clock);
    this.cache = new KeyCache(store, usage);
    this.admin = new KeyAdmin(store, cache, clock, usage);
  }

  public static <S extends KeyStore & UsageStore> Keys over(S store, Clock clock) {
    return new Keys(store, store, clock);
  }

  /** Keys over {@code store}, counting usage into {@code counts}. */
  public static Keys over(KeyStore store, UsageStore counts, Clock clock) {
    return new Keys(store, counts, clock);
  }

  public static <S extends KeyStore & UsageStore> Keys over(S store) {
    return new Keys(store, store, Clock.systemUTC());
  }

  public KeyCache cache() {
    return cache;
  }

  public KeyAdmin admin() {
    return admin;
  }

  /**
   * The usage counts the cache and admin share; tests record into it as the crypto engine would.
   */
  public UsageLedger usage() {
    return usage;
  }

  /** The cipher {@link #encrypt} and {@link #decrypt} use, for tests that bypass the cache. */
  public ArrayPayloadCipher cipher() {
    return cipher;
  }

  public KeyMetadata create(String name, KeyTemplate template) {
    return admin.create(name, template);
  }

  public KeyMetadata create(String name, KeyTemplate template, KeyPolicy policy) {
    return admin.create(name, template, policy);
  }

  public KeyMetadata rotate(String name, KeyTemplate template) {
    return admin.rotate(name, template);
  }

  public KeyMetadata importVersion(String name, KeyTemplate template, byte[] material) {
    return admin.importVersion(name, template, material);
  }

  public KeyMetadata importVersion(
      String name, KeyTemplate template, byte[] material, TransitKdf transitKdf) {
    return admin.importVersion(name, template, material, transitKdf);
  }

  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    return admin.updatePolicy(name, policy);
  }

  public List<KeyMetadata> list(String after, int limit) {
    return admin.read(admin.names(after, limit, name -> true));
  }

  public KeyMetadata describe(String name) {
    return cache.describe(name);
  }

  public UsableKey forEncryption(String name, int version) {
    return cache.forEncryption(name, version);
  }

  public UsableKey forDecryption(EnvelopeHeader header) {
    return cache.forDecryption(header);
  }

  public boolean isCached(String name, int version) {
    return cache.isCached(name, version);
  }

  public int refreshCached() {
    return cache.refreshCached();
  }

  /** Forgets the cached keys and the idle pooled ciphers, as {@code Cipherd.forgetKeys} does. */
  public void invalidateAll() {
    cache.invalidateAll();
    pools.clear();
  }

  /**
   * Encrypts through the cache, as the API would: with the current version, or {@code version} if
   * not 0.
   */
  public String encrypt(String name, int version, String plaintext, byte[] context) {
    UsableKey key = cache.forEncryption(name, version);
    byte[] payload =
        cipher.encrypt(
            key.header(), key.secret(), context, plaintext.getBytes(StandardCharsets.UTF_8));
    return new ParsedEnvelope(key.header(), payload).format();
  }

  /** Decrypts through the cache with the version the ciphertext names. */
  public String decrypt(String ciphertext, byte[] context) {
    ParsedEnvelope envelope = ParsedEnvelope.parse(ciphertext);
    UsableKey key = cache.forDecryption(envelope.header());
    return new String(cipher.decrypt(envelope, key.secret(), context), StandardCharsets.UTF_8);
  }

  /** Closes the pools of {@link #encrypt} and {@link #decrypt}. */
  @Override
  public void close() {
    pools.close();
  }
}
