package io.cipherd.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPoolExhaustedException;
import io.cipherd.server.pool.CipherPools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import javax.crypto.Cipher;
import org.junit.jupiter.api.Test;

class CipherPoolMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void exhaustedPool_showsActiveWaitAndExhaustion() {
    try (CipherPools pools = new CipherPools(new CipherPoolConfig(1, 1, Duration.ofMillis(50)))) {
      CipherPoolMetrics.bind(pools, registry);
      Cipher held = pools.borrow(CipherMode.GCM);

      assertThatThrownBy(() -> pools.borrow(CipherMode.GCM))
          .isInstanceOf(CipherPoolExhaustedException.class);

      assertThat(gauge("cipherd.cipher.pool.active")).isEqualTo(1);
      assertThat(gauge("cipherd.cipher.pool.idle")).isEqualTo(0);
      assertThat(gauge("cipherd.cipher.pool.max")).isEqualTo(1);
      assertThat(counter("cipherd.cipher.pool.exhausted")).isEqualTo(1);
      assertThat(counter("cipherd.cipher.pool.borrow.wait")).isGreaterThanOrEqualTo(0.045);
      pools.release(CipherMode.GCM, held);
      assertThat(gauge("cipherd.cipher.pool.active")).isEqualTo(0);
      assertThat(gauge("cipherd.cipher.pool.idle")).isEqualTo(1);
      assertThat(counter("cipherd.cipher.pool.borrows")).isEqualTo(1);
      assertThat(counter("cipherd.cipher.pool.creations")).isEqualTo(1);
    }
  }

  private double gauge(String name) {
    return registry.get(name).tag("mode", "gcm").gauge().value();
  }

  private double counter(String name) {
    return registry.get(name).tag("mode", "gcm").functionCounter().count();
  }
}
