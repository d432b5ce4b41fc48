package cipherd_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// freePort is a loopback port nothing listens on (for now).
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestDial_waitsForAServerStartedLater starts Dial on a port where nothing listens yet and the
// server 1.5 s later: Dial returns once the server is up, and calls work.
func TestDial_waitsForAServerStartedLater(t *testing.T) {
	needSecureServers(t)
	port := freePort(t)
	addr := net.JoinHostPort("127.0.0.1", itoa(port))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	type dialed struct {
		c   *cipherd.Client
		err error
		at  time.Time
	}
	done := make(chan dialed, 1)
	start := time.Now()
	go func() {
		c, err := cipherd.Dial(ctx, addr, cipherd.WithInsecure())
		done <- dialed{c, err, time.Now()}
	}()
	time.Sleep(1500 * time.Millisecond)
	select {
	case d := <-done:
		t.Fatalf("Dial returned before the server started: %v", d.err)
	default:
	}
	launched := time.Now()
	srv, err := testserver.Start(testserver.Options{Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	serving := time.Now()
	d := <-done
	if d.err != nil {
		t.Fatalf("Dial: %v", d.err)
	}
	defer d.c.Close()
	t.Logf("Dial started %.1f s before the server was launched; the server answered SERVING after %.1f s more; Dial returned %.2f s after Dial started (%.2f s before/after SERVING)",
		launched.Sub(start).Seconds(), serving.Sub(launched).Seconds(), d.at.Sub(start).Seconds(), d.at.Sub(serving).Seconds())
	if _, err := d.c.CreateKey(ctx, "late"); err != nil {
		t.Fatalf("CreateKey after Dial: %v", err)
	}
	ct, err := d.c.Encrypt(ctx, "late", []byte("up"))
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := d.c.Decrypt(ctx, ct); err != nil || string(pt) != "up" {
		t.Fatalf("Decrypt = %q, %v", pt, err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDial_saysWhy dials each wrong setup: each fails with a *ConnectError whose cause has its own
// type, ErrUnavailable matches, and a server that answers with the wrong TLS setup fails Dial at
// once instead of at the deadline.
func TestDial_saysWhy(t *testing.T) {
	needSecureServers(t)
	otherPKI, err := testserver.NewPKI(t.TempDir(), "other")
	if err != nil {
		t.Fatal(err)
	}
	refused := net.JoinHostPort("127.0.0.1", itoa(freePort(t)))
	for _, tc := range []struct {
		name    string
		addr    string
		opts    []cipherd.Option
		waits   bool // fails only at the deadline (the server may still come up)
		isCause func(error) bool
		text    string
	}{
		{"nothing listens", refused, []cipherd.Option{cipherd.WithInsecure()}, true,
			func(err error) bool { return true }, "connect: connection refused"},
		{"plaintext to a TLS port", tlsSrv.Addr, []cipherd.Option{cipherd.WithInsecure()}, true,
			func(err error) bool { return errors.Is(err, cipherd.ErrClosedBeforeAnswer) }, "closed the connection before answering"},
		{"TLS to a plaintext port", plain.Addr, []cipherd.Option{cipherd.WithCAFile(pki.CAFile)}, false,
			func(err error) bool { _, ok := errors.AsType[tls.RecordHeaderError](err); return ok }, "does not look like a TLS handshake"},
		{"no client certificate", mtls.Addr, []cipherd.Option{cipherd.WithCAFile(pki.CAFile)}, false,
			func(err error) bool { op, ok := errors.AsType[*net.OpError](err); return ok && op.Op == "remote error" }, "certificate required"},
		{"a client certificate of another CA", mtls.Addr, []cipherd.Option{cipherd.WithCAFile(pki.CAFile),
			cipherd.WithClientCertificate(otherPKI.ClientCertFile, otherPKI.ClientKeyFile)}, false,
			func(err error) bool { op, ok := errors.AsType[*net.OpError](err); return ok && op.Op == "remote error" }, "remote error: tls:"},
		{"the wrong CA", tlsSrv.Addr, []cipherd.Option{cipherd.WithCAFile(otherPKI.CAFile)}, false,
			func(err error) bool { _, ok := errors.AsType[x509.UnknownAuthorityError](err); return ok }, "certificate signed by unknown authority"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wait := 10 * time.Second
			if tc.waits {
				wait = 2 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			start := time.Now()
			c, err := cipherd.Dial(ctx, tc.addr, tc.opts...)
			took := time.Since(start)
			if err == nil {
				c.Close()
				t.Fatal("Dial succeeded")
			}
			connectErr, ok := errors.AsType[*cipherd.ConnectError](err)
			if !ok || !errors.Is(err, cipherd.ErrUnavailable) || !tc.isCause(err) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("Dial: %v (%T), want a *ConnectError, ErrUnavailable, %q", err, err, tc.text)
			}
			if connectErr.Addr != tc.addr {
				t.Errorf("Addr %q, want %q", connectErr.Addr, tc.addr)
			}
			if tc.waits && took < wait-100*time.Millisecond {
				t.Errorf("gave up after %v, before the deadline", took)
			}
			if !tc.waits && took > 5*time.Second {
				t.Errorf("a wrong TLS setup took %v to fail", took)
			}
			t.Logf("after %.2f s: %v", took.Seconds(), err)
		})
	}
}
