package io.cipherd.client;

import static io.cipherd.client.CipherdClient.call;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.AuditCheckpoint;
import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.HashAuditValueRequest;
import io.cipherd.api.v1.VerifyAuditCheckpointsRequest;
import io.cipherd.api.v1.VerifyAuditCheckpointsResponse;
import java.util.List;
import java.util.Optional;

/**
 * The server's side of the audit trail (docs/audit.md): the keyed hash its records carry for a
 * context, and whether checkpoints' MACs are the audit key's. {@link AuditVerifier} checks trail
 * files with these answers. Got from {@link CipherdClient#audit()}.
 */
public final class AuditTrail {
  private final AuditServiceGrpc.AuditServiceBlockingStub audit;

  AuditTrail(AuditServiceGrpc.AuditServiceBlockingStub audit) {
    this.audit = audit;
  }

  /**
   * The keyed hash audit records carry for a context equal to {@code value} ("hmac-sha256:...").
   */
  public String hashValue(byte[] value) {
    return call(
        () ->
            audit
                .hashAuditValue(
                    HashAuditValueRequest.newBuilder().setValue(ByteString.copyFrom(value)).build())
                .getHash());
  }

  /** For each checkpoint, in order, whether its MAC is the audit key's. */
  public List<Boolean> verifyCheckpoints(List<AuditVerifier.Checkpoint> checkpoints) {
    VerifyAuditCheckpointsRequest.Builder request = VerifyAuditCheckpointsRequest.newBuilder();
    for (AuditVerifier.Checkpoint checkpoint : checkpoints) {
      request.addCheckpoints(
          AuditCheckpoint.newBuilder()
              .setSeq(checkpoint.seq())
              .setTime(checkpoint.time())
              .setPrev(checkpoint.prev())
              .setMac(checkpoint.mac()));
    }
    VerifyAuditCheckpointsResponse response =
        call(() -> audit.verifyAuditCheckpoints(request.build()));
    return List.copyOf(response.getValidList());
  }

  /**
   * The head the server's key store holds for {@code trail} ("" for the server's own); empty when
   * it holds none.
   */
  public Optional<AuditHead> head(String trail) {
    VerifyAuditCheckpointsResponse response =
        call(
            () ->
                audit.verifyAuditCheckpoints(
                    VerifyAuditCheckpointsRequest.newBuilder().setTrail(trail).build()));
    return response.hasHead() ? Optional.of(AuditHead.of(response.getHead())) : Optional.empty();
  }
}
