package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.cli.ServerConfig;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS and mutual TLS on a real port, with certificates made at test time, including rotation. */
class ReloadingTlsCredentialsTest {
  private static final String SERVER_SANS = "dns:localhost,ip:127.0.0.1";

  @TempDir static Path pkiDir;
  static TestPki pki;
  static TestPki.Issued server;
  static TestPki.Issued rotated;
  static TestPki.Issued client;

  @TempDir Path dataDir;
  @TempDir Path tlsDir;

  @BeforeAll
  static void makeCertificates() throws Exception {
    pki = TestPki.create(pkiDir);
    server = pki.issue("server", "cipherd-server", SERVER_SANS);
    rotated = pki.issue("rotated", "cipherd-server-rotated", SERVER_SANS);
    client = pki.issue("client", "billing-cn", "dns:billing");
  }

  @Test
  void tlsPort_answersTlsClients() throws Exception {
    try (CipherdServer cipherd = start(false, Duration.ofMinutes(1))) {
      assertThat(health(cipherd.port(), pki.credentials())).isEqualTo(ServingStatus.SERVING);
    }
  }

  @Test
  void tlsPort_refusesPlaintextClients() throws Exception {
    try (CipherdServer cipherd = start(false, Duration.ofMinutes(1))) {
      assertThatThrownBy(() -> health(cipherd.port(), InsecureChannelCredentials.create()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    }
  }

  @Test
  void tlsOnNonLoopbackAddress_needsNoInsecureFlag() throws Exception {
    try (CipherdServer cipherd = start("0.0.0.0", false, Duration.ofMinutes(1))) {
      assertThat(cipherd.port()).isPositive();
    }
  }

  @Test
  void mutualTls_refusesClientsWithoutCertificate() throws Exception {
    try (CipherdServer cipherd = start(true, Duration.ofMinutes(1))) {
      assertThatThrownBy(() -> health(cipherd.port(), pki.credentials()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    }
  }

  @Test
  void mutualTls_refusesCertificatesFromAnotherCa(@TempDir Path otherDir) throws Exception {
    TestPki other = TestPki.create(otherDir);
    TestPki.Issued stranger = other.issue("stranger", "stranger", "dns:billing");
    try (CipherdServer cipherd = start(true, Duration.ofMinutes(1))) {
      assertThatThrownBy(() -> health(cipherd.port(), pki.credentials(stranger)))
          .isInstanceOf(StatusRuntimeException.class);
    }
  }

  @Test
  void mutualTls_answersClientsWithCertificate() throws Exception {
    try (CipherdServer cipherd = start(true, Duration.ofMinutes(1))) {
      assertThat(health(cipherd.port(), pki.credentials(client))).isEqualTo(ServingStatus.SERVING);
    }
  }

  @Test
  void rotatedCertificateFiles_areServedWithoutRestart() throws Exception {
    try (CipherdServer cipherd = start(false, TlsConfig.MIN_RELOAD_PERIOD)) {
      assertThat(servedSubject(cipherd.port())).isEqualTo("CN=cipherd-server");

      Files.copy(rotated.key(), tlsDir.resolve("server.key"), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(rotated.cert(), tlsDir.resolve("server.pem"), StandardCopyOption.REPLACE_EXISTING);

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      String subject = servedSubject(cipherd.port());
      while (!subject.contains("rotated") && System.nanoTime() < deadline) {
        Thread.sleep(500);
        subject = servedSubject(cipherd.port());
      }
      assertThat(subject).isEqualTo("CN=cipherd-server-rotated");
      assertThat(health(cipherd.port(), pki.credentials())).isEqualTo(ServingStatus.SERVING);
    }
  }

  @Test
  void inconsistentTlsOptions_areRejected() {
    assertThatThrownBy(() -> new TlsConfig(null, null, pki.caCert, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--tls-client-ca");
    assertThatThrownBy(() -> new TlsConfig(server.cert(), null, null, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--tls-key");
    assertThatThrownBy(
            () -> new TlsConfig(server.cert(), server.key(), null, Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least PT1S");
  }

  @Test
  void unreadableKeyFile_failsAtStart() throws Exception {
    Path garbage = Files.writeString(tlsDir.resolve("garbage.key"), "not a key");
    TlsConfig config = new TlsConfig(server.cert(), garbage, null, Duration.ofMinutes(1));
    assertThatThrownBy(() -> ReloadingTlsCredentials.load(config))
        .hasMessageContaining("cannot load TLS files")
        .hasMessageContaining("garbage.key");
  }

  private CipherdServer start(boolean mutual, Duration reload) throws Exception {
    return start("127.0.0.1", mutual, reload);
  }

  private CipherdServer start(String host, boolean mutual, Duration reload) throws Exception {
    Path cert =
        Files.copy(
            server.cert(), tlsDir.resolve("server.pem"), StandardCopyOption.REPLACE_EXISTING);
    Path key =
        Files.copy(server.key(), tlsDir.resolve("server.key"), StandardCopyOption.REPLACE_EXISTING);
    TlsConfig tls = new TlsConfig(cert, key, mutual ? pki.caCert : null, reload);
    ServerConfig config = TestServers.config(dataDir).host(host).tls(tls).build();
    return TestServers.start(config, TestServers.services(config).build());
  }

  private static ServingStatus health(int port, ChannelCredentials credentials)
      throws InterruptedException {
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress("localhost", port, credentials).build();
    try {
      return HealthGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance())
          .getStatus();
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** The subject of the certificate the server presents to a fresh handshake. */
  private static String servedSubject(int port) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(pki.caCert)) {
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setApplicationProtocols(new String[] {"h2"});
      socket.setSSLParameters(parameters);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
          .getSubjectX500Principal()
          .getName();
    }
  }
}
