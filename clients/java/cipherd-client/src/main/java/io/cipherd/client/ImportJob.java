package io.cipherd.client;

import java.time.Instant;

/**
 * A one-time permission to import one version of {@code keyName}, wrapped for {@code publicKeyPem}
 * ({@link KeyWrapping#wrap}), until {@code expireTime}. It lives on the server replica that made
 * it: import through the same client (one channel).
 *
 * @param rsaBits the job key's size: 3072 or 4096
 */
public record ImportJob(
    String importJobId, String keyName, int rsaBits, String publicKeyPem, Instant expireTime) {}
