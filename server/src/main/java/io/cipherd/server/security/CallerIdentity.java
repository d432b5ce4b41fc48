package io.cipherd.server.security;

import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.ServerCall;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Who is calling: the client certificate's first DNS/URI SAN (else its CN) under mutual TLS, or the
 * name of the bearer token the caller presented. {@code security.CallerIdentityInterceptor} sets
 * {@link #KEY} in the call's gRPC {@link Context}; it is absent for anonymous callers, whom the
 * access log names by peer address instead.
 *
 * <p>For the access log to see the identity, the identity interceptor runs inside it: {@code
 * Cipherd.addTo} adds it before the access log's {@code intercept} (the last added runs first).
 */
public final class CallerIdentity {
  /** The caller's identity in the current call's context; null when the caller is anonymous. */
  public static final Context.Key<String> KEY = Context.key("cipherd-caller-identity");

  private CallerIdentity() {}

  /** The current call's caller identity, or null if the caller presented none. */
  public static String current() {
    return KEY.get();
  }

  /** Longest caller name that messages repeat: a certificate's SAN can be kilobytes long. */
  private static final int SHOWN_LENGTH = 128;

  /** {@code caller} as a message shows it: cut to 128 characters, saying how long it was. */
  public static String shortened(String caller) {
    return caller.length() <= SHOWN_LENGTH
        ? caller
        : caller.substring(0, SHOWN_LENGTH) + "...(" + caller.length() + " characters)";
  }

  /** The identity in the current context, or {@code call}'s peer address when none was set. */
  public static String of(ServerCall<?, ?> call) {
    String identity = KEY.get();
    return identity != null ? identity : peer(call);
  }

  /** The peer's address as {@code host:port}, or {@code unknown}. */
  public static String peer(ServerCall<?, ?> call) {
    SocketAddress address = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    if (address instanceof InetSocketAddress inet) {
      return inet.getAddress() == null
          ? inet.getHostString() + ":" + inet.getPort()
          : inet.getAddress().getHostAddress() + ":" + inet.getPort();
    }
    return address == null ? "unknown" : address.toString();
  }
}
