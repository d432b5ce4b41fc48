package io.cipherd.server.security;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Locale;
import java.util.function.Supplier;
import javax.net.ssl.SSLSession;

/**
 * Puts the caller's identity in the call's {@link Context} as {@link CallerIdentity}: the client
 * certificate's identity under mutual TLS, else the name of a recognised bearer token. A bearer
 * token that is not recognised ends the call with UNAUTHENTICATED; no credential at all leaves the
 * caller anonymous, for the access policy to judge (health checks stay open).
 */
public final class CallerIdentityInterceptor implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final String BEARER = "bearer ";

  private final Supplier<BearerTokens> tokens;

  /** {@code tokens} empty: bearer tokens are ignored, as there is nothing to check them against. */
  public CallerIdentityInterceptor(BearerTokens tokens) {
    this(() -> tokens);
  }

  /** Tokens read per call, from the access policy in force. */
  public CallerIdentityInterceptor(Supplier<BearerTokens> tokens) {
    this.tokens = tokens;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    String identity = session == null ? null : CertificateIdentity.of(session);
    BearerTokens known = identity == null ? tokens.get() : BearerTokens.NONE;
    if (!known.isEmpty()) {
      String authorization = headers.get(AUTHORIZATION);
      if (authorization != null) {
        identity = fromBearer(known, authorization);
        if (identity == null) {
          call.close(Status.UNAUTHENTICATED.withDescription(
              "the bearer token is not recognised (expected 'authorization: Bearer <token>')"), new Metadata());
          return new ServerCall.Listener<>() {};
        }
      }
    }
    if (identity == null) {
      return next.startCall(call, headers);
    }
    return Contexts.interceptCall(Context.current().withValue(CallerIdentity.KEY, identity), call, headers, next);
  }

  private static String fromBearer(BearerTokens tokens, String authorization) {
    if (authorization.length() <= BEARER.length()
        || !authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
      return null;
    }
    return tokens.identify(authorization.substring(BEARER.length()).strip());
  }
}
