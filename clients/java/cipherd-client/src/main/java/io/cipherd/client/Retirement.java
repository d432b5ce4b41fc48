package io.cipherd.client;

import java.util.List;

/**
 * What retireKeyVersions did (or, validating only, would do): the key after it and the versions
 * retired.
 */
public record Retirement(Key key, List<Integer> retiredVersions) {}
