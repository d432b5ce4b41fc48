package testserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// PKI is a throwaway CA with a server certificate for 127.0.0.1 and one client certificate, as
// PEM files in Dir (keys in PKCS#8, as cipherd reads them).
type PKI struct {
	Dir                           string
	CAFile                        string
	ServerCertFile, ServerKeyFile string
	ClientCertFile, ClientKeyFile string
	ClientName                    string // the client certificate's DNS SAN: its identity on the server
}

// NewPKI writes a CA, a server certificate and a client certificate named clientName into dir.
func NewPKI(dir, clientName string) (*PKI, error) {
	p := &PKI{Dir: dir, ClientName: clientName, CAFile: filepath.Join(dir, "ca.pem"),
		ServerCertFile: filepath.Join(dir, "server.pem"), ServerKeyFile: filepath.Join(dir, "server-key.pem"),
		ClientCertFile: filepath.Join(dir, "client.pem"), ClientKeyFile: filepath.Join(dir, "client-key.pem")}
	caKey, caCert, err := issue(&x509.Certificate{Subject: pkix.Name{CommonName: "cipherd test CA"}, IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}, nil, nil)
	if err != nil {
		return nil, err
	}
	if err := writePEM(p.CAFile, "CERTIFICATE", caCert.Raw); err != nil {
		return nil, err
	}
	leaves := []struct {
		tmpl              *x509.Certificate
		certFile, keyFile string
	}{
		{&x509.Certificate{Subject: pkix.Name{CommonName: "cipherd"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
			DNSNames: []string{"localhost"}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}, p.ServerCertFile, p.ServerKeyFile},
		{&x509.Certificate{Subject: pkix.Name{CommonName: clientName}, DNSNames: []string{clientName},
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}, p.ClientCertFile, p.ClientKeyFile},
	}
	for _, l := range leaves {
		l.tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		key, cert, err := issue(l.tmpl, caCert, caKey)
		if err != nil {
			return nil, err
		}
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return nil, err
		}
		if err := writePEM(l.certFile, "CERTIFICATE", cert.Raw); err != nil {
			return nil, err
		}
		if err := writePEM(l.keyFile, "PRIVATE KEY", der); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// issue signs tmpl with parent (self-signed when parent is nil).
func issue(tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*ecdsa.PrivateKey, *x509.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return nil, nil, err
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return key, cert, err
}

func writePEM(path, kind string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600)
}

// ClientTLS is a client's TLS config trusting the CA, presenting the client certificate if withCert.
func (p *PKI) ClientTLS(withCert bool) (*tls.Config, error) {
	caPEM, err := os.ReadFile(p.CAFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	config := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if withCert {
		cert, err := tls.LoadX509KeyPair(p.ClientCertFile, p.ClientKeyFile)
		if err != nil {
			return nil, err
		}
		config.Certificates = []tls.Certificate{cert}
	}
	return config, nil
}
