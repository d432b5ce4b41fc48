package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.server.Cipherd;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.config.ServerConfig;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over a real mutual-TLS port: when the client CA file is replaced, a connection whose client
 * certificate the new CA does not verify is closed (GOAWAY, then closed after the grace), one it
 * still verifies stays open, and the closed client cannot connect again.
 */
class ClientCaRevocationTest {
  private static final char[] PASSWORD = "client-ca-revocation-password".toCharArray();
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
        ServerConfig.builder()
            .port(0)
            .dataDir(dataDir)
            .keyStorePassword(PASSWORD)
            .maxInboundMessageBytes(64 * 1024)
            .limits(new RequestLimits(16))
            .blockingThreads(2)
            .blockingQueue(100)
            .shutdownGrace(Duration.ofSeconds(1))
            .tls(new TlsConfig(serverCert.cert(), serverCert.key(), clientCa, PERIOD))
            .build();
    Cipherd services =
        Cipherd.builder(Pkcs12KeyStore.open(dataDir, PASSWORD)).config(config).build();
    services.admin().create("payments", KeyTemplate.of(CipherMode.GCM));
    try (CipherdServer server = CipherdServer.start(config, services)) {
      ManagedChannel channel =
          Grpc.newChannelBuilderForAddress(
                  "localhost",
                  server.port(),
                  TlsChannelCredentials.newBuilder()
                      .trustManager(pki.caCert.toFile())
                      .keyManager(billing.cert().toFile(), billing.key().toFile())
                      .build())
              .build();
      try {
        Stream stream = new Stream(channel);
        assertThat(stream.send("first").getResult().hasCiphertext()).isTrue();

        // A bundle that still holds the old CA: the connection still verifies and stays.
        Files.writeString(clientCa, Files.readString(other.caCert) + Files.readString(pki.caCert));
        Thread.sleep(PERIOD.multipliedBy(3).toMillis());
        assertThat(stream.send("kept").getResult().hasCiphertext()).isTrue();

        // Only the other CA: the connection is closed within the bound.
        long written = System.nanoTime();
        Files.copy(other.caCert, clientCa, StandardCopyOption.REPLACE_EXISTING);
        Status end = stream.end.get(BOUND.toSeconds(), TimeUnit.SECONDS);
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

  /** One EncryptStream, an item at a time. */
  private static final class Stream {
    private final BlockingQueue<EncryptStreamResponse> answers = new LinkedBlockingQueue<>();
    final CompletableFuture<Status> end = new CompletableFuture<>();
    private final StreamObserver<EncryptStreamRequest> requests;

    Stream(ManagedChannel channel) {
      requests =
          CryptoServiceGrpc.newStub(channel)
              .encryptStream(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(EncryptStreamResponse value) {
                      answers.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                      end.complete(Status.fromThrowable(t));
                    }

                    @Override
                    public void onCompleted() {
                      end.complete(Status.OK);
                    }
                  });
    }

    EncryptStreamResponse send(String reference) throws Exception {
      requests.onNext(
          EncryptStreamRequest.newBuilder()
              .setKeyName("payments")
              .setReference(reference)
              .setPlaintext(ByteString.copyFromUtf8("card " + reference))
              .build());
      EncryptStreamResponse answer = answers.poll(10, TimeUnit.SECONDS);
      assertThat(answer).as("answer to item %s", reference).isNotNull();
      return answer;
    }
  }
}
