package io.cipherd.server.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Records subject erasures in the trail, each before its call answers. */
public interface ErasureAudit {
  /** Without a trail: records nothing, gives no receipt. */
  ErasureAudit NONE =
      new ErasureAudit() {
        @Override
        public String hashSubject(byte[] subject) {
          return null;
        }

        @Override
        public List<AuditReceipt> recordErasures(
            Instant time, String keyName, List<String> subjectHashes) {
          return new ArrayList<>(Collections.nCopies(subjectHashes.size(), null));
        }
      };

  /**
   * The audit key's hash of a subject id's UTF-8 bytes (HashAuditValue's); null without a trail.
   */
  String hashSubject(byte[] subject);

  /**
   * Writes the erasure of each subject of {@code subjectHashes} ({@link #hashSubject}) under {@code
   * keyName}, all queued at once, and waits until they are durable; their receipts in order, or
   * nulls without a trail. Throws {@link AuditUnavailableException} when they could not be written.
   */
  List<AuditReceipt> recordErasures(Instant time, String keyName, List<String> subjectHashes);
}
