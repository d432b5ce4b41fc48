package io.cipherd.server.subjects;

/**
 * A sweep's change to one live subject key: wrapped under {@code toVersion} instead of {@code
 * fromVersion}, applied only if the row is still live and still at {@code fromVersion}.
 */
public record SubjectRewrap(SubjectRef ref, int fromVersion, String wrappedKey, int toVersion) {}
