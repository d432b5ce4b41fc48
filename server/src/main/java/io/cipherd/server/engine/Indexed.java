package io.cipherd.server.engine;

/**
 * A blind index and the index key version that computed it.
 *
 * @param keyVersion the version of the index key
 * @param index the truncated HMAC
 */
public record Indexed(int keyVersion, byte[] index) {}
