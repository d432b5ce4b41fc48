package io.cipherd.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Key bytes that the key ring overwrites when it evicts a version, and that the JCE accepts. */
class WipeableSecretKeyTest {
  private static final byte[] HEADER = "<k/v1:x>".getBytes(StandardCharsets.US_ASCII);

  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);

  @AfterEach
  void closePools() {
    pools.close();
  }

  @ParameterizedTest
  @EnumSource(CipherMode.class)
  void jceProviders_acceptIt_forEveryMode(CipherMode mode) {
    int bits = mode.keySizesBits().stream().mapToInt(Integer::intValue).max().orElseThrow();
    byte[] raw = NonceSource.bytes(bits / 8);
    SecretKey key = new WipeableSecretKey(raw.clone(), mode.keyAlgorithm());
    ArrayPayloadCipher cipher = new ArrayPayloadCipher(pools);
    byte[] context = mode.isAead() ? "ctx".getBytes(StandardCharsets.UTF_8) : new byte[0];

    byte[] payload =
        cipher.encrypt(mode, key, HEADER, context, "plain".getBytes(StandardCharsets.UTF_8));

    assertThat(
            cipher.decrypt(
                mode, new SecretKeySpec(raw, mode.keyAlgorithm()), HEADER, context, payload))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("plain");
  }

  @Test
  void getEncoded_returnsACopy() {
    byte[] raw = {1, 2, 3, 4};
    WipeableSecretKey key = new WipeableSecretKey(raw, "AES");
    byte[] copy = key.getEncoded();
    copy[0] = 9;
    assertThat(key.getEncoded()).containsExactly(1, 2, 3, 4);
    assertThat(key.getFormat()).isEqualTo("RAW");
  }

  @Test
  void destroy_zeroesTheBytes_andLaterUseFails() {
    byte[] raw = {1, 2, 3, 4};
    WipeableSecretKey key = new WipeableSecretKey(raw, "AES");
    key.destroy();
    assertThat(raw).containsOnly(0);
    assertThat(key.isDestroyed()).isTrue();
    assertThatThrownBy(key::getEncoded)
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("evicted");
  }

  @Test
  void toString_hidesTheBytes() {
    WipeableSecretKey key = new WipeableSecretKey(new byte[] {0x41, 0x42, 0x43, 0x44}, "AES");
    assertThat(key.toString()).isEqualTo("WipeableSecretKey[AES, 32 bits]").doesNotContain("ABCD");
  }

  @Test
  void keyRingEviction_overwritesEveryLoadedVersion() {
    RecordingStore store = new RecordingStore();
    Keys ring = Keys.over(store, Clock.systemUTC());
    ring.create("a", KeyTemplate.of(CipherMode.GCM));
    ring.rotate("a", KeyTemplate.defaults());
    ring.create("b", KeyTemplate.of(CipherMode.CHACHA));
    ring.forEncryption("a", 1);
    ring.forEncryption("a", 2);
    ring.forEncryption("b", 0);
    assertThat(store.handedOut)
        .hasSize(3)
        .allSatisfy(raw -> assertThat(raw).isNotEqualTo(new byte[32]));

    ring.invalidateAll();

    assertThat(store.handedOut).allSatisfy(raw -> assertThat(raw).containsOnly(0));
    assertThat(ring.isCached("a", 0)).isFalse();
    // The next use reads fresh bytes from the store and still works.
    assertThat(ring.forEncryption("a", 0).secret().getEncoded()).isNotEqualTo(new byte[32]);
  }

  @Test
  void generatedMaterial_isOverwrittenOnceStored() {
    RecordingStore store = new RecordingStore();
    Keys ring = Keys.over(store, Clock.systemUTC());
    ring.create("a", KeyTemplate.of(CipherMode.GCM));
    ring.rotate("a", KeyTemplate.defaults());
    assertThat(store.given).hasSize(2).allSatisfy(raw -> assertThat(raw).containsOnly(0));
  }

  /** An in-memory store that remembers the arrays it hands out and is handed. */
  private static final class RecordingStore implements KeyStore, UsageStore {
    private final InMemoryKeyStore memory = new InMemoryKeyStore();
    final List<byte[]> handedOut = new ArrayList<>();
    final List<byte[]> given = new ArrayList<>();

    @Override
    public List<String> listKeyNames() {
      return memory.listKeyNames();
    }

    @Override
    public Optional<KeyMetadata> readKey(String name) {
      return memory.readKey(name);
    }

    @Override
    public SecretKey readMaterial(String name, KeyVersionInfo version) {
      SecretKey key = memory.readMaterial(name, version);
      byte[] raw = key.getEncoded();
      handedOut.add(raw);
      return new WipeableSecretKey(raw, key.getAlgorithm());
    }

    @Override
    public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
      given.add(first.material());
      return memory.createKey(name, first, policy);
    }

    @Override
    public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
      given.add(next.material());
      return memory.addVersion(name, expectedCurrentVersion, next);
    }

    @Override
    public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
      return memory.updatePolicy(name, policy);
    }

    @Override
    public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
      return memory.updateLifecycle(expected, next);
    }

    @Override
    public KeyMetadata setExportable(String name) {
      return memory.setExportable(name);
    }

    @Override
    public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
      live.forEach(version -> given.add(version.material()));
      return memory.restoreKey(key, live);
    }

    @Override
    public Map<Integer, VersionUsage> readUsage(String name) {
      return memory.readUsage(name);
    }

    @Override
    public Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta) {
      return memory.addUsage(name, delta);
    }
  }
}
