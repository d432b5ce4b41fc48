package cipherd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
)

// Option configures Dial.
type Option func(*settings) error

type settings struct {
	tls         *tls.Config
	insecure    bool
	token       string
	timeout     time.Duration
	maxAttempts int
	dialOptions []grpc.DialOption
}

func defaultSettings() settings {
	return settings{timeout: 30 * time.Second, maxAttempts: 4}
}

// WithInsecure connects in plaintext: for a server on loopback only.
func WithInsecure() Option {
	return func(s *settings) error { s.insecure = true; return nil }
}

// WithTLS connects over TLS with config (nil means the system roots).
func WithTLS(config *tls.Config) Option {
	return func(s *settings) error {
		if config == nil {
			config = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		s.tls = config.Clone()
		return nil
	}
}

// WithCAFile connects over TLS, trusting the PEM CA bundle in path instead of the system roots.
func WithCAFile(path string) Option {
	return func(s *settings) error {
		pem, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("cipherd: reading CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("cipherd: no PEM certificate in CA file %s", path)
		}
		s.ensureTLS().RootCAs = pool
		return nil
	}
}

// WithClientCertificate presents the PEM certificate and key in certFile and keyFile (mutual TLS).
func WithClientCertificate(certFile, keyFile string) Option {
	return func(s *settings) error {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return fmt.Errorf("cipherd: loading client certificate: %w", err)
		}
		s.ensureTLS().Certificates = []tls.Certificate{cert}
		return nil
	}
}

// WithBearerToken sends "authorization: Bearer token" on every call.
func WithBearerToken(token string) Option {
	return func(s *settings) error { s.token = token; return nil }
}

// WithTimeout is the deadline of each unary call whose ctx has none (default 30s; 0 for none).
// Streams are bounded by their ctx only.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) error { s.timeout = d; return nil }
}

// WithRetries sets how many attempts a call gets when the server is UNAVAILABLE (default 4;
// 1 disables retries). No other failure is retried: they would fail the same way again.
func WithRetries(maxAttempts int) Option {
	return func(s *settings) error {
		if maxAttempts < 1 || maxAttempts > 5 {
			return fmt.Errorf("cipherd: retries must be 1 to 5 attempts, not %d", maxAttempts)
		}
		s.maxAttempts = maxAttempts
		return nil
	}
}

// WithDialOptions passes extra options to grpc.NewClient.
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(s *settings) error { s.dialOptions = append(s.dialOptions, opts...); return nil }
}

func (s *settings) ensureTLS() *tls.Config {
	if s.tls == nil {
		s.tls = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return s.tls
}

// bearerToken is the per-call credential of WithBearerToken.
type bearerToken struct {
	token      string
	requireTLS bool
}

func (b bearerToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + b.token}, nil
}

func (b bearerToken) RequireTransportSecurity() bool { return b.requireTLS }
