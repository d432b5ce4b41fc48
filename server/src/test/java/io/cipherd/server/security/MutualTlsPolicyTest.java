package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.server.Cipherd;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.cli.ServerConfig;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Over a real mutual-TLS port, the client certificate is the caller the access policy judges. */
class MutualTlsPolicyTest {
  @TempDir Path pkiDir;
  @TempDir Path dataDir;

  @Test
  void clientCertificateSan_isTheCallerThePolicyJudges() throws Exception {
    TestPki pki = TestPki.create(pkiDir);
    TestPki.Issued serverCert = pki.issue("server", "cipherd", "dns:localhost,ip:127.0.0.1");
    TestPki.Issued billing = pki.issue("billing", "ignored-cn", "dns:billing");
    TestPki.Issued intruder = pki.issue("intruder", "intruder", null);
    AccessPolicy policy =
        AccessPolicyFile.parse(
            "test",
            new StringReader(
                """
        callers:
          billing:
            rules:
              - keys: ["*"]
                operations: [admin, encrypt, decrypt]
        """));
    Cipherd services = services(pki, serverCert, policy);

    try (CipherdServer server = CipherdServer.start(config(pki, serverCert), services)) {
      ManagedChannel asBilling = pki.channel(server.port(), billing);
      ManagedChannel asIntruder = pki.channel(server.port(), intruder);
      try {
        KeyAdminServiceGrpc.newBlockingStub(asBilling)
            .createKey(CreateKeyRequest.newBuilder().setKeyName("tls").build());
        var crypto = CryptoServiceGrpc.newBlockingStub(asBilling);
        String ciphertext =
            crypto
                .encrypt(
                    EncryptRequest.newBuilder()
                        .setKeyName("tls")
                        .setPlaintext(ByteString.copyFromUtf8("mtls"))
                        .build())
                .getCiphertext();
        assertThat(
                crypto
                    .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                    .getPlaintext()
                    .toStringUtf8())
            .isEqualTo("mtls");

        assertThatThrownBy(
                () ->
                    CryptoServiceGrpc.newBlockingStub(asIntruder)
                        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build()))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                  assertThat(e.getStatus().getDescription())
                      .isEqualTo("caller 'intruder' may not decrypt with key 'tls'");
                });
        assertThat(services.accessDenials().denied()).isEqualTo(1);
      } finally {
        asBilling.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        asIntruder.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Certificates and bearer tokens name different callers (adversarial review, finding 8): a
   * CA-signed certificate whose SAN is a token caller's name, or whose CN is root's but whose only
   * SAN is an IP address, gets no grant at all.
   */
  @Test
  void certificateNamingATokenCaller_orOnlyAnIpSan_isNoCaller() throws Exception {
    TestPki pki = TestPki.create(pkiDir);
    TestPki.Issued serverCert = pki.issue("server", "cipherd", "dns:localhost,ip:127.0.0.1");
    TestPki.Issued root = pki.issue("root", "ignored-cn", "dns:root");
    TestPki.Issued rootByCn = pki.issue("root-cn", "root", "ip:10.0.0.7");
    TestPki.Issued posingAsOps = pki.issue("ops", "ops", "dns:ops");
    AccessPolicy policy =
        AccessPolicyFile.parse(
            "test",
            new StringReader(
                """
        callers:
          root:
            rules:
              - keys: ["*"]
                operations: [admin, encrypt, decrypt]
          ops:
            token_sha256: %s
            rules:
              - keys: ["*"]
                operations: [admin, encrypt, decrypt]
        """
                    .formatted(BearerTokens.hashHex("ops-token"))));

    try (CipherdServer server =
        CipherdServer.start(config(pki, serverCert), services(pki, serverCert, policy))) {
      ManagedChannel asRoot = pki.channel(server.port(), root);
      ManagedChannel asRootByCn = pki.channel(server.port(), rootByCn);
      ManagedChannel asFakeOps = pki.channel(server.port(), posingAsOps);
      try {
        KeyAdminServiceGrpc.newBlockingStub(asRoot)
            .createKey(CreateKeyRequest.newBuilder().setKeyName("k").build());
        for (ManagedChannel impostor : new ManagedChannel[] {asRootByCn, asFakeOps}) {
          assertThatThrownBy(
                  () ->
                      CryptoServiceGrpc.newBlockingStub(impostor)
                          .encrypt(
                              EncryptRequest.newBuilder()
                                  .setKeyName("k")
                                  .setPlaintext(ByteString.copyFromUtf8("x"))
                                  .build()))
              .isInstanceOfSatisfying(
                  StatusRuntimeException.class,
                  e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        }
      } finally {
        for (ManagedChannel channel : new ManagedChannel[] {asRoot, asRootByCn, asFakeOps}) {
          channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
      }
    }
  }

  /** A mutual-TLS server on a free port, trusting client certificates {@code pki} signed. */
  private ServerConfig config(TestPki pki, TestPki.Issued serverCert) {
    return TestServers.config(dataDir)
        .tls(
            new TlsConfig(
                serverCert.cert(), serverCert.key(), pki.caCert, TlsConfig.MIN_RELOAD_PERIOD))
        .build();
  }

  private Cipherd services(TestPki pki, TestPki.Issued serverCert, AccessPolicy policy)
      throws Exception {
    return TestServers.services(config(pki, serverCert)).accessPolicy(policy).build();
  }
}
