package io.cipherd.client;

import java.time.Instant;
import java.util.Optional;

/** How much a key version was used, summed over every replica. */
public record KeyUsage(
    long encryptions,
    long decryptions,
    long rewraps,
    long indexes,
    long indexLookups,
    long failures,
    Optional<Instant> lastUsedTime) {}
