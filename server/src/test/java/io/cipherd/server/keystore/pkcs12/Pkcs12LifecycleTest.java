package io.cipherd.server.keystore.pkcs12;

import static io.cipherd.server.keys.KeyStoreContractTest.STRICT;
import static io.cipherd.server.keys.KeyStoreContractTest.bytes;
import static io.cipherd.server.keys.KeyStoreContractTest.rotateTo;
import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyUnavailableException;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.VersionLifecycle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the PKCS12 store must do for lifecycles: entries really leave the file. */
class Pkcs12LifecycleTest {
  private static final String PASSWORD = "correct horse battery staple";
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

  @TempDir Path tmp;

  private Path dataDir;
  private Pkcs12KeyStore store;

  @BeforeEach
  void open() {
    dataDir = tmp.resolve("data");
    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private void reopen() {
    store.close();
    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());
  }

  private Path p12() {
    return dataDir.resolve(Pkcs12KeyStore.KEYSTORE_FILE);
  }

  private Path json() {
    return dataDir.resolve(Pkcs12KeyStore.POLICY_FILE);
  }

  private List<String> aliasesInFile() throws Exception {
    return Collections.list(JdkPkcs12.load(p12(), PASSWORD).aliases()).stream().sorted().toList();
  }

  /** Key a with versions 1 to 3, version 1 scheduled, then destroyed as due. */
  private KeyMetadata destroyFirstOfThree() {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    rotateTo(store, "a", 3);
    return destroyFirstVersion();
  }

  @Test
  void destruction_removesTheEntryFromTheP12File_andRecordsTheVersionInKeysJson() throws Exception {
    store.createKey("other", version(1, CipherMode.GCM, 256), STRICT);
    byte[] v1 = bytes(store.readMaterial("other", store.readKey("other").orElseThrow().version(1)));
    assertThat(aliasesInFile()).contains("other/v1");

    destroyFirstOfThree();

    assertThat(aliasesInFile()).containsExactly("a/v2", "a/v3", "other/v1");
    String text = Files.readString(json());
    assertThat(text)
        .contains("\"format\": 2")
        .contains("\"DESTROYED\"")
        .contains("\"key_size_bits\": 256");
    assertThat(text).doesNotContain(Base64.getEncoder().encodeToString(v1));
  }

  @Test
  void deletedKey_hasNoEntryLeft_butItsTombstoneSurvivesAReopen() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    rotateTo(store, "a", 2);
    KeyMetadata now = store.readKey("a").orElseThrow();
    KeyMetadata scheduled =
        store.updateLifecycle(
            now, LifecycleRules.scheduleDeletion(now, LifecycleRules.MIN_WINDOW, NOW));
    KeyMetadata deleted =
        store.updateLifecycle(
            scheduled, LifecycleRules.due(scheduled, NOW.plus(Duration.ofDays(3))).key());

    assertThat(aliasesInFile()).isEmpty();
    reopen();
    assertThat(store.readKey("a")).contains(deleted);
    assertThat(deleted.lifecycle()).isEqualTo(KeyLifecycle.deleted(NOW.plus(Duration.ofDays(1))));
  }

  /**
   * Destruction writes keys.json, then the p12 without the entry. A crash between the two leaves
   * the version marked destroyed with its entry still in the p12: open erases it.
   */
  @Test
  void crashAfterMarkingDestroyedBeforeErasing_openErasesTheEntry() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    List<byte[]> material = rotateTo(store, "a", 3);
    byte[] p12BeforeErase = Files.readAllBytes(p12());
    KeyMetadata destroyed = destroyFirstVersion();
    store.close();
    store = null;
    Files.write(p12(), p12BeforeErase);
    assertThat(aliasesInFile()).contains("a/v1");

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    assertThat(aliasesInFile()).containsExactly("a/v2", "a/v3");
    assertThat(store.readKey("a")).contains(destroyed);
    assertThatThrownBy(() -> store.readMaterial("a", destroyed.version(1)))
        .isInstanceOf(KeyUnavailableException.class);
    assertThat(bytes(store.readMaterial("a", destroyed.version(2)))).isEqualTo(material.get(1));
  }

  /** Schedules version 1 of key a, then destroys it as due. */
  private KeyMetadata destroyFirstVersion() {
    KeyMetadata now = store.readKey("a").orElseThrow();
    KeyMetadata scheduled =
        store.updateLifecycle(
            now,
            LifecycleRules.scheduleDestruction(now, List.of(1), LifecycleRules.MIN_WINDOW, NOW));
    return store.updateLifecycle(
        scheduled, LifecycleRules.due(scheduled, NOW.plus(Duration.ofDays(2))).key());
  }

  @Test
  void formatOneFile_isRead_andUpgradedToFormatTwoOnTheNextWrite() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.close();
    store = null;
    Files.writeString(
        json(),
        "{\"format\": 1, \"policies\": {\"a\": {\"min_decryption_version\": 1,"
            + " \"min_encryption_version\": 1, \"allow_ecb_encryption\": true}}}");

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());
    KeyMetadata a = store.readKey("a").orElseThrow();
    assertThat(a.policy()).isEqualTo(STRICT);
    assertThat(a.lifecycle()).isEqualTo(KeyLifecycle.ENABLED);
    assertThat(a.version(1).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);

    KeyMetadata disabled = store.updateLifecycle(a, LifecycleRules.disable(a));
    assertThat(Files.readString(json())).contains("\"format\": 2").doesNotContain("policies");
    reopen();
    assertThat(store.readKey("a")).contains(disabled);
  }

  @Test
  void open_versionStateForAVersionTheP12Lacks_isRefused() throws Exception {
    destroyFirstOfThree();
    store.close();
    store = null;
    String text = Files.readString(json()).replace("\"DESTROYED\"", "\"DESTRUCTION_SCHEDULED\"");
    Files.writeString(json(), text);

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .hasMessageContaining("no version 1 of key 'a'");
  }
}
