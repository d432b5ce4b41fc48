package io.cipherd.server.audit;

/**
 * Where a record landed in the trail: its trail, sequence number and chain hash (the SHA-256 of its
 * line, which the next line's {@code prev} repeats), so a receipt can be checked against the trail.
 */
public record AuditReceipt(String trail, long seq, String recordHash) {}
