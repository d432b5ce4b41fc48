package io.cipherd.server.security;

import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * A client certificate's identity: its first DNS or URI subject alternative name; its subject CN
 * only when it has no subject alternative name at all. Worked out once per TLS session and kept in
 * the session.
 */
public final class CertificateIdentity {
  private static final String SESSION_VALUE = "io.cipherd.caller-identity";
  private static final int DNS = 2;
  private static final int URI = 6;

  private CertificateIdentity() {}

  /** The identity of the peer of {@code session}, or null if it presented no usable certificate. */
  public static String of(SSLSession session) {
    Object known = session.getValue(SESSION_VALUE);
    if (known instanceof String identity) {
      return identity;
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException noClientCertificate) {
      return null;
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      return null;
    }
    String identity = of(leaf);
    if (identity != null) {
      session.putValue(SESSION_VALUE, identity);
    }
    return identity;
  }

  static String of(X509Certificate certificate) {
    Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException unreadable) {
      return null;
    }
    if (names != null && !names.isEmpty()) {
      // As RFC 6125 has it for servers: a certificate with subject alternative names is named by
      // them alone. One with only an IP or e-mail SAN names no caller, whatever its CN says.
      for (List<?> name : names) {
        int type = (Integer) name.get(0);
        if ((type == DNS || type == URI)
            && name.get(1) instanceof String value
            && !value.isEmpty()) {
          return value;
        }
      }
      return null;
    }
    try {
      List<Rdn> rdns = new LdapName(certificate.getSubjectX500Principal().getName()).getRdns();
      for (int i = rdns.size() - 1; i >= 0; i--) {
        if (rdns.get(i).getType().equalsIgnoreCase("CN")) {
          return rdns.get(i).getValue().toString();
        }
      }
    } catch (InvalidNameException unreadable) {
      return null;
    }
    return null;
  }
}
