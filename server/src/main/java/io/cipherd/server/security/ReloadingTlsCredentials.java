package io.cipherd.server.security;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.Closeable;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * TLS server credentials whose certificate, key and client CA are re-read from their PEM files when
 * those change, so a rotated certificate is served without a restart. The file watching is
 * grpc-java's own ({@link AdvancedTlsX509KeyManager}, {@link AdvancedTlsX509TrustManager}).
 */
public final class ReloadingTlsCredentials implements AutoCloseable {
  private final ServerCredentials credentials;
  private final ScheduledExecutorService reloader;
  private final List<Closeable> watches;

  private ReloadingTlsCredentials(
      ServerCredentials credentials, ScheduledExecutorService reloader, List<Closeable> watches) {
    this.credentials = credentials;
    this.reloader = reloader;
    this.watches = watches;
  }

  /** Loads the files now (failing fast on a bad file) and starts watching them. */
  public static ReloadingTlsCredentials load(TlsConfig config) throws IOException {
    if (!config.enabled()) {
      throw new IllegalArgumentException("TLS is not configured");
    }
    ScheduledExecutorService reloader =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "cipherd-tls-reload");
              thread.setDaemon(true);
              return thread;
            });
    List<Closeable> watches = new ArrayList<>();
    long period = config.reloadPeriod().toMillis();
    try {
      AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
      watches.add(
          keys.updateIdentityCredentials(
              config.certChain().toFile(),
              config.privateKey().toFile(),
              period,
              TimeUnit.MILLISECONDS,
              reloader));
      TlsServerCredentials.Builder builder = TlsServerCredentials.newBuilder().keyManager(keys);
      if (config.mutual()) {
        AdvancedTlsX509TrustManager trust =
            AdvancedTlsX509TrustManager.newBuilder()
                .setVerification(
                    AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
                .build();
        watches.add(
            trust.updateTrustCredentials(
                config.clientCa().toFile(), period, TimeUnit.MILLISECONDS, reloader));
        builder.trustManager(trust).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
      }
      return new ReloadingTlsCredentials(builder.build(), reloader, watches);
    } catch (GeneralSecurityException | IOException | RuntimeException e) {
      closeAll(watches);
      reloader.shutdownNow();
      throw new IOException(
          "cannot load TLS files ("
              + config.certChain()
              + ", "
              + config.privateKey()
              + (config.mutual() ? ", " + config.clientCa() : "")
              + "): "
              + e.getMessage(),
          e);
    }
  }

  public ServerCredentials credentials() {
    return credentials;
  }

  /** Stops watching the files. */
  @Override
  public void close() {
    closeAll(watches);
    reloader.shutdownNow();
  }

  private static void closeAll(List<Closeable> watches) {
    for (Closeable watch : watches) {
      try {
        watch.close();
      } catch (IOException ignored) {
        // Only cancels a scheduled task.
      }
    }
  }
}
