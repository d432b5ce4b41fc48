package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every FormatPreservingService RPC over a real port, as a client sends it: a card-number key's
 * values encrypted, decrypted, masked, rotated and re-encrypted, unary and batch; the service's
 * health, and /metrics labelling FF1 work with mode {@code ff1}.
 */
class FormatPreservingSocketTest {
  private static final ByteString COLUMN = ByteString.copyFromUtf8("payments.pan");
  private static final String CARD = "4242 4242 4242 4242";

  @TempDir Path dataDir;

  @Test
  void everyRpc_overARealPort() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, /* metricsKeyNames= */ true)) {
      ManagedChannel channel = TestServers.channel(server);
      try {
        assertThat(
                HealthGrpc.newBlockingStub(channel)
                    .check(
                        HealthCheckRequest.newBuilder()
                            .setService("cipherd.v1.FormatPreservingService")
                            .build())
                    .getStatus())
            .isEqualTo(ServingStatus.SERVING);
        var admin = KeyAdminServiceGrpc.newBlockingStub(channel);
        var fpe = FormatPreservingServiceGrpc.newBlockingStub(channel);
        admin.createKey(
            CreateKeyRequest.newBuilder()
                .setKeyName("pans")
                .setMode(Mode.MODE_FF1)
                .setFpeFormat(
                    FpeFormat.newBuilder()
                        .setTemplate(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER)
                        .setAcceptSmallDomain(true))
                .build());

        var encrypted =
            fpe.encryptFormatted(
                EncryptFormattedRequest.newBuilder()
                    .setKeyName("pans")
                    .setValue(CARD)
                    .setContext(COLUMN)
                    .build());
        assertThat(encrypted.getValue())
            .startsWith("4242 42")
            .endsWith(" 4242")
            .isNotEqualTo(CARD)
            .hasSameSizeAs(CARD);
        assertThat(
                fpe.decryptFormatted(
                        DecryptFormattedRequest.newBuilder()
                            .setKeyName("pans")
                            .setValue(encrypted.getValue())
                            .setContext(COLUMN)
                            .setKeyVersion(encrypted.getKeyVersion())
                            .build())
                    .getValue())
            .isEqualTo(CARD);
        assertThat(
                fpe.maskFormatted(
                        MaskFormattedRequest.newBuilder()
                            .setKeyName("pans")
                            .setValue(encrypted.getValue())
                            .setContext(COLUMN)
                            .setKeyVersion(1)
                            .build())
                    .getMasked())
            .isEqualTo("•••• •••• •••• 4242");

        var batch =
            fpe.encryptFormattedBatch(
                    EncryptFormattedBatchRequest.newBuilder()
                        .setKeyName("pans")
                        .setContext(COLUMN)
                        .addItems(EncryptFormattedBatchItem.newBuilder().setValue(CARD))
                        .addItems(
                            EncryptFormattedBatchItem.newBuilder().setValue("5555555555554444"))
                        .build())
                .getResultsList();
        assertThat(batch).extracting(FormattedBatchResult::getKeyVersion).containsExactly(1, 1);
        assertThat(
                fpe.decryptFormattedBatch(
                        DecryptFormattedBatchRequest.newBuilder()
                            .setKeyName("pans")
                            .setContext(COLUMN)
                            .setKeyVersion(1)
                            .addItems(
                                FormattedBatchItem.newBuilder().setValue(batch.get(1).getValue()))
                            .build())
                    .getResults(0)
                    .getValue())
            .isEqualTo("5555555555554444");

        admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("pans").build());
        var moved =
            fpe.reEncryptFormatted(
                ReEncryptFormattedRequest.newBuilder()
                    .setKeyName("pans")
                    .setValue(encrypted.getValue())
                    .setContext(COLUMN)
                    .setKeyVersion(1)
                    .build());
        assertThat(moved.getKeyVersion()).isEqualTo(2);
        var movedBatch =
            fpe.reEncryptFormattedBatch(
                    ReEncryptFormattedBatchRequest.newBuilder()
                        .setKeyName("pans")
                        .setContext(COLUMN)
                        .setKeyVersion(1)
                        .addItems(FormattedBatchItem.newBuilder().setValue(batch.get(0).getValue()))
                        .build())
                .getResults(0);
        assertThat(movedBatch.getValue()).isEqualTo(moved.getValue());
        assertThat(movedBatch.getSourceKeyVersion()).isEqualTo(1);

        StatusRuntimeException refused =
            catchThrowableOfType(
                StatusRuntimeException.class,
                () ->
                    fpe.encryptFormatted(
                        EncryptFormattedRequest.newBuilder()
                            .setKeyName("pans")
                            .setValue("4242 4242 4242 424x")
                            .build()));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(refused.getStatus().getDescription())
            .contains("character 19")
            .doesNotContain("4242");

        String metrics = TestServers.get(server, "/metrics").body();
        assertThat(metrics).containsPattern("key=\"pans\"[^}]*mode=\"ff1\"");
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
