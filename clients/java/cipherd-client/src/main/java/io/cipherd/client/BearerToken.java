package io.cipherd.client;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.SecurityLevel;
import io.grpc.Status;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A bearer token as call credentials: asked of its supplier at each call (so it may rotate), and
 * sent only over TLS, or in plaintext to a loopback target the caller chose plaintext for.
 */
final class BearerToken extends CallCredentials {
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final Supplier<String> token;
  private final boolean plaintextAllowed;

  BearerToken(Supplier<String> token, boolean plaintextAllowed) {
    this.token = token;
    this.plaintextAllowed = plaintextAllowed;
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
    if (info.getSecurityLevel() != SecurityLevel.PRIVACY_AND_INTEGRITY && !plaintextAllowed) {
      applier.fail(
          Status.UNAUTHENTICATED.withDescription(
              "cipherd: a bearer token is sent only over TLS (or plaintext to a loopback target)"));
      return;
    }
    executor.execute(
        () -> {
          try {
            Metadata headers = new Metadata();
            headers.put(AUTHORIZATION, "Bearer " + token.get());
            applier.apply(headers);
          } catch (RuntimeException e) {
            applier.fail(
                Status.UNAUTHENTICATED
                    .withDescription("cipherd: the token supplier failed")
                    .withCause(e));
          }
        });
  }
}
