package io.cipherd.client;

/**
 * A value {@link FormattedValues#reEncrypt} moved to the key's current version: the new value and
 * its version, and the version it came from.
 */
public record FormattedRewrapped(FormattedValue formatted, int sourceKeyVersion) {}
