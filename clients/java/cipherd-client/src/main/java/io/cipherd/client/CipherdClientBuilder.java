package io.cipherd.client;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannelBuilder;
import io.grpc.TlsChannelCredentials;
import io.opentelemetry.api.OpenTelemetry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Builds a {@link CipherdClient}. Plaintext only when asked for ({@link #plaintext()}) or, without
 * TLS settings, to a loopback target; any other target gets TLS with the system roots, so
 * plaintexts and tokens never cross a network unencrypted by default (the server refuses plaintext
 * off loopback too).
 *
 * <pre>{@code
 * CipherdClient client = CipherdClient.builder("cipherd.internal:50051")
 *     .trustedCertificates(Path.of("ca.pem"))
 *     .clientCertificate(Path.of("client.pem"), Path.of("client-key.pem"))  // mutual TLS
 *     .bearerToken(() -> tokens.current())
 *     .defaultDeadline(Duration.ofSeconds(5))
 *     .openTelemetry(GlobalOpenTelemetry.get())                               // traces
 *     .build();
 * }</pre>
 */
public final class CipherdClientBuilder {
  private static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  private final String target;
  private boolean plaintext;
  private byte[] trustedCertificates;
  private byte[] certificateChain;
  private byte[] privateKey;
  private String authority;
  private Supplier<String> token;
  private Duration defaultDeadline = Duration.ofSeconds(30);
  private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
  private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
  private OpenTelemetry openTelemetry;

  CipherdClientBuilder(String target) {
    this.target = Objects.requireNonNull(target, "target");
  }

  /**
   * No TLS, even to a target off loopback (where the server refuses it): for tests and sidecars.
   */
  public CipherdClientBuilder plaintext() {
    this.plaintext = true;
    return this;
  }

  /** TLS trusting the CA certificates in this PEM file instead of the system roots. */
  public CipherdClientBuilder trustedCertificates(Path pem) {
    this.trustedCertificates = read(pem);
    return this;
  }

  /** Mutual TLS: this certificate chain and PKCS#8 private key (PEM files) identify the client. */
  public CipherdClientBuilder clientCertificate(Path certificateChainPem, Path privateKeyPem) {
    this.certificateChain = read(certificateChainPem);
    this.privateKey = read(privateKeyPem);
    return this;
  }

  /** The name the server's certificate must carry, when it is not the target's host. */
  public CipherdClientBuilder overrideAuthority(String authority) {
    this.authority = authority;
    return this;
  }

  /**
   * A bearer token for the access policy, asked of {@code token} at each call (so it may rotate);
   * sent only over TLS, or in plaintext to a loopback target.
   */
  public CipherdClientBuilder bearerToken(Supplier<String> token) {
    this.token = Objects.requireNonNull(token, "token");
    return this;
  }

  /** The deadline of each unary call that sets none (30 s unless set); streams get none. */
  public CipherdClientBuilder defaultDeadline(Duration deadline) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("the default deadline must be positive");
    }
    this.defaultDeadline = deadline;
    return this;
  }

  /** How UNAVAILABLE calls are retried ({@link RetryPolicy#DEFAULT} unless set). */
  public CipherdClientBuilder retryPolicy(RetryPolicy policy) {
    this.retryPolicy = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /** The largest message sent or received (16 MiB unless set, as the server's limit). */
  public CipherdClientBuilder maxMessageBytes(int bytes) {
    this.maxMessageBytes = bytes;
    return this;
  }

  /**
   * Traces every call with grpc-java's OpenTelemetry module through {@code openTelemetry}'s tracer
   * provider: a client span per call, a child of the caller's current span, whose context goes to
   * cipherd as a W3C {@code traceparent} (whatever {@code openTelemetry}'s propagators are), so a
   * cipherd with tracing on makes its server span a child of it. Off unless set.
   */
  public CipherdClientBuilder openTelemetry(OpenTelemetry openTelemetry) {
    this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
    return this;
  }

  public CipherdClient build() {
    boolean tlsSettings = trustedCertificates != null || certificateChain != null;
    if (plaintext && tlsSettings) {
      throw new IllegalStateException("plaintext() conflicts with the TLS settings");
    }
    boolean insecure = plaintext || (!tlsSettings && Loopback.is(target));
    ManagedChannelBuilder<?> channel = Grpc.newChannelBuilder(target, credentials(insecure));
    if (authority != null) {
      channel.overrideAuthority(authority);
    }
    channel
        .maxInboundMessageSize(maxMessageBytes)
        .intercept(new DefaultDeadline(defaultDeadline))
        .defaultServiceConfig(retryPolicy.serviceConfig());
    if (openTelemetry != null) {
      Tracing.configure(channel, openTelemetry);
    }
    if (retryPolicy.maxAttempts() > 1) {
      channel.enableRetry().maxRetryAttempts(retryPolicy.maxAttempts());
    } else {
      channel.disableRetry();
    }
    return new CipherdClient(channel.build(), callCredentials(insecure));
  }

  private io.grpc.CallCredentials callCredentials(boolean insecure) {
    return token == null ? null : new BearerToken(token, insecure && Loopback.is(target));
  }

  private ChannelCredentials credentials(boolean insecure) {
    if (insecure) {
      return InsecureChannelCredentials.create();
    }
    TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder();
    try {
      if (trustedCertificates != null) {
        tls.trustManager(new ByteArrayInputStream(trustedCertificates));
      }
      if (certificateChain != null) {
        tls.keyManager(
            new ByteArrayInputStream(certificateChain), new ByteArrayInputStream(privateKey));
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cipherd: the TLS certificates do not parse", e);
    }
    return tls.build();
  }

  private static byte[] read(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cipherd: cannot read " + path, e);
    }
  }
}
