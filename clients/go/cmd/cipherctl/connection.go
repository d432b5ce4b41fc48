package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// connection is the server settings every command shares: flags, defaulting to CIPHERD_* variables.
type connection struct {
	addr, caFile, certFile, keyFile, tokenFile string
	insecure                                   bool
	timeout                                    time.Duration
}

func (c *connection) register(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVar(&c.addr, "addr", env("CIPHERD_ADDR", "127.0.0.1:50051"), "server host:port (CIPHERD_ADDR)")
	f.StringVar(&c.caFile, "ca-file", env("CIPHERD_CA_FILE", ""), "PEM CA bundle of the server's certificate; turns TLS on (CIPHERD_CA_FILE)")
	f.StringVar(&c.certFile, "cert", env("CIPHERD_CERT_FILE", ""), "PEM client certificate for mutual TLS (CIPHERD_CERT_FILE)")
	f.StringVar(&c.keyFile, "key", env("CIPHERD_KEY_FILE", ""), "PEM private key of --cert (CIPHERD_KEY_FILE)")
	f.StringVar(&c.tokenFile, "token-file", env("CIPHERD_TOKEN_FILE", ""), "file holding a bearer token (CIPHERD_TOKEN_FILE; or the token itself in CIPHERD_TOKEN)")
	f.BoolVar(&c.insecure, "insecure", envBool("CIPHERD_INSECURE"), "plaintext gRPC to a non-loopback address (CIPHERD_INSECURE); without it, plaintext is used only for a loopback --addr and anything else gets TLS with the system roots")
	timeout, _ := time.ParseDuration(env("CIPHERD_TIMEOUT", "30s"))
	f.DurationVar(&c.timeout, "timeout", timeout, "deadline of each call (CIPHERD_TIMEOUT)")
}

func (c *connection) dial(ctx context.Context) (*cipherd.Client, error) {
	opts := []cipherd.Option{cipherd.WithTimeout(c.timeout)}
	if c.insecure && (c.caFile != "" || c.certFile != "") {
		return nil, fmt.Errorf("--insecure conflicts with --ca-file and --cert")
	}
	switch {
	case c.caFile != "":
		opts = append(opts, cipherd.WithCAFile(c.caFile))
	case c.plaintext():
		opts = append(opts, cipherd.WithInsecure())
	default:
		// Plaintexts and tokens never cross the network unencrypted unless --insecure says so.
		opts = append(opts, cipherd.WithTLS(nil))
	}
	if c.certFile != "" {
		opts = append(opts, cipherd.WithClientCertificate(c.certFile, c.keyFile))
	}
	token, err := c.token()
	if err != nil {
		return nil, err
	}
	if token != "" {
		opts = append(opts, cipherd.WithBearerToken(token))
	}
	dialCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	client, err := cipherd.Dial(dialCtx, c.addr, opts...)
	if hint := c.hint(err); hint != "" {
		return nil, fmt.Errorf("%w\nhint: %s", err, hint)
	}
	return client, err
}

// plaintext reports whether to connect without TLS: when --insecure asks for it, or for a loopback
// --addr when no TLS file is given.
func (c *connection) plaintext() bool {
	return c.insecure || (c.caFile == "" && c.certFile == "" && isLoopback(c.addr))
}

// isLoopback reports whether addr (host:port) names this machine: localhost, 127.0.0.0/8 or ::1.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (c *connection) token() (string, error) {
	if c.tokenFile == "" {
		return os.Getenv("CIPHERD_TOKEN"), nil
	}
	data, err := os.ReadFile(c.tokenFile)
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	return strings.TrimSpace(string(data)), nil
}

func env(name, fallback string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return fallback
}

func envBool(name string) bool {
	v, _ := strconv.ParseBool(os.Getenv(name))
	return v
}
