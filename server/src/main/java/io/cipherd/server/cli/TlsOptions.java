package io.cipherd.server.cli;

import io.cipherd.server.security.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code --tls-*} options of the gRPC port; each has a CIPHERD_TLS_* variable. */
public final class TlsOptions {
  @Option(
      names = "--tls-cert",
      defaultValue = "${env:CIPHERD_TLS_CERT}",
      description =
          "PEM certificate chain for TLS on the gRPC port (CIPHERD_TLS_CERT); reloaded when it changes.")
  Path tlsCert;

  @Option(
      names = "--tls-key",
      defaultValue = "${env:CIPHERD_TLS_KEY}",
      description =
          "PEM (PKCS#8) private key of --tls-cert (CIPHERD_TLS_KEY); reloaded when it changes.")
  Path tlsKey;

  @Option(
      names = "--tls-client-ca",
      defaultValue = "${env:CIPHERD_TLS_CLIENT_CA}",
      description =
          "PEM CA bundle; enables mutual TLS: every client must present a certificate it signed "
              + "(CIPHERD_TLS_CLIENT_CA).")
  Path tlsClientCa;

  @Option(
      names = "--tls-reload-period",
      defaultValue = "${env:CIPHERD_TLS_RELOAD_PERIOD:-PT10S}",
      description =
          "How often the TLS files are read and compared by content, ISO-8601, at least PT1S "
              + "(CIPHERD_TLS_RELOAD_PERIOD). A new client CA closes, within this plus 5 s, the connections whose "
              + "certificate it does not verify. Default: ${DEFAULT-VALUE}.")
  Duration tlsReloadPeriod;

  /** The validated TLS settings; none set means plaintext. */
  TlsConfig toConfig() {
    return new TlsConfig(tlsCert, tlsKey, tlsClientCa, tlsReloadPeriod);
  }
}
