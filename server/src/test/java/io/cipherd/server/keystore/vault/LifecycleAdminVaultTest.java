package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.lifecycle.KeyLifecycleAdmin;
import io.cipherd.server.lifecycle.KeyVersionsInUseException;
import io.cipherd.server.lifecycle.Retirement;
import io.cipherd.server.usage.UsageLedger;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lifecycle changes made on one replica, seen by another sharing a real Vault: at once on the
 * replica that made them, on the other at its next metadata refresh; retirement counts the other
 * replica's use.
 */
@Tag("vault")
@Timeout(120)
class LifecycleAdminVaultTest {
  private VaultDevServer vault;
  private Replica a;
  private Replica b;

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    a = new Replica(vault.config("cipherd/keys"));
    b = new Replica(vault.config("cipherd/keys"));
  }

  @AfterEach
  void stop() throws Exception {
    a.close();
    b.close();
    vault.close();
  }

  @Test
  void disabling_andScheduling_onOneReplica_reachTheOtherAtItsNextRefresh() {
    a.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    ByteString old = a.encrypt("orders", "card 4111");
    a.keyRing.rotate("orders", KeyTemplate.defaults());
    assertThat(b.decrypt(old)).isEqualTo("card 4111");
    KeyLifecycleAdmin admin = a.keyRing.admin().lifecycle();

    admin.disable("orders");

    assertThat(kindOf(() -> a.encrypt("orders", "x"))).isEqualTo(ErrorKind.KEY_DISABLED);
    assertThat(b.decrypt(old)).as("until b refreshes").isEqualTo("card 4111");
    b.keyRing.refreshCached();
    assertThat(kindOf(() -> b.decrypt(old))).isEqualTo(ErrorKind.KEY_DISABLED);

    admin.enable("orders");
    admin.scheduleDestruction("orders", List.of(1), Duration.ofDays(1));
    b.keyRing.refreshCached();

    assertThat(b.keyRing.isCached("orders", 1)).as("b wiped version 1's bytes").isFalse();
    assertThat(kindOf(() -> b.decrypt(old))).isEqualTo(ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED);
    assertThat(b.decrypt(b.encrypt("orders", "new"))).isEqualTo("new");

    admin.cancelDestruction("orders", List.of(1));
    b.keyRing.refreshCached();
    assertThat(b.decrypt(old)).isEqualTo("card 4111");
  }

  @Test
  void retirement_isRefusedWhileAnotherReplicaStillUsesAnOldVersion_thenWritesOnce()
      throws Exception {
    a.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    ByteString old = a.encrypt("orders", "card 4111");
    a.keyRing.rotate("orders", KeyTemplate.defaults());
    b.decrypt(old);
    b.keyRing.usage().record("orders", 1, UsageLedger.Use.DECRYPT);
    b.keyRing.usage().merge();
    KeyLifecycleAdmin admin = a.keyRing.admin().lifecycle();

    assertThatThrownBy(() -> admin.retire("orders", 2, null, null, false))
        .isInstanceOfSatisfying(
            KeyVersionsInUseException.class, e -> assertThat(e.versions()).containsExactly(1));

    Thread.sleep(1_100); // a quiet period of a second has passed since b's use
    a.store.resetCounts();
    Retirement done = admin.retire("orders", 2, Duration.ofSeconds(1), null, false);

    assertThat(done.retiredVersions()).containsExactly(1);
    assertThat(a.store.calls("updateLifecycle")).isEqualTo(1);
    b.keyRing.refreshCached();
    assertThat(b.keyRing.describe("orders").policy().minDecryptionVersion()).isEqualTo(2);
    assertThat(kindOf(() -> b.decrypt(old))).isEqualTo(ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED);
  }

  private static ErrorKind kindOf(Runnable call) {
    try {
      call.run();
    } catch (CipherdException e) {
      return e.kind();
    }
    throw new AssertionError("expected the call to fail");
  }
}
