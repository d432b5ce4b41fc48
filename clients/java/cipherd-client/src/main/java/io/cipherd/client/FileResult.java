package io.cipherd.client;

/**
 * What encryptFile or decryptFile did: the key and version that wrap the file's data key, and the
 * plaintext bytes read or written.
 */
public record FileResult(String keyName, int keyVersion, long plaintextBytes) {}
