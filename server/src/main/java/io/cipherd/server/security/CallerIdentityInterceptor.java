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
import java.util.Set;
import java.util.function.Supplier;
import javax.net.ssl.SSLSession;

/**
 * Puts the caller's identity in the call's {@link Context} as {@link CallerIdentity}: the client
 * certificate's identity under mutual TLS, else the name of a recognised bearer token. A bearer
 * token that is not recognised ends the call with UNAUTHENTICATED, and so does a certificate whose
 * identity is the name of a token caller: certificates and tokens name different callers, so a CA
 * that signs {@code CN=ops} does not make its holder the token caller {@code ops}.
 *
 * <p>With an access policy, a call to a guarded service (the crypto and key-admin APIs) from a
 * caller with no identity ends with UNAUTHENTICATED here, before its request is read: the policy
 * grants an anonymous caller nothing, so nothing it sent needs reading. Health and reflection stay
 * open to a caller with no identity; a wrong credential is refused on every service, those two
 * included, so a caller learns at once that its credential is what fails.
 *
 * <p>What the caller presented goes into the context too ({@link CallerCredential}): the access
 * policy checks it again when the policy changes, so a call or stream that outlives its token is
 * refused from then on.
 */
public final class CallerIdentityInterceptor implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final String BEARER = "bearer ";

  /**
   * How a refused call is closed: with the refusal's status and the error details the API gives
   * every error.
   */
  @FunctionalInterface
  public interface Refusals {
    /** A status with no details, for tests that need no more. */
    Refusals PLAIN =
        (call, refusal) ->
            call.close(
                Status.UNAUTHENTICATED.withDescription(refusal.getMessage()), new Metadata());

    void close(ServerCall<?, ?> call, UnauthenticatedException refusal);
  }

  private final Supplier<BearerTokens> tokens;
  private final Set<String> guardedServices;
  private final AccessDenials denials;
  private final Refusals refusals;

  /** {@code tokens} empty: bearer tokens are ignored, as there is nothing to check them against. */
  public CallerIdentityInterceptor(BearerTokens tokens) {
    this(() -> tokens, Set.of(), new AccessDenials(), Refusals.PLAIN);
  }

  /**
   * Tokens read per call, from the access policy in force; anonymous calls to {@code
   * guardedServices} (full service names) are refused and counted in {@code denials}; {@code
   * refusals} closes refused calls.
   */
  public CallerIdentityInterceptor(
      Supplier<BearerTokens> tokens,
      Set<String> guardedServices,
      AccessDenials denials,
      Refusals refusals) {
    this.tokens = tokens;
    this.guardedServices = Set.copyOf(guardedServices);
    this.denials = denials;
    this.refusals = refusals;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    String identity = session == null ? null : CertificateIdentity.of(session);
    BearerTokens known = tokens.get();
    byte[] tokenHash = null;
    if (identity != null && known.namesCaller(identity)) {
      return refuse(
          call,
          "the client certificate names '"
              + CallerIdentity.shortened(identity)
              + "', which the "
              + "access policy knows as a bearer-token caller: certificates and tokens name different callers");
    }
    if (identity == null && !known.isEmpty()) {
      String authorization = headers.get(AUTHORIZATION);
      if (authorization != null) {
        tokenHash = bearerHash(authorization);
        identity = tokenHash == null ? null : known.identifyHash(tokenHash);
        if (identity == null) {
          return refuse(
              call,
              "the bearer token is not recognised (expected 'authorization: Bearer <token>')");
        }
      }
    }
    if (identity == null) {
      if (guardedServices.contains(call.getMethodDescriptor().getServiceName())) {
        denials.recordAnonymous();
        return refuse(
            call,
            "this server has an access policy and the caller presented no identity: "
                + UnauthenticatedException.HOW);
      }
      return next.startCall(call, headers);
    }
    CallerCredential credential =
        tokenHash != null
            ? CallerCredential.token(tokens, known, identity, tokenHash)
            : CallerCredential.certificate(tokens, known, identity);
    return Contexts.interceptCall(
        Context.current()
            .withValues(CallerIdentity.KEY, identity, CallerCredential.KEY, credential),
        call,
        headers,
        next);
  }

  private <ReqT> ServerCall.Listener<ReqT> refuse(ServerCall<ReqT, ?> call, String why) {
    refusals.close(call, new UnauthenticatedException(why));
    return new ServerCall.Listener<>() {};
  }

  /** SHA-256 of the bearer token in {@code authorization}, or null if it holds none. */
  private static byte[] bearerHash(String authorization) {
    if (authorization.length() <= BEARER.length()
        || !authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
      return null;
    }
    return BearerTokens.sha256(authorization.substring(BEARER.length()).strip());
  }
}
