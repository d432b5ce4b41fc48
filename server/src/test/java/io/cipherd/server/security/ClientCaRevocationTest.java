package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.server.Cipherd;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyTemplate;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over a real mutual-TLS port: when the client CA file is replaced, a connection whose client
 * certificate the new CA does not verify is closed (GOAWAY, then closed after the grace), one it
 * still verifies stays open, and the closed client cannot connect again.
 */
class ClientCaRevocationTest {
  private static final Duration PERIOD = Duration.ofSeconds(1);

  /** One reload period, the 5 s grace, and slack for a loaded machine. */
  private static final Duration BOUND = PERIOD.plusSeconds(5).plusSeconds(3);

  @TempDir Path pkiDir;
  @TempDir Path otherDir;
  @TempDir Path tlsDir;
  @TempDir Path dataDir;

  @Test
  void replacedClientCa_closesTheConnectionsItNoLongerVerifies() throws Exception {
    TestPki pki = TestPki.create(pkiDir);
    TestPki other = TestPki.create(otherDir);
    TestPki.Issued serverCert = pki.issue("server", "cipherd", "dns:localhost,ip:127.0.0.1");
    TestPki.Issued billing = pki.issue("billing", "billing", "dns:billing");
    Path clientCa =
        Files.copy(
            pki.caCert, tlsDir.resolve("client-ca.pem"), StandardCopyOption.REPLACE_EXISTING);
    ServerConfig config =
        TestServers.config(dataDir)
            .tls(new TlsConfig(serverCert.cert(), serverCert.key(), clientCa, PERIOD))
            .build();
    Cipherd services = TestServers.services(config).build();
    services.admin().create("payments", KeyTemplate.of(CipherMode.GCM));
    try (CipherdServer server = TestServers.start(config, services)) {
      ManagedChannel channel = pki.channel(server.port(), billing);
      try {
        EncryptStreamItems stream = new EncryptStreamItems(channel);
        assertThat(stream.send("first").hasCiphertext()).isTrue();

        // A bundle that still holds the old CA: the connection still verifies and stays.
        Files.writeString(clientCa, Files.readString(other.caCert) + Files.readString(pki.caCert));
        Thread.sleep(PERIOD.multipliedBy(3).toMillis());
        assertThat(stream.send("kept").hasCiphertext()).isTrue();

        // Only the other CA: the connection is closed within the bound.
        long written = System.nanoTime();
        Files.copy(other.caCert, clientCa, StandardCopyOption.REPLACE_EXISTING);
        Status end = stream.end().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        Duration toClose = Duration.ofNanos(System.nanoTime() - written);

        assertThat(end.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(toClose).isLessThan(BOUND);
        // And it cannot come back: the new handshake is judged by the new CA.
        assertThatThrownBy(
                () ->
                    CryptoServiceGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(5, TimeUnit.SECONDS)
                        .encrypt(
                            EncryptRequest.newBuilder()
                                .setKeyName("payments")
                                .setPlaintext(ByteString.copyFromUtf8("again"))
                                .build()))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
