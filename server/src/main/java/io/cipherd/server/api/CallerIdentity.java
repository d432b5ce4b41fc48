package io.cipherd.server.api;

import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.ServerCall;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Who is calling, as the access log names them. An authenticating interceptor sets {@link #KEY} in
 * the call's {@link Context} (for example to the client certificate's SAN or a token's name), with
 * {@code Contexts.interceptCall}; without one, the caller is its peer address.
 *
 * <p>For the access log to see every call, the authenticating interceptor must run inside it: add it
 * in {@code CipherdServices.addTo} before the access log's {@code intercept}. A call it rejects
 * should be closed with {@link #KEY} already in the current context, e.g. {@code
 * Context.current().withValue(CallerIdentity.KEY, id).run(() -> call.close(status, trailers))}.
 */
public final class CallerIdentity {
  /** The authenticated caller's name, set by whatever authenticates the call. */
  public static final Context.Key<String> KEY = Context.key("cipherd-caller-identity");

  private CallerIdentity() {}

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
