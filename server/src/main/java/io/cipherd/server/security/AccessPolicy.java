package io.cipherd.server.security;

import java.util.List;
import java.util.Map;

/**
 * Which caller may do what with which keys. Default deny: a caller not named, or named without a
 * matching rule, may do nothing. Built by {@link AccessPolicyFile}.
 */
public final class AccessPolicy {
  private final Map<String, List<AccessRule>> rules;
  private final BearerTokens tokens;

  AccessPolicy(Map<String, List<AccessRule>> rules, BearerTokens tokens) {
    this.rules = Map.copyOf(rules);
    this.tokens = tokens;
  }

  /** Whether {@code caller} may perform {@code operation} with key {@code keyName}. */
  public boolean allows(String caller, Operation operation, String keyName) {
    List<AccessRule> granted = rules.get(caller);
    if (granted == null) {
      return false;
    }
    for (AccessRule rule : granted) {
      if (rule.allows(operation, keyName)) {
        return true;
      }
    }
    return false;
  }

  /** The bearer tokens this policy accepts. */
  public BearerTokens tokens() {
    return tokens;
  }

  /** How many callers the policy names, for the start-up log. */
  public int callers() {
    return rules.size();
  }
}
