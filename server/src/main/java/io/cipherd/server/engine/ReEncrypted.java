package io.cipherd.server.engine;

/**
 * A ciphertext rewrapped to another key version.
 *
 * @param encrypted the new ciphertext
 * @param sourceVersion the version the old ciphertext was under
 */
public record ReEncrypted(Encrypted encrypted, int sourceVersion) {}
