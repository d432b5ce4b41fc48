package io.cipherd.server.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.grpc.ManagedChannel;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /metrics over a real HTTP socket after real gRPC calls over a real port. */
class MetricsEndpointTest {
  @TempDir Path dataDir;

  @Test
  void metrics_afterCalls_showGrpcCryptoPoolCacheKeyStoreAndJvmSeries() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, /* metricsKeyNames= */ false)) {
      makeCalls(server);
      HttpResponse<String> response = TestServers.get(server, "/metrics");
      String metrics = response.body();
      Files.createDirectories(Path.of("target", "metrics"));
      Files.writeString(Path.of("target", "metrics", "scrape.txt"), metrics);

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
      assertThat(metrics)
          .containsPattern(
              "grpc_server_processing_duration_seconds_count\\{[^}]*method=\"Encrypt\"[^}]*statusCode=\"OK\"[^}]*} 2\n");
      assertThat(metrics)
          .containsPattern(
              "grpc_server_processing_duration_seconds_count\\{[^}]*method=\"Decrypt\"[^}]*statusCode=\"INVALID_ARGUMENT\"[^}]*} 1\n");
      assertThat(metrics)
          .containsPattern(
              "grpc_server_requests_received_messages_total\\{[^}]*method=\"CreateKey\"");
      // Latency buckets for percentiles across replicas: every Encrypt call is under 10 s, so in
      // +Inf's bucket.
      assertThat(metrics)
          .containsPattern(
              "grpc_server_processing_duration_seconds_bucket\\{"
                  + "(?=[^}]*le=\"\\+Inf\")(?=[^}]*method=\"Encrypt\")(?=[^}]*statusCode=\"OK\")[^}]*} 2\n");
      assertThat(
              metrics
                  .lines()
                  .filter(
                      line ->
                          line.startsWith("grpc_server_processing_duration_seconds_bucket{")
                              && line.contains("method=\"Encrypt\"")
                              && line.contains("statusCode=\"OK\""))
                  .count())
          .as("15 bounds from 250 us to 10 s, and +Inf")
          .isEqualTo(16);
      assertThat(metrics)
          .contains(
              "cipherd_crypto_operations_total{key=\"_all\",mode=\"gcm\",operation=\"encrypt\",outcome=\"ok\"} 2.0",
              "cipherd_crypto_operations_total{key=\"_all\",mode=\"gcm\",operation=\"decrypt\",outcome=\"ok\"} 1.0",
              "cipherd_crypto_bytes_total{key=\"_all\",mode=\"gcm\",operation=\"encrypt\"} 10.0",
              "cipherd_key_version_encryptions_total{key=\"_all\",version=\"1\"} 2.0",
              "cipherd_cipher_pool_active{mode=\"gcm\"} 0.0",
              "cipherd_cipher_pool_idle{mode=\"gcm\"} 1.0",
              "cipherd_cipher_pool_waiters{mode=\"gcm\"} 0.0",
              "cipherd_cipher_pool_max{mode=\"gcm\"} 64.0",
              "cipherd_streams_open{method=\"EncryptStream\"} 0.0",
              "cipherd_streams_idle_closed_total{method=\"ReEncryptStream\"} 0.0",
              "cipherd_stream_idle_timeout_seconds 60.0",
              "cipherd_connection_max_calls 128.0",
              "cipherd_cipher_pool_creations_total{mode=\"gcm\"} 2.0",
              "cipherd_cipher_pool_borrows_total{mode=\"gcm\"} 4.0",
              "cipherd_cipher_pool_borrow_wait_seconds_total{mode=\"gcm\"}",
              "cipherd_cipher_pool_exhausted_total{mode=\"gcm\"} 0.0",
              "cipherd_key_cache_requests_total{result=\"miss\"}",
              "cipherd_key_cache_requests_total{result=\"hit\"} 4.0",
              "cipherd_key_cache_size 1.0",
              "cipherd_audit_records_total{outcome=\"failed\"} 0.0",
              "cipherd_audit_records_total{outcome=\"written\"} 0.0",
              "cipherd_audit_write_seconds_count 0",
              "jvm_memory_used_bytes{",
              "jvm_threads_live_threads ",
              "jvm_gc_");
      assertThat(metrics)
          .containsPattern(
              "cipherd_keystore_calls_seconds_count\\{operation=\"create_key\",outcome=\"ok\"} 1\n");
      assertThat(metrics)
          .containsPattern(
              "cipherd_crypto_operations_total\\{key=\"_all\",mode=\"gcm\",operation=\"decrypt\",outcome=\"decryption_failed\"} 1.0");
      assertThat(metrics).doesNotContain("key=\"net\"");
    }
  }

  @Test
  void keyNameLabel_appearsOnlyWhenEnabled() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, /* metricsKeyNames= */ true)) {
      makeCalls(server);
      String metrics = TestServers.get(server, "/metrics").body();
      assertThat(metrics)
          .contains(
              "cipherd_crypto_operations_total{key=\"net\",mode=\"gcm\",operation=\"encrypt\",outcome=\"ok\"} 2",
              "cipherd_key_version_encryptions_total{key=\"net\",version=\"1\"} 2.0");
      assertThat(metrics).doesNotContain("key=\"_all\"");
    }
  }

  /**
   * Creates key "net", encrypts twice (10 bytes), decrypts once, and fails one decrypt: four gcm
   * borrows, and two ciphers created because a cipher that failed is dropped, not reused.
   */
  private static void makeCalls(CipherdServer server) throws Exception {
    ManagedChannel channel = TestServers.channel(server);
    try {
      KeyAdminServiceGrpc.newBlockingStub(channel)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("net").build());
      var crypto = CryptoServiceGrpc.newBlockingStub(channel);
      String ciphertext =
          crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("net")
                      .setPlaintext(ByteString.copyFromUtf8("hello"))
                      .build())
              .getCiphertext();
      crypto.encrypt(
          EncryptRequest.newBuilder()
              .setKeyName("net")
              .setPlaintext(ByteString.copyFromUtf8("world"))
              .build());
      crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build());
      String tampered = ciphertext.substring(0, ciphertext.length() - 4) + "AAAA";
      assertThatThrownBy(
          () -> crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(tampered).build()));
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
