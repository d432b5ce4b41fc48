package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.api.v1.AuditHead;
import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.VerifyAuditCheckpointsRequest;
import io.cipherd.api.v1.VerifyAuditCheckpointsResponse;
import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.cipherd.server.logging.LogFormat;
import io.cipherd.server.metrics.CipherdMetrics;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real cipherd on loopback with a PKCS12 store and an audit file: VerifyAuditCheckpoints returns
 * the head its key store anchors (the trail's last durable checkpoint), also with no checkpoints to
 * check, and the head at shutdown is the file's last line.
 */
class AuditAnchorServerTest {
  private static final String TRAIL = "socket-test:audit.log";

  @TempDir Path dir;

  @Test
  void verifyAuditCheckpoints_returnsTheAnchoredHead_overARealSocket() throws Exception {
    Path dataDir = dir.resolve("data");
    Path log = dir.resolve("audit.log");
    CipherdServer server = start(dataDir, log);
    ManagedChannel channel = TestServers.channel(server);
    try {
      AuditServiceGrpc.AuditServiceBlockingStub audit =
          AuditServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
      VerifyAuditCheckpointsResponse answer = audit.verifyAuditCheckpoints(request(""));
      // Its own record is the trail's first call; the checkpoint after it (every 50 ms) is
      // anchored.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!answer.hasHead() && System.nanoTime() < deadline) {
        Thread.sleep(50);
        answer = audit.verifyAuditCheckpoints(request(""));
      }
      assertThat(answer.getValidList()).isEmpty();
      AuditHead head = answer.getHead();
      assertThat(head.getTrail()).isEqualTo(TRAIL);
      List<String> lines = Files.readAllLines(log);
      JsonObject anchored =
          JsonParser.parseString(lines.get((int) head.getSeq())).getAsJsonObject();
      assertThat(anchored.get("type").getAsString()).isEqualTo("checkpoint");
      assertThat(head.getHash()).isEqualTo(sha256(lines.get((int) head.getSeq())));
      assertThat(head.getTime()).isEqualTo(anchored.get("time").getAsString());
      assertThat(head.getFirstSeq()).isZero();
      assertThat(head.getFirstHash()).isEqualTo(sha256(lines.get(0)));
      assertThat(head.getFilesList()).hasSize(1);
      assertThat(head.getFiles(0).getName()).isEqualTo("audit.log");
      assertThat(head.getFiles(0).getLastSeq()).isEqualTo(head.getSeq());
      assertThat(head.getAnchoredAt().getSeconds()).isPositive();
      assertThat(JsonParser.parseString(lines.get(0)).getAsJsonObject().get("trail").getAsString())
          .isEqualTo(TRAIL);

      // Named, the own trail answers the same; another name has no head; a name too long is
      // refused.
      assertThat(audit.verifyAuditCheckpoints(request(TRAIL)).getHead().getSeq())
          .isGreaterThanOrEqualTo(head.getSeq());
      assertThat(audit.verifyAuditCheckpoints(request("other-host:audit.log")).hasHead()).isFalse();
      assertThatThrownBy(() -> audit.verifyAuditCheckpoints(request("t".repeat(257))))
          .isInstanceOf(StatusRuntimeException.class)
          .satisfies(
              e ->
                  assertThat(((StatusRuntimeException) e).getStatus().getCode())
                      .isEqualTo(Status.Code.INVALID_ARGUMENT))
          .hasMessageContaining("at most 256");
      assertThat(audit.verifyAuditCheckpoints(request("t".repeat(256))).hasHead()).isFalse();

      String metrics = TestServers.get(server, "/metrics").body();
      assertThat(metrics).contains("cipherd_audit_trail_cuts_total 0.0");
      assertThat(metrics).containsPattern("cipherd_audit_anchor_seconds_count [1-9]");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.close();
    }
    List<String> lines = Files.readAllLines(log);
    String last = lines.get(lines.size() - 1);
    try (Pkcs12KeyStore store = Pkcs12KeyStore.open(dataDir, TestServers.PASSWORD)) {
      var atShutdown = store.readAuditHead(TRAIL).orElseThrow();
      assertThat(atShutdown.seq()).isEqualTo(lines.size() - 1);
      assertThat(atShutdown.hash()).isEqualTo(sha256(last));
    }
  }

  private static VerifyAuditCheckpointsRequest request(String trail) {
    return VerifyAuditCheckpointsRequest.newBuilder().setTrail(trail).build();
  }

  private static CipherdServer start(Path dataDir, Path log) throws Exception {
    ServerConfig config =
        TestServers.config(dataDir)
            .maxInboundMessageBytes(ServerConfig.DEFAULT_MAX_MESSAGE_BYTES)
            .build();
    return TestServers.start(
        config,
        new ObservabilityConfig(0, LogFormat.TEXT, false),
        TestServers.services(config)
            .metrics(new CipherdMetrics(false))
            .audit(new AuditConfig(log, true, Duration.ofMillis(50), 1 << 20, TRAIL, 0))
            .build());
  }

  private static String sha256(String line) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(line.getBytes(StandardCharsets.UTF_8)));
  }
}
