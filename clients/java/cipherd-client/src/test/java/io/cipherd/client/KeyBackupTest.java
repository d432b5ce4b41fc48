package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Key backup against the real server: an exportable key under two versions backed up and restored
 * into a second server (its own data dir, no plaintext import), where both versions' data decrypts;
 * a second restore is refused. KeyBackupFakeTest sees what is sent.
 */
class KeyBackupTest {
  private static TestServer source;
  private static TestServer target;
  private static CipherdClient client;
  private static CipherdClient other;

  @BeforeAll
  static void start() throws Exception {
    source = TestServer.start(Files.createTempDirectory("cipherd-java-backup").resolve("server"));
    target = TestServer.start(Files.createTempDirectory("cipherd-java-restore").resolve("server"));
    client = CipherdClient.builder(source.target()).build();
    other = CipherdClient.builder(target.target()).build();
  }

  @AfterAll
  static void stop() {
    for (CipherdClient c : new CipherdClient[] {client, other}) {
      if (c != null) {
        c.close();
      }
    }
    for (TestServer s : new TestServer[] {source, target}) {
      if (s != null) {
        s.close();
      }
    }
  }

  @Test
  void anExportableKeyMovesToAnotherServerWhereItsDataDecrypts() throws Exception {
    String key = "backup-" + UUID.randomUUID().toString().substring(0, 12);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(3072);
    KeyPair recipient = generator.generateKeyPair();
    byte[] first = "first".getBytes(StandardCharsets.UTF_8);
    byte[] second = "second".getBytes(StandardCharsets.UTF_8);

    client.keys().create(key, Mode.GCM, 0, false, KeyPolicy.DEFAULT, true);
    String firstCt = client.encrypt(key, first);
    client.keys().rotate(key);
    String secondCt = client.encrypt(key, second);
    KeyBackupFile backup =
        client.keys().backup(key, pem("PUBLIC KEY", recipient.getPublic().getEncoded()));
    String identity = pem("PRIVATE KEY", recipient.getPrivate().getEncoded());

    Key restored = other.keys().restoreBackup(backup.file(), identity);
    assertEquals(2, restored.currentVersion());
    assertTrue(restored.exportable());
    assertArrayEquals(first, other.decrypt(firstCt, new byte[0]));
    assertArrayEquals(second, other.decrypt(secondCt, new byte[0]));
    assertThrows(
        AlreadyExistsException.class, () -> other.keys().restoreBackup(backup.file(), identity));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder().encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
