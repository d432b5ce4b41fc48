package io.cipherd.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CryptoMetricsTest {
  private static final ByteString NO_CONTEXT = ByteString.EMPTY;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final Keys keyRing = Keys.over(new InMemoryKeyStore(), Clock.systemUTC());

  @AfterEach
  void close() {
    pools.close();
  }

  @Test
  void keyNamesDisabled_countsUnderAllKeys_byModeOutcomeAndVersion() {
    CryptoEngine engine = engine(false);
    keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = encrypt(engine, "orders", "twelve bytes");
    encrypt(engine, "orders", "four");
    engine.decrypt(ciphertext, NO_CONTEXT);
    keyRing.rotate("orders", KeyTemplate.defaults());
    encrypt(engine, "orders", "v2");

    assertThat(
            count(
                "cipherd.crypto.operations",
                "operation",
                "encrypt",
                "key",
                "_all",
                "mode",
                "gcm",
                "outcome",
                "ok"))
        .isEqualTo(3);
    assertThat(
            count(
                "cipherd.crypto.operations",
                "operation",
                "decrypt",
                "key",
                "_all",
                "mode",
                "gcm",
                "outcome",
                "ok"))
        .isEqualTo(1);
    assertThat(count("cipherd.crypto.bytes", "operation", "encrypt", "key", "_all", "mode", "gcm"))
        .isEqualTo(18);
    assertThat(count("cipherd.crypto.bytes", "operation", "decrypt", "key", "_all", "mode", "gcm"))
        .isEqualTo(12);
    assertThat(count("cipherd.key.version.encryptions", "key", "_all", "version", "1"))
        .isEqualTo(2);
    assertThat(count("cipherd.key.version.encryptions", "key", "_all", "version", "2"))
        .isEqualTo(1);
    assertThat(registry.getMeters())
        .extracting(m -> m.getId().getTag("key"))
        .doesNotContain("orders");
  }

  @Test
  void keyNamesEnabled_labelsByKeyName() {
    CryptoEngine engine = engine(true);
    keyRing.create("orders", KeyTemplate.of(CipherMode.CHACHA));
    encrypt(engine, "orders", "hello");

    assertThat(
            count(
                "cipherd.crypto.operations",
                "operation",
                "encrypt",
                "key",
                "orders",
                "mode",
                "chacha",
                "outcome",
                "ok"))
        .isEqualTo(1);
    assertThat(count("cipherd.key.version.encryptions", "key", "orders", "version", "1"))
        .isEqualTo(1);
  }

  @Test
  void failures_areCountedByOutcome_andUnknownKeysNeverBecomeLabels() {
    CryptoEngine engine = engine(true);
    keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    String ciphertext = encrypt(engine, "orders", "secret");
    String tampered =
        ciphertext.substring(0, ciphertext.length() - 2)
            + (ciphertext.endsWith("AA") ? "BB" : "AA");

    assertThatThrownBy(() -> engine.decrypt(tampered, NO_CONTEXT));
    assertThatThrownBy(() -> encrypt(engine, "no-such-key", "x"));

    assertThat(
            count(
                "cipherd.crypto.operations",
                "operation",
                "decrypt",
                "key",
                "orders",
                "mode",
                "gcm",
                "outcome",
                "decryption_failed"))
        .isEqualTo(1);
    assertThat(
            count(
                "cipherd.crypto.operations",
                "operation",
                "encrypt",
                "key",
                "none",
                "mode",
                "none",
                "outcome",
                "key_not_found"))
        .isEqualTo(1);
    assertThat(registry.getMeters())
        .extracting(m -> m.getId().getTag("key"))
        .doesNotContain("no-such-key");
  }

  private CryptoEngine engine(boolean keyNames) {
    return new CryptoEngine(
        keyRing.cache(), pools, Authorizer.ALLOW_ALL, new CryptoMetrics(registry, keyNames));
  }

  private static String encrypt(CryptoEngine engine, String key, String plaintext) {
    return engine
        .encrypt(key, 0, ByteString.copyFromUtf8(plaintext), NO_CONTEXT)
        .ciphertext()
        .toStringUtf8();
  }

  private double count(String name, String... tags) {
    Meter meter = registry.find(name).tags(tags).meter();
    assertThat(meter).as("%s %s", name, String.join(",", tags)).isNotNull();
    return meter.measure().iterator().next().getValue();
  }
}
