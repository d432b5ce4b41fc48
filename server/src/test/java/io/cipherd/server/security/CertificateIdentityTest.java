package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which name of a client certificate becomes the caller identity. */
class CertificateIdentityTest {
  @TempDir static Path dir;
  static TestPki pki;

  @BeforeAll
  static void makeCa() throws Exception {
    pki = TestPki.create(dir);
  }

  @Test
  void firstDnsSan_isTheIdentity() throws Exception {
    assertThat(
            CertificateIdentity.of(
                leaf(pki.issue("dns", "the-cn", "dns:billing,dns:other").cert())))
        .isEqualTo("billing");
  }

  @Test
  void uriSan_isTheIdentity_whenItComesFirst() throws Exception {
    assertThat(
            CertificateIdentity.of(
                leaf(pki.issue("uri", "the-cn", "uri:spiffe://prod/ns/pay/sa/api").cert())))
        .isEqualTo("spiffe://prod/ns/pay/sa/api");
  }

  /**
   * A CA-signed CN=root with only an IP SAN once got root's grants (adversarial review, finding 8).
   */
  @Test
  void ipSanOnly_namesNoCaller_whateverTheCommonName() throws Exception {
    assertThat(CertificateIdentity.of(leaf(pki.issue("ip", "root", "ip:10.0.0.7").cert())))
        .isNull();
  }

  @Test
  void noSan_isTheCommonName() throws Exception {
    assertThat(CertificateIdentity.of(leaf(pki.issue("plain", "batch-job", null).cert())))
        .isEqualTo("batch-job");
  }

  private static X509Certificate leaf(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }
}
