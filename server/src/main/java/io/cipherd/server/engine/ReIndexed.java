package io.cipherd.server.engine;

/**
 * A ciphertext's plaintext indexed inside the server: the blind index and the version the
 * ciphertext was under.
 *
 * @param indexed the blind index and the index key version that computed it
 * @param sourceVersion the version of the ciphertext's key it was under
 */
public record ReIndexed(Indexed indexed, int sourceVersion) {}
