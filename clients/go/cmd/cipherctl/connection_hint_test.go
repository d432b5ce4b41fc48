package main_test

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// TestConnectionHints runs cipherctl against each wrong setup of a real TLS and a real mutual-TLS
// server: each prints the cause and its own hint; a wrong TLS setup fails at once, not at --timeout.
func TestConnectionHints(t *testing.T) {
	needServer(t)
	pki, err := testserver.NewPKI(t.TempDir(), "hints.test")
	if err != nil {
		t.Fatal(err)
	}
	other, err := testserver.NewPKI(t.TempDir(), "other.test")
	if err != nil {
		t.Fatal(err)
	}
	var tlsSrv, mtlsSrv *testserver.Server
	var tlsErr, mtlsErr error
	var wg sync.WaitGroup
	wg.Go(func() { tlsSrv, tlsErr = testserver.Start(testserver.Options{PKI: pki}) })
	wg.Go(func() { mtlsSrv, mtlsErr = testserver.Start(testserver.Options{PKI: pki, MutualTLS: true}) })
	wg.Wait()
	for _, s := range []*testserver.Server{tlsSrv, mtlsSrv} {
		if s != nil {
			t.Cleanup(s.Stop)
		}
	}
	if tlsErr != nil || mtlsErr != nil {
		t.Fatal(tlsErr, mtlsErr)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	nothing := ln.Addr().String()
	ln.Close()

	for _, tc := range []struct {
		name string
		args []string
		hint string
		fast bool
	}{
		{"nothing listens", []string{"--addr", nothing}, "hint: nothing listens on " + nothing, false},
		{"plaintext to TLS", []string{"--addr", tlsSrv.Addr}, "hint: the server expects TLS (use --ca-file FILE", false},
		{"TLS to plaintext", []string{"--addr", server.Addr, "--ca-file", pki.CAFile}, "hint: the server does not speak TLS on " + server.Addr, true},
		{"no client certificate", []string{"--addr", mtlsSrv.Addr, "--ca-file", pki.CAFile}, "hint: the server requires a client certificate (--cert/--key", true},
		{"a client certificate it does not trust", []string{"--addr", mtlsSrv.Addr, "--ca-file", pki.CAFile, "--cert", other.ClientCertFile, "--key", other.ClientKeyFile},
			"hint: the server refused the client certificate --cert " + other.ClientCertFile, true},
		{"the wrong CA", []string{"--addr", tlsSrv.Addr, "--ca-file", other.CAFile},
			"hint: unknown certificate authority: the server's certificate is not signed by --ca-file " + other.CAFile, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			code, stdout, stderr := runAt(t, "", append(tc.args, "--timeout", "2s", "keys", "list")...)
			took := time.Since(start)
			if code != 3 || !strings.Contains(stderr, "cipherd: unavailable: connecting to ") || !strings.Contains(stderr, tc.hint) {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 3 and %q", code, stdout, stderr, tc.hint)
			}
			if tc.fast && took > 1500*time.Millisecond {
				t.Errorf("took %v: a wrong TLS setup waited for the deadline", took)
			}
			t.Logf("%.2f s: %s", took.Seconds(), strings.TrimSpace(stderr))
		})
	}
}
