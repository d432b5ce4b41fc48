package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.MetadataUtils;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bearer tokens become the caller identity in the call's context; unknown tokens are refused. */
class CallerIdentityInterceptorTest {
  private static final String BILLING_TOKEN = "billing-secret-token";

  private final AtomicReference<String> seen = new AtomicReference<>("not called");
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    BearerTokens tokens =
        new BearerTokens(
            Map.of(
                "billing", HexFormat.of().parseHex(BearerTokens.hashHex(BILLING_TOKEN)),
                "reporting", HexFormat.of().parseHex(BearerTokens.hashHex("reporting-token"))));
    ServerInterceptor capture =
        new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            seen.set(String.valueOf(CallerIdentity.current()));
            return next.startCall(call, headers);
          }
        };
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                ServerInterceptors.intercept(
                    new HealthStatusManager().getHealthService(),
                    capture,
                    new CallerIdentityInterceptor(tokens)))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void knownBearerToken_setsItsNameAsCallerIdentity() {
    call("Bearer " + BILLING_TOKEN);
    assertThat(seen.get()).isEqualTo("billing");
  }

  @Test
  void bearerScheme_isCaseInsensitive() {
    call("bearer reporting-token");
    assertThat(seen.get()).isEqualTo("reporting");
  }

  @Test
  void noCredential_leavesTheCallerAnonymous() {
    call(null);
    assertThat(seen.get()).isEqualTo("null");
  }

  @Test
  void unknownToken_isUnauthenticated_andNeverReachesTheService() {
    assertThatThrownBy(() -> call("Bearer guessed"))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
              assertThat(e.getStatus().getDescription())
                  .contains("not recognised")
                  .doesNotContain("guessed");
            });
    assertThat(seen.get()).isEqualTo("not called");
  }

  @Test
  void otherAuthorizationScheme_isUnauthenticated() {
    assertThatThrownBy(() -> call("Basic " + BILLING_TOKEN))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
  }

  @Test
  void tokenHash_isLowerCaseHexSha256() {
    // printf %s abc | sha256sum
    assertThat(BearerTokens.hashHex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  private void call(String authorization) {
    HealthGrpc.HealthBlockingStub stub = HealthGrpc.newBlockingStub(channel);
    if (authorization != null) {
      Metadata headers = new Metadata();
      headers.put(CallerIdentityInterceptor.AUTHORIZATION, authorization);
      stub = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }
    stub.check(HealthCheckRequest.getDefaultInstance());
  }
}
