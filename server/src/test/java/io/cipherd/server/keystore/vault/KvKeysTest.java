package io.cipherd.server.keystore.vault;

import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.VersionLifecycle;
import io.github.jopenlibs.vault.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

/**
 * How {@link KvKeys} finishes a destruction left half done, on an in-memory KV v2 over HTTP ({@link
 * InMemoryKvServer}) that fails one chosen request: a key whose versions 1 and 2 were {@code kek
 * migrate}d (their data only in wrapped copies under {@code _kek/}, version 2's rewrapped once) has
 * both destroyed while one step of the destruction fails; a fresh replica's next read finishes it,
 * and no copy keeps data. The same on a real Vault: {@code KekMigrationVaultTest}.
 */
class KvKeysTest {
  private static final String PREFIX = "cipherd/keys";
  private static final Instant DESTROYED_AT = Instant.parse("2026-11-27T12:00:00Z");

  private InMemoryKvServer kv;
  private final List<VaultKeyStore> stores = new ArrayList<>();
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(VaultKeyStore.class);
  private byte[] material1;

  @BeforeEach
  void migratedKey() throws Exception {
    kv = new InMemoryKvServer();
    log.start();
    logger.addAppender(log);
    VaultKeyStore store = store();
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.addVersion("payments", 1, version(2, CipherMode.GCM, 256));
    store.addVersion("payments", 2, version(3, CipherMode.GCM, 256));
    material1 = Base64.getDecoder().decode(kvData("payments", 1).getString("material", ""));
    // What `kek migrate` leaves (copies written, the key's own data destroyed), and a rewrap of 2.
    kv.write(copy(1), kvData("payments", 1));
    kv.write(copy(2), kvData("payments", 2));
    kv.write(copy(2), kvData("payments", 2));
    kv.destroy(copy(2), 1);
    kv.destroy(PREFIX + "/payments", 1);
    kv.destroy(PREFIX + "/payments", 2);
  }

  @AfterEach
  void close() {
    stores.forEach(VaultKeyStore::close);
    logger.detachAppender(log);
    kv.close();
  }

  @ParameterizedTest(name = "fail {0} (after {1} like it)")
  @CsvSource({
    "GET secret/metadata/cipherd/keys/_kek/payments/1, 0",
    "POST secret/destroy/cipherd/keys/_kek/payments/1, 0",
    "GET secret/metadata/cipherd/keys/_kek/payments/2, 0",
    "POST secret/destroy/cipherd/keys/_kek/payments/2, 0",
    "POST secret/destroy/cipherd/keys/payments, 0",
  })
  void destructionFailingMidWay_isFinishedByTheNextRead_andNoCopyKeepsData(
      String failing, int letThrough) throws Exception {
    VaultKeyStore first = store();
    KeyMetadata key = first.readKey("payments").orElseThrow();
    kv.failNext(failing, letThrough);

    assertThatThrownBy(() -> first.updateLifecycle(key, destroyed(key, 1, 2)))
        .isInstanceOf(KeyStoreUnavailableException.class);
    assertThat(lifecycleData().get("destroying").toString())
        .as("the versions stay listed until Vault destroyed them")
        .isEqualTo("[1,2]");

    VaultKeyStore next = store();
    kv.takeRequests();
    KeyMetadata read = next.readKey("payments").orElseThrow();

    assertThat(read.versions())
        .extracting(LifecycleChange::isDestroyed)
        .containsExactly(true, true, false);
    assertAllDataOfVersions1And2Destroyed();
    assertThat(kv.takeRequests())
        .as("the read, the copies' destroys, the key's, then the list cleared")
        .containsExactly(
            "GET secret/metadata/cipherd/keys/payments",
            "GET secret/data/cipherd/keys/_lifecycle/payments",
            "GET secret/data/cipherd/keys/payments?version=3",
            "GET secret/metadata/cipherd/keys/_kek/payments/1",
            "POST secret/destroy/cipherd/keys/_kek/payments/1",
            "GET secret/metadata/cipherd/keys/_kek/payments/2",
            "POST secret/destroy/cipherd/keys/_kek/payments/2",
            "POST secret/destroy/cipherd/keys/payments",
            "POST secret/data/cipherd/keys/_lifecycle/payments");
    assertThat(lifecycleData().get("destroying")).isNull();
    assertThat(infoLines())
        .anyMatch(line -> line.contains("versions [1, 2] of key 'payments'"))
        .allMatch(line -> !line.contains(Base64.getEncoder().encodeToString(material1)));
  }

  @Test
  void destruction_destroysEveryCopyAndClearsItsList_andLaterReadsCostNoExtraCall()
      throws Exception {
    VaultKeyStore store = store();
    KeyMetadata key = store.readKey("payments").orElseThrow();

    store.updateLifecycle(key, destroyed(key, 1, 2));

    assertAllDataOfVersions1And2Destroyed();
    assertThat(lifecycleData().get("destroying")).isNull();
    VaultKeyStore next = store();
    kv.takeRequests();
    assertThat(next.readKey("payments").orElseThrow().versions())
        .extracting(LifecycleChange::isDestroyed)
        .containsExactly(true, true, false);
    assertThat(next.readKey("payments")).isPresent();
    assertThat(kv.takeRequests())
        .as("a fresh replica reads the one live version once; then a read is two calls")
        .containsExactly(
            "GET secret/metadata/cipherd/keys/payments",
            "GET secret/data/cipherd/keys/_lifecycle/payments",
            "GET secret/data/cipherd/keys/payments?version=3",
            "GET secret/metadata/cipherd/keys/payments",
            "GET secret/data/cipherd/keys/_lifecycle/payments");
  }

  /**
   * Every step done but the last, noting it: nothing left to destroy, and the next read notes it.
   */
  @Test
  void clearingTheListFailing_leavesTheDestructionDone_andTheNextReadClearsIt() throws Exception {
    VaultKeyStore store = store();
    KeyMetadata key = store.readKey("payments").orElseThrow();
    kv.failNext("POST secret/data/cipherd/keys/_lifecycle/payments", 1);

    store.updateLifecycle(key, destroyed(key, 1, 2));

    assertAllDataOfVersions1And2Destroyed();
    assertThat(lifecycleData().get("destroying").toString()).isEqualTo("[1,2]");
    store().readKey("payments");
    assertThat(lifecycleData().get("destroying")).isNull();
  }

  /** The lifecycle write itself failing destroys nothing: the version and its copy live on. */
  @Test
  void lifecycleWriteFailing_destroysNothing() throws Exception {
    VaultKeyStore store = store();
    KeyMetadata key = store.readKey("payments").orElseThrow();
    kv.failNext("POST secret/data/cipherd/keys/_lifecycle/payments", 0);

    assertThatThrownBy(() -> store.updateLifecycle(key, destroyed(key, 1)))
        .isInstanceOf(KeyStoreUnavailableException.class);

    KeyMetadata read = store().readKey("payments").orElseThrow();
    assertThat(read.versions()).noneMatch(LifecycleChange::isDestroyed);
    assertThat(kv.data(copy(1), 1)).isNotNull();
    assertThat(store.readMaterial("payments", read.version(1)).getEncoded()).isEqualTo(material1);
  }

  /**
   * A list written while a destruction was pending is carried by every later lifecycle write, so
   * another change to the key does not make a replica forget what is left to destroy.
   */
  @Test
  void aReplicaThatCannotFinishADestruction_warnsOnce_notAtEveryRead_andAgainForANewOne()
      throws Exception {
    VaultKeyStore first = store();
    KeyMetadata key = first.readKey("payments").orElseThrow();
    kv.failNext("POST secret/destroy/cipherd/keys/_kek/payments/1", 0);
    assertThatThrownBy(() -> first.updateLifecycle(key, destroyed(key, 1)))
        .isInstanceOf(KeyStoreUnavailableException.class);
    VaultKeyStore readOnly = store();
    log.list.clear();

    for (int read = 0; read < 3; read++) {
      kv.failNext("POST secret/destroy/cipherd/keys/_kek/payments/1", 0);
      readOnly.readKey("payments").orElseThrow();
    }

    assertThat(warnings("versions [1] of key 'payments' are marked destroyed"))
        .as("three reads that could not finish it, one warning")
        .hasSize(1);
    assertThat(lifecycleData().get("destroying").toString()).isEqualTo("[1]");

    // Finished (by this replica's next read), then another destruction left undone: news again.
    KeyMetadata finished = readOnly.readKey("payments").orElseThrow();
    assertThat(lifecycleData().get("destroying")).isNull();
    kv.failNext("POST secret/destroy/cipherd/keys/_kek/payments/2", 0);
    assertThatThrownBy(() -> first.updateLifecycle(finished, destroyed(finished, 2)))
        .isInstanceOf(KeyStoreUnavailableException.class);
    kv.failNext("POST secret/destroy/cipherd/keys/_kek/payments/2", 0);
    readOnly.readKey("payments").orElseThrow();

    assertThat(warnings("versions [2] of key 'payments' are marked destroyed")).hasSize(1);
  }

  private List<String> warnings(String containing) {
    return log.list.stream()
        .filter(event -> event.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .filter(line -> line.contains(containing))
        .toList();
  }

  @Test
  void anotherLifecycleWrite_whileDestructionIsPending_keepsTheList() throws Exception {
    VaultKeyStore first = store();
    KeyMetadata key = first.readKey("payments").orElseThrow();
    kv.failNext("POST secret/destroy/cipherd/keys/_kek/payments/1", 0);
    assertThatThrownBy(() -> first.updateLifecycle(key, destroyed(key, 1)))
        .isInstanceOf(KeyStoreUnavailableException.class);

    // The next read's finishing fails too; an exportable flag is then set from what it read.
    kv.failNext("GET secret/metadata/cipherd/keys/_kek/payments/1", 0);
    first.setExportable("payments");
    assertThat(lifecycleData().get("destroying").toString()).isEqualTo("[1]");
    assertThat(kv.data(copy(1), 1)).isNotNull();

    store().readKey("payments");
    assertThat(kv.data(copy(1), 1)).isNull();
    assertThat(lifecycleData().get("destroying")).isNull();
    assertThat(lifecycleData().getBoolean("exportable", false)).isTrue();
  }

  private void assertAllDataOfVersions1And2Destroyed() {
    for (String path : List.of(copy(1), copy(2))) {
      for (int v = 1; v <= kv.currentVersion(path); v++) {
        assertThat(kv.data(path, v)).as("%s version %d", path, v).isNull();
      }
    }
    assertThat(kv.currentVersion(copy(2))).isEqualTo(2);
    assertThat(kv.data(PREFIX + "/payments", 1)).isNull();
    assertThat(kv.data(PREFIX + "/payments", 2)).isNull();
    assertThat(kv.data(PREFIX + "/payments", 3)).as("version 3 lives").isNotNull();
  }

  private static KeyMetadata destroyed(KeyMetadata key, int... versions) {
    List<KeyVersionInfo> replaced = new ArrayList<>();
    for (int version : versions) {
      replaced.add(key.version(version).withLifecycle(VersionLifecycle.destroyed(DESTROYED_AT)));
    }
    return key.withVersionsReplaced(replaced);
  }

  private VaultKeyStore store() {
    VaultKeyStore store = VaultKeyStore.open(kv.config(PREFIX));
    stores.add(store);
    return store;
  }

  private JsonObject kvData(String name, int version) {
    return kv.data(PREFIX + "/" + name, version);
  }

  private JsonObject lifecycleData() {
    String path = PREFIX + "/" + KvLifecycle.path("payments");
    return kv.data(path, kv.currentVersion(path));
  }

  private static String copy(int version) {
    return PREFIX + "/" + KvMigratedVersions.path("payments", version);
  }

  private List<String> infoLines() {
    return log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }
}
