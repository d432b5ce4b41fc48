package io.cipherd.server.api;

import com.google.protobuf.Timestamp;
import io.cipherd.api.v1.AuditTrailFile;
import io.cipherd.api.v1.VerifyAuditCheckpointsResponse;
import io.cipherd.server.keys.AuditHead;

/** An anchored {@link AuditHead} as the API returns it (its byte offset stays inside). */
final class AuditHeadProtos {
  private AuditHeadProtos() {}

  /** Sets {@code response}'s head to {@code head}. */
  static void setHead(VerifyAuditCheckpointsResponse.Builder response, AuditHead head) {
    var proto =
        response
            .getHeadBuilder()
            .setTrail(head.trail())
            .setSeq(head.seq())
            .setHash(head.hash())
            .setTime(head.time())
            .setFirstSeq(head.firstSeq())
            .setFirstHash(head.firstHash())
            .setAnchoredAt(
                Timestamp.newBuilder()
                    .setSeconds(head.anchoredAt().getEpochSecond())
                    .setNanos(head.anchoredAt().getNano()));
    for (AuditHead.TrailFile file : head.files()) {
      proto.addFiles(
          AuditTrailFile.newBuilder()
              .setName(file.name())
              .setFirstSeq(file.firstSeq())
              .setLastSeq(file.lastSeq()));
    }
  }
}
