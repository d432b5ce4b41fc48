package io.cipherd.server.api;

import com.google.protobuf.Timestamp;
import io.cipherd.api.v1.AuditCheckpoint;
import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.HashAuditValueRequest;
import io.cipherd.api.v1.HashAuditValueResponse;
import io.cipherd.api.v1.VerifyAuditCheckpointsRequest;
import io.cipherd.api.v1.VerifyAuditCheckpointsResponse;
import io.cipherd.server.audit.AuditKey;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;

/**
 * The gRPC face of the audit key for investigators: the hash records carry for a known context, and
 * whether checkpoints' MACs are the audit key's. Both need the {@code audit} operation, which a
 * policy grants with keys {@code ["*"]} (it is checked against the name {@value #RESOURCE}); the
 * key itself never leaves the server. Without an audit trail the service answers
 * FAILED_PRECONDITION. VerifyAuditCheckpoints also returns the head the key store anchors for the
 * trail asked about (this server's own when none is named), so any replica answers for any trail.
 */
public final class AuditServiceImpl extends AuditServiceGrpc.AuditServiceImplBase {
  /** The name the {@code audit} operation is checked against. */
  public static final String RESOURCE = "cipherd-audit";

  static final int MAX_VALUE_BYTES = 64 << 10;
  static final int MAX_CHECKPOINTS = 10_000;

  private final AuditKey key;
  private final Authorizer authorizer;
  private final CallDispatcher dispatcher;
  private final Clock clock;
  private final AuditStore store;
  private final String trail;

  AuditServiceImpl(CipherdApi.AuditAccess access, CallDispatcher dispatcher) {
    this.key = access.key();
    this.authorizer = access.authorizer();
    this.dispatcher = dispatcher;
    this.clock = access.clock();
    this.store = access.store();
    this.trail = access.trail();
  }

  @Override
  public void hashAuditValue(
      HashAuditValueRequest request, StreamObserver<HashAuditValueResponse> observer) {
    dispatcher.unary(
        true,
        observer,
        () -> {
          AuditKey audit = checked();
          if (request.getValue().size() > MAX_VALUE_BYTES) {
            throw new InvalidArgumentException(
                "value is "
                    + request.getValue().size()
                    + " bytes; at most "
                    + MAX_VALUE_BYTES
                    + " can be hashed");
          }
          byte[] value = request.getValue().toByteArray();
          try {
            return HashAuditValueResponse.newBuilder().setHash(audit.hashContext(value)).build();
          } finally {
            Arrays.fill(value, (byte) 0);
          }
        });
  }

  @Override
  public void verifyAuditCheckpoints(
      VerifyAuditCheckpointsRequest request,
      StreamObserver<VerifyAuditCheckpointsResponse> observer) {
    dispatcher.unaryOnBlockingPool(
        observer,
        () -> {
          AuditKey audit = checked();
          if (request.getCheckpointsCount() > MAX_CHECKPOINTS) {
            throw new InvalidArgumentException(
                request.getCheckpointsCount()
                    + " checkpoints; at most "
                    + MAX_CHECKPOINTS
                    + " are checked in one call");
          }
          int trailBytes = request.getTrail().getBytes(StandardCharsets.UTF_8).length;
          if (trailBytes > AuditHead.MAX_TRAIL_BYTES) {
            throw new InvalidArgumentException(
                "trail is "
                    + trailBytes
                    + " bytes; a trail name is at most "
                    + AuditHead.MAX_TRAIL_BYTES);
          }
          VerifyAuditCheckpointsResponse.Builder response =
              VerifyAuditCheckpointsResponse.newBuilder();
          for (AuditCheckpoint checkpoint : request.getCheckpointsList()) {
            response.addValid(
                audit.verifyCheckpoint(
                    checkpoint.getSeq(),
                    checkpoint.getTime(),
                    checkpoint.getPrev(),
                    checkpoint.getMac()));
          }
          String named = request.getTrail().isEmpty() ? trail : request.getTrail();
          store.readAuditHead(named).ifPresent(head -> AuditHeadProtos.setHead(response, head));
          Instant now = clock.instant();
          return response
              .setCheckedAt(
                  Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
              .build();
        });
  }

  private AuditKey checked() {
    authorizer.check(Operation.AUDIT, RESOURCE);
    if (key == null) {
      throw new AuditOffException();
    }
    return key;
  }
}
