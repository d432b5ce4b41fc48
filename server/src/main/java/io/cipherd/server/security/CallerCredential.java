package io.cipherd.server.security;

import io.grpc.Context;
import java.util.function.Supplier;

/**
 * What a caller presented when its call started, its bearer token (kept as its SHA-256 only) or its
 * client certificate's name, checked again whenever the access policy in force is another than the
 * one it was last checked against. A call is authenticated when it starts, and a stream may run for
 * hours: its items are served only while the policy in force still names the same caller by the
 * same credential. A token replaced or removed, or a certificate name that became a token caller's,
 * makes every item from the first one after the reload is logged UNAUTHENTICATED, as a new call
 * with that credential would be. While the policy stays the same a check is one reference
 * comparison.
 */
final class CallerCredential {
  static final Context.Key<CallerCredential> KEY = Context.key("cipherd-caller-credential");

  /** The outcome of checking against one policy's tokens (each reload makes new ones). */
  private record Check(BearerTokens against, boolean holds) {}

  private final Supplier<BearerTokens> tokens;
  private final String identity;

  /** SHA-256 of the bearer token; null for a client certificate. */
  private final byte[] tokenHash;

  private volatile Check last;

  private CallerCredential(
      Supplier<BearerTokens> tokens, BearerTokens checked, String identity, byte[] tokenHash) {
    this.tokens = tokens;
    this.identity = identity;
    this.tokenHash = tokenHash;
    this.last = new Check(checked, true);
  }

  /** {@code identity}, named by the token whose SHA-256 is {@code tokenHash} in {@code checked}. */
  static CallerCredential token(
      Supplier<BearerTokens> tokens, BearerTokens checked, String identity, byte[] tokenHash) {
    return new CallerCredential(tokens, checked, identity, tokenHash.clone());
  }

  /** {@code identity}, named by a client certificate that {@code checked} let name it. */
  static CallerCredential certificate(
      Supplier<BearerTokens> tokens, BearerTokens checked, String identity) {
    return new CallerCredential(tokens, checked, identity, null);
  }

  /** The current call's credential, or null if its caller presented none. */
  static CallerCredential current() {
    return KEY.get();
  }

  /** Whether the access policy in force still names the caller by this credential. */
  boolean holds() {
    BearerTokens now = tokens.get();
    Check check = last;
    if (check.against() == now) {
      return check.holds();
    }
    boolean holds =
        tokenHash != null
            ? identity.equals(now.identifyHash(tokenHash))
            : !now.namesCaller(identity);
    last = new Check(now, holds);
    return holds;
  }
}
