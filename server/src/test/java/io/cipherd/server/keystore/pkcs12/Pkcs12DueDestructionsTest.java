package io.cipherd.server.keystore.pkcs12;

import static io.cipherd.server.keys.KeyStoreContractTest.bytes;
import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyUnavailableException;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.maintenance.DueDestructions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep of due destructions on a single node's PKCS12 store, across a restart. */
class Pkcs12DueDestructionsTest {
  private static final String PASSWORD = "correct horse battery staple";

  @TempDir Path tmp;

  private Pkcs12KeyStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private Pkcs12KeyStore open() {
    return Pkcs12KeyStore.open(tmp.resolve("data"), PASSWORD.toCharArray());
  }

  @Test
  void sweep_pastTheTime_erasesTheEntry_onceAndForAll_acrossARestart() throws Exception {
    SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    store = open();
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    NewKeyVersion v2 = version(2, CipherMode.GCM, 256);
    KeyMetadata rotated = store.addVersion("payments", 1, v2);
    store.updateLifecycle(
        rotated,
        LifecycleRules.scheduleDestruction(
            rotated, List.of(1), LifecycleRules.MIN_WINDOW, clock.instant()));
    List<String> forgotten = new ArrayList<>();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    DueDestructions sweeper = new DueDestructions(store, clock, forgotten::add, registry);

    assertThat(sweeper.sweep()).as("not due yet").isZero();
    clock.advance(Duration.ofDays(1));
    assertThat(sweeper.sweep()).isEqualTo(1);

    assertThat(forgotten).containsExactly("payments");
    assertThat(registry.get(DueDestructions.DESTROYED_METER).counter().count()).isEqualTo(1.0);
    List<String> aliases =
        Collections.list(
                JdkPkcs12.load(tmp.resolve("data").resolve(Pkcs12KeyStore.KEYSTORE_FILE), PASSWORD)
                    .aliases())
            .stream()
            .toList();
    assertThat(aliases).containsExactly("payments/v2");

    store.close();
    store = open();
    KeyMetadata read = store.readKey("payments").orElseThrow();
    assertThat(read.version(1).lifecycle().state()).isEqualTo(VersionLifecycle.State.DESTROYED);
    assertThatThrownBy(() -> store.readMaterial("payments", read.version(1)))
        .isInstanceOfSatisfying(
            KeyUnavailableException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.KEY_VERSION_DESTROYED));
    assertThat(bytes(store.readMaterial("payments", read.version(2)))).isEqualTo(v2.material());
    DueDestructions afterRestart =
        new DueDestructions(store, clock, forgotten::add, new SimpleMeterRegistry());
    assertThat(afterRestart.sweep()).as("nothing left to do").isZero();
    assertThat(store.readKey("payments")).contains(read);
  }
}
