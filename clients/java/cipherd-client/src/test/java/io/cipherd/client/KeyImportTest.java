package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Wrapped key import against a server without --allow-plaintext-key-import: material in the clear
 * refused, wrapped with the JDK's RSA-OAEP and AES/KWP and imported, a MySQL passphrase folded
 * here.
 */
class KeyImportTest {
  private static TestServer server;
  private static CipherdClient client;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(Files.createTempDirectory("cipherd-java-import").resolve("server"));
    client = CipherdClient.builder(server.target()).build();
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void plaintextIsRefused_wrappedMaterialImportsAndEncrypts() {
    String key = "wrapped-" + UUID.randomUUID().toString().substring(0, 12);
    byte[] material = new byte[32];
    new SecureRandom().nextBytes(material);
    assertThrows(
        PlaintextImportDisabledException.class,
        () -> client.keys().importKey(key, Mode.GCM, material, false));

    Key imported = client.keys().importKeyWrapped(key, Mode.GCM, material, false);

    assertTrue(imported.version(1).orElseThrow().imported());
    byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(hello, client.decrypt(client.encrypt(key, hello), new byte[0]));
  }

  @Test
  void aJobNamesItsKey_andAMysqlPassphraseGoesFoldedAndWrapped() {
    String key = "wrapped-" + UUID.randomUUID().toString().substring(0, 12);
    ImportJob job = client.keys().createImportJob(key, true);
    assertEquals(key, job.keyName());
    assertEquals(4096, job.rsaBits());
    assertTrue(job.expireTime().isAfter(Instant.now().plus(Duration.ofHours(23))));

    client
        .keys()
        .importLegacyKeyWrapped(
            key,
            LegacyCipher.MYSQL_AES_ECB,
            null,
            new byte[0],
            new byte[0],
            "1234567890".getBytes(StandardCharsets.UTF_8));
    client.keys().create(key + "-gcm", Mode.GCM);
    Rewrapped rewrapped =
        client.reEncrypt(
            LegacyCiphertext.hex(key, "FF06A56B4E88C828A010E9BD0CE70A89"),
            new byte[0],
            key + "-gcm");
    assertArrayEquals(
        "HELLO".getBytes(StandardCharsets.UTF_8),
        client.decrypt(rewrapped.ciphertext(), new byte[0]));
  }
}
