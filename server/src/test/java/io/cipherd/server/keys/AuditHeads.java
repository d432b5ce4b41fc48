package io.cipherd.server.keys;

import java.time.Instant;
import java.util.List;

/** Audit heads for the key stores' tests. */
public final class AuditHeads {
  private AuditHeads() {}

  /** A head of {@code trail} at {@code seq}, in one live file. */
  public static AuditHead at(String trail, long seq) {
    return new AuditHead(
        trail,
        seq,
        String.format("%064x", seq),
        "2026-11-26T02:00:00Z",
        seq * 200,
        0,
        "0f".repeat(32),
        List.of(
            new AuditHead.TrailFile("audit.log.20261125T000000.000Z", 0, seq / 2),
            new AuditHead.TrailFile("audit.log", seq / 2 + 1, seq)),
        Instant.parse("2026-11-26T02:00:01.5Z"));
  }
}
