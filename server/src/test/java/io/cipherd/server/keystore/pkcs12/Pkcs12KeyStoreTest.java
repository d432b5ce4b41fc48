package io.cipherd.server.keystore.pkcs12;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreContractTest;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore.PasswordProtection;
import java.security.KeyStore.SecretKeyEntry;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key-store contract on the PKCS12 store, plus what only a file-backed store must do. */
class Pkcs12KeyStoreTest extends KeyStoreContractTest<Pkcs12KeyStore> {
  private static final String PASSWORD = "correct horse battery staple";

  @TempDir Path tmp;

  private Path dataDir;

  @Override
  protected Pkcs12KeyStore newStore() {
    dataDir = tmp.resolve("data");
    return Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());
  }

  @Override
  protected void reopenStore() {
    reopen();
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
  public void reopen_keepsEveryKeyVersionPolicyAndByte() {
    NewKeyVersion a1 = version(1, CipherMode.GCM, 256);
    NewKeyVersion a2 = version(2, CipherMode.CBC, 128, true);
    NewKeyVersion b1 = version(1, CipherMode.CHACHA, 256);
    store.createKey("a", a1, KeyPolicy.DEFAULT);
    store.addVersion("a", 1, a2);
    store.createKey("b", b1, STRICT);
    store.updatePolicy("a", new KeyPolicy(2, 0, false));
    KeyMetadata a = store.readKey("a").orElseThrow();
    KeyMetadata b = store.readKey("b").orElseThrow();

    reopen();

    assertThat(store.listKeyNames()).containsExactly("a", "b");
    assertThat(store.readKey("a")).contains(a);
    assertThat(store.readKey("b")).contains(b);
    assertThat(bytes(store.readMaterial("a", a.version(1)))).isEqualTo(a1.material());
    assertThat(bytes(store.readMaterial("a", a.version(2)))).isEqualTo(a2.material());
    assertThat(bytes(store.readMaterial("b", b.version(1)))).isEqualTo(b1.material());
  }

  @Test
  public void reopen_thenRotate_continuesNumberingAndKeepsOldVersions() {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    List<byte[]> before = rotateTo(store, "a", 3);
    reopen();

    NewKeyVersion v4 = version(4, CipherMode.GCM, 256);
    store.addVersion("a", 3, v4);
    reopen();

    KeyMetadata a = store.readKey("a").orElseThrow();
    assertThat(a.currentVersion()).isEqualTo(4);
    for (int v = 1; v <= 3; v++) {
      assertThat(bytes(store.readMaterial("a", a.version(v)))).isEqualTo(before.get(v - 1));
    }
    assertThat(bytes(store.readMaterial("a", a.version(4)))).isEqualTo(v4.material());
  }

  @Test
  public void files_areOwnerOnly_0600_inA0700Directory() throws Exception {
    assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
    store.createKey("a", version(1, CipherMode.GCM, 256), STRICT);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p12())))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(policies())))
        .isEqualTo("rw-------");
  }

  @Test
  public void write_replacesAGroupReadableFileWithA0600One() throws Exception {
    assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    Files.setPosixFilePermissions(p12(), PosixFilePermissions.fromString("rw-r--r--"));
    reopen();

    store.addVersion("a", 1, version(2, CipherMode.GCM, 256));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p12())))
        .isEqualTo("rw-------");
  }

  @Test
  public void p12_opensWithTheJdkKeyStore_withOneNameVersionAliasPerVersion() throws Exception {
    NewKeyVersion a1 = version(1, CipherMode.GCM, 256);
    store.createKey("a", a1, KeyPolicy.DEFAULT);
    store.addVersion("a", 1, version(2, CipherMode.GCM, 256));
    store.createKey("b", version(1, CipherMode.CHACHA, 256), KeyPolicy.DEFAULT);

    var jks = JdkPkcs12.load(p12(), PASSWORD);

    assertThat(Collections.list(jks.aliases())).containsExactlyInAnyOrder("a/v1", "a/v2", "b/v1");
    SecretKeyEntry entry =
        (SecretKeyEntry) jks.getEntry("a/v1", new PasswordProtection(PASSWORD.toCharArray()));
    assertThat(entry.getSecretKey().getEncoded()).isEqualTo(a1.material());
  }

  @Test
  public void p12_isListedByKeytool() throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    assumeThat(Files.isExecutable(keytool)).as("keytool in this JDK").isTrue();
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.addVersion("payments", 1, version(2, CipherMode.CHACHA, 256));

    ProcessBuilder pb =
        new ProcessBuilder(
            keytool.toString(),
            "-list",
            "-storetype",
            "PKCS12",
            "-keystore",
            p12().toString(),
            "-storepass:env",
            "CIPHERD_TEST_STOREPASS");
    pb.environment().put("CIPHERD_TEST_STOREPASS", PASSWORD); // not on the command line
    pb.redirectErrorStream(true);
    Process process = pb.start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    process.getInputStream().transferTo(output);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    String listing = output.toString(StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(listing).isZero();
    assertThat(listing).contains("2 entries").contains("payments/v1").contains("payments/v2");
  }

  @Test
  public void chachaKey_survivesReopen_andEncryptsWithChaCha20Poly1305() throws Exception {
    NewKeyVersion v1 = version(1, CipherMode.CHACHA, 256);
    store.createKey("chacha", v1, KeyPolicy.DEFAULT);
    reopen();

    SecretKey key = store.readMaterial("chacha", store.readKey("chacha").orElseThrow().version(1));

    assertThat(key.getAlgorithm()).isEqualTo("ChaCha20");
    assertThat(key.getEncoded()).isEqualTo(v1.material());
    byte[] nonce = new byte[12];
    Cipher encrypt = Cipher.getInstance(CipherMode.CHACHA.transformation());
    encrypt.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(nonce));
    byte[] sealed = encrypt.doFinal("hello".getBytes(StandardCharsets.UTF_8));
    Cipher decrypt = Cipher.getInstance(CipherMode.CHACHA.transformation());
    decrypt.init(
        Cipher.DECRYPT_MODE,
        new SecretKeySpec(v1.material(), "ChaCha20"),
        new IvParameterSpec(nonce));
    assertThat(decrypt.doFinal(sealed)).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  public void open_wrongPassword_failsNamingTheFileButNotThePassword() {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.close();
    store = null;

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, "Tr0ub4dor&3".toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("password does not open")
        .hasMessageContaining(p12().toString())
        .hasMessageNotContaining("Tr0ub4dor&3")
        .hasMessageNotContaining(PASSWORD);
  }

  @Test
  public void open_emptyPassword_isRefused() {
    assertThatThrownBy(() -> Pkcs12KeyStore.open(tmp.resolve("other"), new char[0]))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("CIPHERD_KEYSTORE_PASSWORD");
  }

  @Test
  public void open_garbageP12_failsNamingTheFile() throws Exception {
    store.close();
    store = null;
    Files.write(p12(), "not a key store".getBytes(StandardCharsets.US_ASCII));

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining(p12().toString())
        .hasMessageContaining("not a readable PKCS12");
  }

  @Test
  public void open_truncatedP12_failsNamingTheFile() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.close();
    store = null;
    byte[] whole = Files.readAllBytes(p12());
    Files.write(p12(), Arrays.copyOf(whole, whole.length / 2));

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining(p12().toString());
  }

  @Test
  public void open_garbagePolicyFile_failsNamingTheFile() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.close();
    store = null;
    Files.writeString(
        policies(), "{\"format\": 1, \"policies\": {\"a\": {\"min_decryption_version\": -1");

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining(policies().toString());
  }

  @Test
  public void open_versionGapInP12_isRefusedRatherThanGuessed() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    rotateTo(store, "a", 3);
    store.close();
    store = null;
    var jks = JdkPkcs12.load(p12(), PASSWORD);
    jks.deleteEntry("a/v2");
    JdkPkcs12.store(jks, p12(), PASSWORD);

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining(p12().toString())
        .hasMessageContaining("key 'a' has versions [1, 3]");
  }

  @Test
  public void open_foreignEntryInP12_isRefusedNamingIt() throws Exception {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.close();
    store = null;
    var jks = JdkPkcs12.load(p12(), PASSWORD);
    jks.setEntry(
        "a/v2",
        new SecretKeyEntry(new SecretKeySpec(new byte[32], "AES")),
        new PasswordProtection(PASSWORD.toCharArray())); // right alias, but no cipherd metadata
    JdkPkcs12.store(jks, p12(), PASSWORD);

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("'a/v2'")
        .hasMessageContaining("no mode attribute");
  }

  @Test
  public void policyFile_isReadableJsonWithoutSecrets() throws Exception {
    NewKeyVersion a1 = version(1, CipherMode.GCM, 256);
    store.createKey("a", a1, new KeyPolicy(1, 0, true));

    String json = Files.readString(policies());

    assertThat(json)
        .contains("\"a\"")
        .contains("\"min_decryption_version\": 1")
        .contains("\"allow_ecb_encryption\": true");
    assertThat(json).doesNotContain(Base64.getEncoder().encodeToString(a1.material()));
  }

  @Test
  public void close_wipesThePassword_laterReadsOfKeyBytesFailClearly() {
    KeyMetadata a = store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    store.close();

    assertThatThrownBy(() -> store.readMaterial("a", a.version(1)))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("closed");
  }

  @Test
  public void open_directoryAlreadyOpen_failsClearly_untilTheFirstStoreCloses() {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("already open")
        .hasMessageContaining(dataDir.toString());

    reopen(); // close, then open again: the lock went with the first store
    assertThat(store.listKeyNames()).containsExactly("a");
  }

  @Test
  public void open_failingOnAWrongPassword_releasesTheDirectory() {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.close();
    store = null;
    assertThatThrownBy(() -> Pkcs12KeyStore.open(dataDir, "wrong".toCharArray()))
        .isInstanceOf(KeyStoreUnavailableException.class);

    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    assertThat(store.listKeyNames()).containsExactly("a");
  }

  @Test
  public void keyRing_ciphertextsFromBeforeARestart_decryptAfterIt() {
    CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
    try {
      ArrayPayloadCipher cipher = new ArrayPayloadCipher(pools);
      Keys before = Keys.over(store, Clock.systemUTC());
      before.create("orders", KeyTemplate.of(CipherMode.CHACHA));
      before.rotate("orders", KeyTemplate.of(CipherMode.GCM).withKeySizeBits(128));
      UsableKey key = before.forEncryption("orders", 1);
      byte[] plaintext = "order 1234".getBytes(StandardCharsets.UTF_8);
      String ciphertext =
          new ParsedEnvelope(
                  key.header(), cipher.encrypt(key.header(), key.secret(), null, plaintext))
              .format();

      reopen();
      Keys after = Keys.over(store, Clock.systemUTC());
      ParsedEnvelope envelope = ParsedEnvelope.parse(ciphertext);

      assertThat(ciphertext).startsWith("<orders/v1:chacha>");
      assertThat(cipher.decrypt(envelope, after.forDecryption(envelope.header()).secret(), null))
          .isEqualTo(plaintext);
      assertThat(after.forEncryption("orders", 0).header().toString()).isEqualTo("<orders/v2:gcm>");
    } finally {
      pools.close();
    }
  }

  @Test
  public void toString_namesTheFileOnly() {
    store.createKey("a", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    assertThat(store.toString()).contains(p12().toString()).doesNotContain(PASSWORD);
  }

  @Test
  void usageFile_writtenBeforeIndexLookupsWereCounted_isReadWithNoLookups() throws Exception {
    store.createKey("idx", version(1, CipherMode.GCM, 256), new KeyPolicy(1, 1, false));
    store.close();
    store = null;
    Files.writeString(
        dataDir.resolve("usage.json"),
        """
        {"format": 1, "usage": {"idx": {"1": {"encryptions": 1, "decryptions": 2, "rewraps": 3,
          "indexes": 4, "last_used": "2026-11-23T10:00:00Z"}}}}
        """);
    store = Pkcs12KeyStore.open(dataDir, PASSWORD.toCharArray());

    assertThat(store.readUsage("idx").get(1))
        .isEqualTo(new VersionUsage(1, 2, 3, 4, Instant.parse("2026-11-23T10:00:00Z"), 0, 0, null));
    store.addUsage("idx", Map.of(1, new VersionUsage(0, 0, 0, 0, null, 0, 2, T0)));
    assertThat(Files.readString(dataDir.resolve("usage.json")))
        .contains("\"index_lookups\": 2")
        .contains("\"last_lookup\": \"" + T0 + "\"");
  }
}
