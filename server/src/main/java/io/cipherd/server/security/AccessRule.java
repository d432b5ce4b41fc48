package io.cipherd.server.security;

import java.util.List;
import java.util.Set;

/** One grant of an access policy: these operations on keys matching any of these patterns. */
record AccessRule(List<KeyPattern> keys, Set<Operation> operations) {
  AccessRule {
    keys = List.copyOf(keys);
    operations = Set.copyOf(operations);
  }

  boolean allows(Operation operation, String keyName) {
    if (!operations.contains(operation)) {
      return false;
    }
    for (KeyPattern pattern : keys) {
      if (pattern.matches(keyName)) {
        return true;
      }
    }
    return false;
  }
}
