package io.cipherd.server.keystore.pkcs12;

import static io.cipherd.server.keys.KeyStoreContractTest.STRICT;
import static io.cipherd.server.keys.KeyStoreContractTest.bytes;
import static io.cipherd.server.keys.KeyStoreContractTest.rotateTo;
import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.NewKeyVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the PKCS12 store's files look like after a crash or a failed write, and that opening them
 * again keeps every committed version and invents none: the two-file write order, leftover temp
 * files, a lagging or missing policy file, a disk that refuses writes.
 */
class Pkcs12CrashRecoveryTest {
  private static final String PASSWORD = "correct horse battery staple";

  @TempDir Path tmp;

  private Path dataDir;
  private KeyStore store;

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

  private Path p12() {
    return dataDir.resolve(Pkcs12KeyStore.KEYSTORE_FILE);
  }

  private Path policies() {
    return dataDir.resolve(Pkcs12KeyStore.POLICY_FILE);
  }

  /** Closes the store and opens the same directory again, as a restart would. */
  private void reopen() {
    store.close();
    store = null;
    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());
  }

  @Test
  public void open_leftoverTempFiles_areDeletedAndIgnored() throws Exception {
    NewKeyVersion a1 = version(1, CipherMode.GCM, 256);
    store.createKey("a", a1, STRICT);
    store.close();
    store = null;
    Path p12Temp = dataDir.resolve(Pkcs12KeyStore.KEYSTORE_FILE + ".8172635.tmp");
    Path jsonTemp = dataDir.resolve(Pkcs12KeyStore.POLICY_FILE + ".99.tmp");
    Files.write(p12Temp, new byte[] {0x30, (byte) 0x82, 1});
    Files.writeString(jsonTemp, "{\"format\": 1, \"poli");

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    assertThat(p12Temp).doesNotExist();
    assertThat(jsonTemp).doesNotExist();
    KeyMetadata a = store.readKey("a").orElseThrow();
    assertThat(a.policy()).isEqualTo(STRICT);
    assertThat(bytes(store.readMaterial("a", a.version(1)))).isEqualTo(a1.material());
  }

  /**
   * CreateKey writes keys.json, then keys.p12. A crash between the two leaves the new policy and
   * the old p12: rebuilt here from the files the two steps write.
   */
  @Test
  public void crashAfterPolicyWriteBeforeP12Write_keyDoesNotExist_andOthersAreIntact()
      throws Exception {
    NewKeyVersion a1 = version(1, CipherMode.GCM, 256);
    store.createKey("a", a1, KeyPolicy.DEFAULT);
    byte[] p12BeforeCreate = Files.readAllBytes(p12());
    store.createKey("b", version(1, CipherMode.GCM, 256), STRICT);
    store.close();
    store = null;
    Files.write(p12(), p12BeforeCreate); // keys.json already names b; keys.p12 never got b/v1

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    assertThat(store.listKeyNames()).containsExactly("a");
    assertThat(store.readKey("b")).isEmpty();
    assertThat(bytes(store.readMaterial("a", store.readKey("a").orElseThrow().version(1))))
        .isEqualTo(a1.material());
    // The name is free again, and the new create's policy wins over the orphaned one.
    store.createKey("b", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    reopen();
    assertThat(store.readKey("b").orElseThrow().policy()).isEqualTo(KeyPolicy.DEFAULT);
  }

  /**
   * A rotation is one p12 write; a crash before its rename leaves the old p12 and a complete temp
   * file.
   */
  @Test
  public void crashBeforeRotationRename_keepsEveryCommittedVersion_andInventsNone()
      throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    List<byte[]> committed = rotateTo(store, "a", 2);
    byte[] p12Committed = Files.readAllBytes(p12());
    store.addVersion("a", 2, version(3, CipherMode.GCM, 256));
    store.close();
    store = null;
    Files.move(p12(), dataDir.resolve(Pkcs12KeyStore.KEYSTORE_FILE + ".5550123.tmp"));
    Files.write(p12(), p12Committed);

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    KeyMetadata a = store.readKey("a").orElseThrow();
    assertThat(a.currentVersion()).isEqualTo(2);
    assertThat(bytes(store.readMaterial("a", a.version(1)))).isEqualTo(committed.get(0));
    assertThat(bytes(store.readMaterial("a", a.version(2)))).isEqualTo(committed.get(1));
    try (var files = Files.list(dataDir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(
              Pkcs12KeyStore.KEYSTORE_FILE, Pkcs12KeyStore.POLICY_FILE, DirectoryLock.FILE);
    }
  }

  /**
   * Makes renames onto {@code file} fail, as a full or broken disk would, by putting a non-empty
   * directory there.
   */
  private static void blockWritesTo(Path file) throws Exception {
    Files.deleteIfExists(file);
    Files.createDirectory(file);
    Files.writeString(file.resolve("blocker"), "x");
  }

  private static void unblock(Path file) throws Exception {
    Files.delete(file.resolve("blocker"));
    Files.delete(file);
  }

  @Test
  public void createKey_policyWriteFails_versionIsNeverWritten() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    blockWritesTo(policies());

    assertThatThrownBy(() -> store.createKey("b", version(1, CipherMode.GCM, 256), STRICT))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining(policies().toString());

    assertThat(store.readKey("b")).isEmpty();
    assertThat(Collections.list(JdkPkcs12.load(p12(), PASSWORD).aliases())).containsExactly("a/v1");
    unblock(policies());
    reopen();
    assertThat(store.listKeyNames()).containsExactly("a");
  }

  @Test
  public void addVersion_p12WriteFails_storesNothing_andTheVersionNumberStaysFree()
      throws Exception {
    NewKeyVersion a1 = version(1, CipherMode.GCM, 256);
    KeyMetadata created = store.createKey("a", a1, KeyPolicy.DEFAULT);
    blockWritesTo(p12()); // the store still holds every committed entry in memory

    assertThatThrownBy(() -> store.addVersion("a", 1, version(2, CipherMode.GCM, 256)))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining(p12().toString())
        .hasMessageContaining("nothing was stored");

    assertThat(store.readKey("a")).contains(created);
    try (var files = Files.list(dataDir)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .noneMatch(name -> name.endsWith(".tmp"));
    }
    unblock(p12());
    NewKeyVersion retry = version(2, CipherMode.GCM, 256);
    store.addVersion("a", 1, retry); // would fail if the failed entry were still in memory
    reopen();
    KeyMetadata a = store.readKey("a").orElseThrow();
    assertThat(a.currentVersion()).isEqualTo(2);
    assertThat(bytes(store.readMaterial("a", a.version(1)))).isEqualTo(a1.material());
    assertThat(bytes(store.readMaterial("a", a.version(2)))).isEqualTo(retry.material());
  }

  /**
   * keys.json older than keys.p12 (lost or restored from backup): no version is lost, policy falls
   * back.
   */
  @Test
  public void policyFileLaggingP12_keepsEveryVersion_withTheDefaultPolicy() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), STRICT);
    byte[] policiesBeforeB = Files.readAllBytes(policies());
    NewKeyVersion b1 = version(1, CipherMode.GCM, 256);
    store.createKey("b", b1, STRICT);
    store.addVersion("b", 1, version(2, CipherMode.GCM, 256));
    store.close();
    store = null;
    Files.write(policies(), policiesBeforeB);

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    KeyMetadata b = store.readKey("b").orElseThrow();
    assertThat(b.currentVersion()).isEqualTo(2);
    assertThat(b.policy()).isEqualTo(KeyPolicy.DEFAULT);
    assertThat(bytes(store.readMaterial("b", b.version(1)))).isEqualTo(b1.material());
    assertThat(store.readKey("a").orElseThrow().policy()).isEqualTo(STRICT);
  }

  @Test
  public void policyFileMissing_keysStillOpenWithTheDefaultPolicy() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), STRICT);
    store.close();
    store = null;
    Files.delete(policies());

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    assertThat(store.readKey("a").orElseThrow().policy()).isEqualTo(KeyPolicy.DEFAULT);
  }
}
