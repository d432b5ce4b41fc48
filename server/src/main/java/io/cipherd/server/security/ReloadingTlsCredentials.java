package io.cipherd.server.security;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import io.grpc.util.CertificateUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS server credentials whose certificate, key and client CA are re-read from their PEM files when
 * their content changes, so a rotated certificate is served and a replaced CA trusted without a
 * restart. Changes are found by content ({@link WatchedFile}), not modification time. A change that
 * does not load (a file caught half-written, a key that does not match the certificate) is logged
 * and ignored: the credentials in use stay until a write that loads. Each reload is logged with the
 * files, the new certificate's subject and expiry and the CA's subjects, never key material.
 *
 * <p>A new client CA applies to new handshakes; connections made under the old one are the {@link
 * #onClientCaChange} listener's (see {@link TrustedConnections}).
 */
public final class ReloadingTlsCredentials implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReloadingTlsCredentials.class);

  private final ServerCredentials credentials;
  private final ScheduledExecutorService reloader;
  private final AdvancedTlsX509KeyManager keys;
  private final AdvancedTlsX509TrustManager trust;
  private final WatchedFile certChain;
  private final WatchedFile privateKey;
  private final WatchedFile clientCa;
  private volatile Consumer<X509TrustManager> clientCaChanged = trust -> {};

  private ReloadingTlsCredentials(TlsConfig config) throws IOException, GeneralSecurityException {
    certChain = WatchedFile.read(config.certChain());
    privateKey = WatchedFile.read(config.privateKey());
    keys = new AdvancedTlsX509KeyManager();
    Identity identity = identity(certChain.content(), privateKey.content());
    keys.updateIdentityCredentials(identity.chain(), identity.key());
    TlsServerCredentials.Builder builder = TlsServerCredentials.newBuilder().keyManager(keys);
    if (config.mutual()) {
      clientCa = WatchedFile.read(config.clientCa());
      trust =
          AdvancedTlsX509TrustManager.newBuilder()
              .setVerification(
                  AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
              .build();
      trust.updateTrustCredentials(authorities(clientCa.content()));
      builder.trustManager(trust).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    } else {
      clientCa = null;
      trust = null;
    }
    credentials = builder.build();
    reloader =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "cipherd-tls-reload");
              thread.setDaemon(true);
              return thread;
            });
    log.info("TLS loaded: {}", describe(identity.chain()));
    if (clientCa != null) {
      log.info(
          "TLS client CA loaded from {}: {}",
          clientCa.path(),
          subjects(authorities(clientCa.content())));
    }
  }

  /**
   * Loads the files now (failing fast on a bad file) and checks them for changes every {@code
   * config.reloadPeriod()}.
   */
  public static ReloadingTlsCredentials load(TlsConfig config) throws IOException {
    if (!config.enabled()) {
      throw new IllegalArgumentException("TLS is not configured");
    }
    ReloadingTlsCredentials tls;
    try {
      tls = new ReloadingTlsCredentials(config);
    } catch (GeneralSecurityException | IOException | RuntimeException e) {
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
    long period = config.reloadPeriod().toMillis();
    tls.reloader.scheduleWithFixedDelay(
        tls::reloadIfChanged, period, period, TimeUnit.MILLISECONDS);
    return tls;
  }

  public ServerCredentials credentials() {
    return credentials;
  }

  /**
   * {@code listener} is given the client CA's trust now, and the new one's each time one is
   * applied, on the reload thread, after new handshakes use it.
   */
  public synchronized void onClientCaChange(Consumer<X509TrustManager> listener)
      throws IOException {
    clientCaChanged = listener;
    if (clientCa != null) {
      try {
        listener.accept(verifier(authorities(clientCa.content())));
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot load TLS client CA " + clientCa.path(), e);
      }
    }
  }

  /** Reads the files and applies what changed; public for tests. One thread at a time. */
  public synchronized void reloadIfChanged() {
    try {
      // Both read each time: a certificate and its key written one after the other apply together.
      boolean certChanged = certChain.changed() != null;
      boolean keyChanged = privateKey.changed() != null;
      if (certChanged || keyChanged) {
        Identity identity = identity(certChain.content(), privateKey.content());
        keys.updateIdentityCredentials(identity.chain(), identity.key());
        log.info(
            "TLS reloaded {} and {}: now serving {}; existing connections keep theirs",
            certChain.path(),
            privateKey.path(),
            describe(identity.chain()));
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      log.error(
          "TLS certificate {} or key {} changed but was not applied; the previous ones stay in use: {}",
          certChain.path(),
          privateKey.path(),
          e.getMessage());
    }
    if (clientCa == null) {
      return;
    }
    try {
      if (clientCa.changed() != null) {
        X509Certificate[] authorities = authorities(clientCa.content());
        trust.updateTrustCredentials(authorities);
        log.info(
            "TLS reloaded client CA {}: now trusting {}; connections whose client certificate it"
                + " does not verify are closed",
            clientCa.path(),
            subjects(authorities));
        clientCaChanged.accept(verifier(authorities));
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      log.error(
          "TLS client CA {} changed but was not applied; the previous one stays in use: {}",
          clientCa.path(),
          e.getMessage());
    }
  }

  /** Stops watching the files. */
  @Override
  public void close() {
    reloader.shutdownNow();
  }

  private record Identity(X509Certificate[] chain, PrivateKey key) {}

  /** The chain and its key, checked to belong together. */
  private static Identity identity(byte[] chainPem, byte[] keyPem)
      throws IOException, GeneralSecurityException {
    X509Certificate[] chain = certificates(chainPem, "certificate chain");
    PrivateKey key = CertificateUtils.getPrivateKey(new ByteArrayInputStream(keyPem));
    if (key == null) {
      throw new GeneralSecurityException("the key file holds no PEM private key");
    }
    checkPair(chain[0], key);
    return new Identity(chain, key);
  }

  private static X509Certificate[] authorities(byte[] pem) throws GeneralSecurityException {
    return certificates(pem, "client CA");
  }

  private static X509Certificate[] certificates(byte[] pem, String what)
      throws GeneralSecurityException {
    X509Certificate[] certificates =
        CertificateUtils.getX509Certificates(new ByteArrayInputStream(pem));
    if (certificates.length == 0) {
      throw new GeneralSecurityException("the " + what + " file holds no PEM certificate");
    }
    return certificates;
  }

  /** Throws unless {@code key} signs what {@code certificate}'s public key verifies. */
  private static void checkPair(X509Certificate certificate, PrivateKey key)
      throws GeneralSecurityException {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null) {
      return;
    }
    byte[] probe = "cipherd key check".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(probe);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(certificate.getPublicKey());
    verifier.update(probe);
    if (!verifier.verify(signature)) {
      throw new GeneralSecurityException(
          "the private key does not match the certificate " + subject(certificate));
    }
  }

  /** A PKIX check against {@code authorities} alone, for connections already open. */
  private static X509TrustManager verifier(X509Certificate[] authorities)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    for (int i = 0; i < authorities.length; i++) {
      store.setCertificateEntry("ca-" + i, authorities[i]);
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager for the client CA");
  }

  private static String describe(X509Certificate[] chain) {
    return "certificate " + subject(chain[0]) + ", expires " + chain[0].getNotAfter().toInstant();
  }

  private static List<String> subjects(X509Certificate[] certificates) {
    return Arrays.stream(certificates).map(ReloadingTlsCredentials::subject).toList();
  }

  private static String subject(X509Certificate certificate) {
    return "'" + certificate.getSubjectX500Principal().getName() + "'";
  }
}
