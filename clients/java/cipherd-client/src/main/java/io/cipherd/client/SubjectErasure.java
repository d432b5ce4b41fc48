package io.cipherd.client;

import java.time.Instant;
import java.util.Optional;

/**
 * The outcome of erasing one subject: the erase time (empty for {@link ErasureOutcome#NO_KEY}) and,
 * for {@link ErasureOutcome#ERASED} on a server with an audit trail, the receipt.
 */
public record SubjectErasure(
    ErasureOutcome outcome, Optional<Instant> eraseTime, Optional<ErasureReceipt> receipt) {}
