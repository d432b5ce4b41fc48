package io.cipherd.server.security;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the gRPC port's TLS identity and (for mutual TLS) client CA live, validated on
 * construction.
 *
 * @param certChain PEM certificate chain the server presents, or null for plaintext
 * @param privateKey PEM (PKCS#8) private key of {@code certChain}, or null for plaintext
 * @param clientCa PEM CA bundle that client certificates must chain to; non-null requires a client
 *     certificate
 * @param reloadPeriod how often the files are read and compared with what is in use (cert-manager
 *     style rotation, a replaced client CA); at least a second
 */
public record TlsConfig(Path certChain, Path privateKey, Path clientCa, Duration reloadPeriod) {
  /** Reading three small files more often than this buys nothing. */
  public static final Duration MIN_RELOAD_PERIOD = Duration.ofSeconds(1);

  /** How often the files are read by default: a replaced client CA reaches open connections so. */
  public static final Duration DEFAULT_RELOAD_PERIOD = Duration.ofSeconds(10);

  /** Plaintext: no TLS at all. */
  public static final TlsConfig NONE =
      new TlsConfig(
          /* certChain= */ null,
          /* privateKey= */ null,
          /* clientCa= */ null,
          DEFAULT_RELOAD_PERIOD);

  public TlsConfig {
    if ((certChain == null) != (privateKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key must be given together");
    }
    if (clientCa != null && certChain == null) {
      throw new IllegalArgumentException(
          "--tls-client-ca needs --tls-cert and --tls-key: mutual TLS is TLS first");
    }
    if (reloadPeriod == null || reloadPeriod.compareTo(MIN_RELOAD_PERIOD) < 0) {
      throw new IllegalArgumentException(
          "TLS reload period must be at least " + MIN_RELOAD_PERIOD + ", got " + reloadPeriod);
    }
    for (Path file : new Path[] {certChain, privateKey, clientCa}) {
      if (file != null && !Files.isReadable(file)) {
        throw new IllegalArgumentException(
            "TLS file " + file + " does not exist or is not readable");
      }
    }
  }

  public boolean enabled() {
    return certChain != null;
  }

  public boolean mutual() {
    return clientCa != null;
  }
}
