package io.cipherd.server.api;

import io.cipherd.server.security.BearerTokens;
import io.grpc.Metadata;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;

/**
 * The callers of the access-policy tests, each presenting the bearer token {@code "token-"} and its
 * name: a test's policy names a caller by {@link #tokenHash}, and {@link #as} makes a stub present
 * the caller's token.
 */
final class TokenCallers {
  private TokenCallers() {}

  /** {@code stub} presenting {@code caller}'s token. */
  static <S extends AbstractStub<S>> S as(String caller, S stub) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
        "Bearer token-" + caller);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** The SHA-256 of {@code caller}'s token, as a policy file's {@code token_sha256} names it. */
  static String tokenHash(String caller) {
    return BearerTokens.hashHex("token-" + caller);
  }
}
