package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.server.Cipherd;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyTemplate;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over a real socket: a stream opened with a bearer token stops being served once the access policy
 * no longer accepts that token, from its first item after the reload, each later item refused with
 * its own UNAUTHENTICATED error (never dropped), while the new token works on a new stream.
 */
class OpenStreamRevocationTest {
  private static final String OLD_TOKEN = "old-token-0123456789";
  private static final String NEW_TOKEN = "new-token-9876543210";

  @TempDir Path dataDir;
  @TempDir Path policyDir;

  @Test
  void replacedToken_refusesTheNextItemOfAStreamItOpened() throws Exception {
    Path file = writePolicy(OLD_TOKEN, null);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, Duration.ofHours(1));
        CipherdServer server = start(policy)) {
      ManagedChannel oldChannel = channel(server.port(), OLD_TOKEN);
      ManagedChannel newChannel = channel(server.port(), NEW_TOKEN);
      try {
        EncryptStreamItems stream = new EncryptStreamItems(oldChannel);
        assertThat(stream.send("before").hasCiphertext()).isTrue();

        // Same caller, new token; the modification time kept, so only the content says it changed.
        FileTime modified = Files.getLastModifiedTime(file);
        writePolicy(NEW_TOKEN, modified);
        policy.reloadIfChanged();

        EncryptBatchResult after = stream.send("after");
        assertThat(after.getReference()).isEqualTo("after");
        assertThat(after.hasError()).isTrue();
        assertThat(after.getError().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED.value());
        assertThat(after.getError().getReason()).isEqualTo("UNAUTHENTICATED");
        assertThat(after.getError().getMessage()).contains("no longer accepted");
        // Every later item too, each answered: the stream itself goes on and ends normally.
        assertThat(stream.send("later").getError().getReason()).isEqualTo("UNAUTHENTICATED");
        assertThat(stream.complete()).isEqualTo(Status.Code.OK);

        EncryptStreamItems renewed = new EncryptStreamItems(newChannel);
        assertThat(renewed.send("renewed").hasCiphertext()).isTrue();
        renewed.complete();
      } finally {
        oldChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        newChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void removedCaller_isRefusedWithinOneCheckPeriod() throws Exception {
    Duration period = Duration.ofMillis(200);
    Path file = writePolicy(OLD_TOKEN, null);
    try (ReloadingAccessPolicy policy = ReloadingAccessPolicy.start(file, period);
        CipherdServer server = start(policy)) {
      ManagedChannel channel = channel(server.port(), OLD_TOKEN);
      try {
        EncryptStreamItems stream = new EncryptStreamItems(channel);
        assertThat(stream.send("before").hasCiphertext()).isTrue();

        FileTime modified = Files.getLastModifiedTime(file);
        long written = System.nanoTime();
        Files.writeString(
            file,
            """
            callers:
              someone-else:
                rules: [{keys: ["*"], operations: [encrypt]}]
            """);
        Files.setLastModifiedTime(file, modified);
        EncryptBatchResult result = stream.send("0");
        int sent = 1;
        while (!result.hasError() && System.nanoTime() - written < 10_000_000_000L) {
          Thread.sleep(10);
          result = stream.send(Integer.toString(sent++));
        }
        Duration toRefusal = Duration.ofNanos(System.nanoTime() - written);

        assertThat(result.hasError()).isTrue();
        assertThat(result.getError().getReason()).isEqualTo("UNAUTHENTICATED");
        // One check period, plus the read and an item's round trip.
        assertThat(toRefusal).isLessThan(period.plusSeconds(1));
        stream.complete();
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private Path writePolicy(String token, FileTime modified) throws Exception {
    Path file = policyDir.resolve("policy.yaml");
    Files.writeString(
        file,
        """
        callers:
          billing:
            token_sha256: %s
            rules: [{keys: ["*"], operations: [encrypt, decrypt]}]
        """
            .formatted(BearerTokens.hashHex(token)));
    if (modified != null) {
      Files.setLastModifiedTime(file, modified);
    }
    return file;
  }

  private CipherdServer start(ReloadingAccessPolicy policy) throws Exception {
    ServerConfig config = TestServers.config(dataDir).build();
    Cipherd services = TestServers.services(config).accessPolicy(policy).build();
    services.admin().create("payments", KeyTemplate.of(CipherMode.GCM));
    return TestServers.start(config, services);
  }

  private static ManagedChannel channel(int port, String token) {
    Metadata headers = new Metadata();
    headers.put(CallerIdentityInterceptor.AUTHORIZATION, "Bearer " + token);
    return Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .intercept(MetadataUtils.newAttachHeadersInterceptor(headers))
        .build();
  }
}
