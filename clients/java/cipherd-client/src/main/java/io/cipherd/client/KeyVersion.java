package io.cipherd.client;

import java.time.Instant;
import java.util.Optional;

/**
 * One version of a key: its mode (null for a legacy version, which has its {@code legacyCipher}
 * instead) and size, when it was made, its state and its usage; a format-preserving ({@link
 * Mode#FF1}) version's format; a version imported from a derived Vault Transit key's KDF.
 */
public record KeyVersion(
    int version,
    Mode mode,
    Optional<LegacyCipher> legacyCipher,
    int keySizeBits,
    Instant createTime,
    boolean imported,
    KeyVersionState state,
    Optional<Instant> destroyTime,
    KeyUsage usage,
    Optional<FpeFormat> fpeFormat,
    Optional<TransitKdf> transitKdf) {}
