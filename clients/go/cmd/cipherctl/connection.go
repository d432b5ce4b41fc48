package main

import (
	"context"
	"fmt"
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
	f.BoolVar(&c.insecure, "insecure", envBool("CIPHERD_INSECURE"), "plaintext gRPC, for a server on loopback (CIPHERD_INSECURE); the default unless TLS is configured")
	timeout, _ := time.ParseDuration(env("CIPHERD_TIMEOUT", "30s"))
	f.DurationVar(&c.timeout, "timeout", timeout, "deadline of each call (CIPHERD_TIMEOUT)")
}

func (c *connection) dial(ctx context.Context) (*cipherd.Client, error) {
	opts := []cipherd.Option{cipherd.WithTimeout(c.timeout)}
	tls := c.caFile != "" || c.certFile != ""
	switch {
	case tls && c.insecure:
		return nil, fmt.Errorf("--insecure conflicts with --ca-file and --cert")
	case c.caFile != "":
		opts = append(opts, cipherd.WithCAFile(c.caFile))
	case tls:
		opts = append(opts, cipherd.WithTLS(nil))
	default:
		opts = append(opts, cipherd.WithInsecure())
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
	return cipherd.Dial(dialCtx, c.addr, opts...)
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
