package io.cipherd.client;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway CA, a server certificate for 127.0.0.1/localhost and client certificates, as PEM
 * files.
 */
final class TestPki {
  /** A certificate and its PKCS#8 key (the only key format the server reads). */
  record Pem(Path cert, Path key) {}

  private final Path dir;
  private final KeyPair caKey;
  private final X500Name caName = new X500Name("CN=cipherd java test CA");
  final Pem ca;

  TestPki(Path dir) throws Exception {
    this.dir = Files.createDirectories(dir);
    this.caKey = keyPair();
    X509Certificate cert =
        sign(
            caName,
            caKey,
            new JcaX509v3CertificateBuilder(
                    caName, serial(), start(), end(), caName, caKey.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true)));
    this.ca = write("ca", cert, caKey);
  }

  /** A leaf for {@code dns} (and 127.0.0.1 when {@code server}). */
  Pem issue(String stem, String dns, boolean server) throws Exception {
    KeyPair key = keyPair();
    X500Name subject = new X500Name("CN=" + dns);
    GeneralNames names =
        server
            ? new GeneralNames(
                new GeneralName[] {
                  new GeneralName(GeneralName.dNSName, dns),
                  new GeneralName(GeneralName.iPAddress, "127.0.0.1")
                })
            : new GeneralNames(new GeneralName(GeneralName.dNSName, dns));
    X509Certificate cert =
        sign(
            caName,
            caKey,
            new JcaX509v3CertificateBuilder(
                    caName, serial(), start(), end(), subject, key.getPublic())
                .addExtension(Extension.subjectAlternativeName, false, names));
    return write(stem, cert, key);
  }

  private Pem write(String stem, X509Certificate cert, KeyPair key) throws IOException {
    Pem pem = new Pem(dir.resolve(stem + ".crt"), dir.resolve(stem + ".key"));
    Files.writeString(pem.cert(), pem("CERTIFICATE", encoded(cert)), StandardCharsets.US_ASCII);
    Files.writeString(
        pem.key(), pem("PRIVATE KEY", key.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
    return pem;
  }

  private static byte[] encoded(X509Certificate cert) {
    try {
      return cert.getEncoded();
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static X509Certificate sign(
      X500Name issuer, KeyPair issuerKey, org.bouncycastle.cert.X509v3CertificateBuilder builder)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey.getPrivate())));
  }

  private static KeyPair keyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static BigInteger serial() {
    return new BigInteger(64, new SecureRandom());
  }

  private static Date start() {
    return Date.from(Instant.now().minus(Duration.ofMinutes(5)));
  }

  private static Date end() {
    return Date.from(Instant.now().plus(Duration.ofDays(1)));
  }
}
