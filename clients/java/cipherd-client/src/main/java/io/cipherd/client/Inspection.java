package io.cipherd.client;

/**
 * What the server says of a ciphertext's header: its key, version and mode, and the key's current
 * version.
 */
public record Inspection(
    String keyName, int keyVersion, Mode mode, int currentVersion, boolean behindCurrent) {}
