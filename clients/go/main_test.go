package cipherd_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// The real servers every test of this package talks to, started once by TestMain.
var (
	plain  *testserver.Server // plaintext on loopback, no access policy
	tlsSrv *testserver.Server // TLS, access policy with bearer tokens
	mtls   *testserver.Server // mutual TLS, access policy naming the client certificate
	pki    *testserver.PKI
)

const (
	adminToken   = "admin-token-for-tests"
	limitedToken = "limited-token-for-tests"
	mtlsClient   = "billing.test"
)

func sha(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

var accessPolicy = fmt.Sprintf(`callers:
  operator:
    token_sha256: %s
    rules:
      - keys: ["*"]
        operations: [admin, import, inspect, encrypt, decrypt, reencrypt]
  limited:
    token_sha256: %s
    rules:
      - keys: ["open-*"]
        operations: [encrypt]
  %s:
    rules:
      - keys: ["billing-*"]
        operations: [admin, import, encrypt, decrypt]
`, sha(adminToken), sha(limitedToken), mtlsClient)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	if testing.Short() { // make check: no servers; the tests that need one skip themselves
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "cipherd-go-pki-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if pki, err = testserver.NewPKI(dir, mtlsClient); err != nil {
		panic(err)
	}
	servers := []struct {
		target **testserver.Server
		opts   testserver.Options
	}{
		{&plain, testserver.Options{}},
		{&tlsSrv, testserver.Options{PKI: pki, AccessPolicy: accessPolicy}},
		{&mtls, testserver.Options{PKI: pki, MutualTLS: true, AccessPolicy: accessPolicy}},
	}
	errs := make(chan error, len(servers))
	for _, s := range servers {
		go func() {
			var err error
			*s.target, err = testserver.Start(s.opts)
			errs <- err
		}()
	}
	var startErr error
	for range servers {
		startErr = errors.Join(startErr, <-errs)
	}
	for _, s := range servers {
		if *s.target != nil {
			defer (*s.target).Stop()
		}
	}
	if startErr != nil {
		fmt.Fprintln(os.Stderr, startErr)
		if errors.Is(startErr, testserver.ErrNoJar) && os.Getenv("CI") != "true" {
			fmt.Fprintln(os.Stderr, "skipping the tests that need a server")
			return m.Run() // the local format tests still run; server tests skip themselves
		}
		return 1
	}
	return m.Run()
}

// dialPlain connects to the plaintext server, skipping the test if it is not running.
func dialPlain(t *testing.T, opts ...cipherd.Option) *cipherd.Client {
	t.Helper()
	if plain == nil {
		t.Skip("no server (jar not built)")
	}
	return dial(t, plain.Addr, append([]cipherd.Option{cipherd.WithInsecure()}, opts...)...)
}

func dial(t *testing.T, addr string, opts ...cipherd.Option) *cipherd.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := cipherd.Dial(ctx, addr, opts...)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

var keySeq int

// newKey creates a fresh gcm key named prefix-N and returns its name.
func newKey(t *testing.T, c *cipherd.Client, prefix string) string {
	t.Helper()
	return newKeyWithMode(t, c, prefix, cipherd.ModeUnspecified)
}

// newKeyWithMode creates a fresh key in mode named prefix-N and returns its name.
func newKeyWithMode(t *testing.T, c *cipherd.Client, prefix string, mode cipherd.Mode) string {
	t.Helper()
	name := freshKeyName(prefix)
	if _, err := c.CreateKey(context.Background(), name, cipherd.WithKeyMode(mode)); err != nil {
		t.Fatalf("CreateKey(%s, %s): %v", name, mode, err)
	}
	return name
}

// importKey creates a fresh key in mode from known key material, for checks against an
// independent implementation, and returns its name.
func importKey(t *testing.T, c *cipherd.Client, prefix string, mode cipherd.Mode, material []byte) string {
	t.Helper()
	name := freshKeyName(prefix)
	if _, err := c.ImportKey(context.Background(), name, material, cipherd.WithKeyMode(mode)); err != nil {
		t.Fatalf("ImportKey(%s, %s): %v", name, mode, err)
	}
	return name
}

func freshKeyName(prefix string) string {
	keySeq++
	return fmt.Sprintf("%s-%d-%d", prefix, keySeq, time.Now().UnixNano()%100000)
}
