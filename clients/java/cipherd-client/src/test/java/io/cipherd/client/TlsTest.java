package io.cipherd.client;

import static io.cipherd.client.Testdata.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS with a bearer token, and mutual TLS, against servers enforcing an access policy. */
class TlsTest {
  private static final String TOKEN = "java-client-test-token";

  @Test
  void tlsWithABearerTokenFromASupplier(@TempDir Path dir) throws Exception {
    TestPki pki = new TestPki(dir);
    TestPki.Pem server = pki.issue("server", "localhost", true);
    Path policy = dir.resolve("policy.yaml");
    String digest =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(TOKEN.getBytes(StandardCharsets.UTF_8)));
    Files.writeString(
        policy,
        "callers:\n  app:\n    token_sha256: "
            + digest
            + "\n    rules:\n      - keys: [\"app-*\"]\n        operations: [encrypt, decrypt, admin]\n");
    try (TestServer running =
        TestServer.start(
            dir.resolve("server-data"),
            "--tls-cert",
            server.cert().toString(),
            "--tls-key",
            server.key().toString(),
            "--access-policy",
            policy.toString())) {
      String key = "app-" + UUID.randomUUID().toString().substring(0, 8);
      try (CipherdClient client =
          CipherdClient.builder(running.target())
              .trustedCertificates(pki.ca.cert())
              .bearerToken(() -> TOKEN)
              .build()) {
        client.keys().create(key, Mode.GCM);
        assertArrayEquals(utf8("over tls"), client.decrypt(client.encrypt(key, utf8("over tls"))));
        assertThrows(PermissionDeniedException.class, () -> client.encrypt("other", utf8("x")));
      }
      try (CipherdClient anonymous =
          CipherdClient.builder(running.target()).trustedCertificates(pki.ca.cert()).build()) {
        assertThrows(UnauthenticatedException.class, () -> anonymous.encrypt(key, utf8("x")));
      }
      try (CipherdClient untrusting =
          CipherdClient.builder(running.target())
              .trustedCertificates(new TestPki(dir.resolve("other")).ca.cert())
              .retryPolicy(RetryPolicy.NONE)
              .build()) {
        assertThrows(UnavailableException.class, () -> untrusting.encrypt(key, utf8("x")));
      }
    }
  }

  @Test
  void mutualTlsIdentifiesTheCallerByItsCertificate(@TempDir Path dir) throws Exception {
    TestPki pki = new TestPki(dir);
    TestPki.Pem server = pki.issue("server", "localhost", true);
    TestPki.Pem billing = pki.issue("billing", "billing.test", false);
    TestPki.Pem stranger = pki.issue("stranger", "stranger.test", false);
    Path policy = dir.resolve("policy.yaml");
    Files.writeString(
        policy,
        "callers:\n  billing.test:\n    rules:\n      - keys: [\"billing-*\"]\n"
            + "        operations: [encrypt, decrypt, admin]\n");
    try (TestServer running =
        TestServer.start(
            dir.resolve("server-data"),
            "--tls-cert",
            server.cert().toString(),
            "--tls-key",
            server.key().toString(),
            "--tls-client-ca",
            pki.ca.cert().toString(),
            "--access-policy",
            policy.toString())) {
      String key = "billing-" + UUID.randomUUID().toString().substring(0, 8);
      try (CipherdClient client =
          CipherdClient.builder(running.target())
              .trustedCertificates(pki.ca.cert())
              .clientCertificate(billing.cert(), billing.key())
              .build()) {
        client.keys().create(key, Mode.GCM);
        assertArrayEquals(utf8("mtls"), client.decrypt(client.encrypt(key, utf8("mtls"))));
      }
      try (CipherdClient other =
          CipherdClient.builder(running.target())
              .trustedCertificates(pki.ca.cert())
              .clientCertificate(stranger.cert(), stranger.key())
              .build()) {
        assertThrows(PermissionDeniedException.class, () -> other.encrypt(key, utf8("x")));
      }
    }
  }
}
