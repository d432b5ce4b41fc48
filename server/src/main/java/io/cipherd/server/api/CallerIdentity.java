package io.cipherd.server.api;

import io.grpc.Context;

/**
 * Who is calling: the client certificate's first DNS/URI SAN (else its CN) under mutual TLS, or the
 * name of the bearer token the caller presented. Set in the call's gRPC {@link Context} by
 * {@code security.CallerIdentityInterceptor}; absent for anonymous callers.
 */
public final class CallerIdentity {
  /** The caller's identity in the current call's context; null when the caller is anonymous. */
  public static final Context.Key<String> KEY = Context.key("cipherd-caller-identity");

  private CallerIdentity() {}

  /** The current call's caller identity, or null if the caller presented none. */
  public static String current() {
    return KEY.get();
  }
}
