package io.cipherd.client;

import java.time.Instant;
import java.util.Optional;

/**
 * What {@link Subjects#get} says of a subject: its state, when its (current, or erased) key was
 * made (empty for NO_KEY), when it was erased (ERASED only) and the key version that wraps its key
 * now (0 unless ACTIVE). It does not hold the subject.
 */
public record SubjectStatus(
    SubjectState state,
    Optional<Instant> createTime,
    Optional<Instant> eraseTime,
    int keyVersion) {}
