package cipherd_test

import (
	"context"
	"crypto/tls"
	"errors"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func needSecureServers(t *testing.T) {
	t.Helper()
	if tlsSrv == nil || mtls == nil {
		t.Skip("no server (jar not built)")
	}
}

func TestTLS_bearerTokensAndAccessPolicy(t *testing.T) {
	needSecureServers(t)
	ctx := context.Background()
	tlsOpts := []cipherd.Option{cipherd.WithCAFile(pki.CAFile)}
	admin := dial(t, tlsSrv.Addr, append(tlsOpts, cipherd.WithBearerToken(adminToken))...)
	if _, err := admin.CreateKey(ctx, "open-a"); err != nil {
		t.Fatalf("operator CreateKey over TLS: %v", err)
	}
	limited := dial(t, tlsSrv.Addr, append(tlsOpts, cipherd.WithBearerToken(limitedToken))...)
	ct, err := limited.Encrypt(ctx, "open-a", []byte("ok"))
	if err != nil {
		t.Fatalf("limited caller may encrypt with open-*: %v", err)
	}
	if _, err := limited.Decrypt(ctx, ct); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("limited Decrypt: %v, want ErrPermissionDenied", err)
	}
	// Data keys and indexes are operations of their own ("datakey", "index"), not part of encrypt.
	if _, err := limited.GenerateDataKey(ctx, "open-a"); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("limited GenerateDataKey: %v, want ErrPermissionDenied", err)
	}
	if _, err := limited.ComputeIndex(ctx, "open-a", []byte("x")); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("limited ComputeIndex: %v, want ErrPermissionDenied", err)
	}
	anonymous := dial(t, tlsSrv.Addr, tlsOpts...)
	if _, err := anonymous.Encrypt(ctx, "open-a", []byte("x")); !errors.Is(err, cipherd.ErrUnauthenticated) {
		t.Errorf("no token: %v, want ErrUnauthenticated", err)
	}
	unknown := dial(t, tlsSrv.Addr, append(tlsOpts, cipherd.WithBearerToken("wrong"))...)
	if _, err := unknown.Encrypt(ctx, "open-a", []byte("x")); !errors.Is(err, cipherd.ErrUnauthenticated) {
		t.Errorf("unknown token: %v, want ErrUnauthenticated", err)
	}
}

func TestTLS_untrustedServerIsRefused(t *testing.T) {
	needSecureServers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The system roots do not know the test CA.
	if _, err := cipherd.Dial(ctx, tlsSrv.Addr, cipherd.WithTLS(nil)); err == nil {
		t.Fatal("connected to a server signed by an unknown CA")
	}
	if _, err := cipherd.Dial(ctx, plain.Addr, cipherd.WithTLS(&tls.Config{})); err == nil {
		t.Fatal("TLS handshake with a plaintext server succeeded")
	}
}

func TestMutualTLS_clientCertificateIsTheIdentity(t *testing.T) {
	needSecureServers(t)
	ctx := context.Background()
	c := dial(t, mtls.Addr, cipherd.WithCAFile(pki.CAFile), cipherd.WithClientCertificate(pki.ClientCertFile, pki.ClientKeyFile))
	if _, err := c.CreateKey(ctx, "billing-a"); err != nil {
		t.Fatalf("CreateKey billing-a as %s: %v", mtlsClient, err)
	}
	ct, err := c.Encrypt(ctx, "billing-a", []byte("invoice"))
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := c.Decrypt(ctx, ct); err != nil || string(pt) != "invoice" {
		t.Fatalf("Decrypt = %q, %v", pt, err)
	}
	if _, err := c.CreateKey(ctx, "payroll"); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("CreateKey outside billing-*: %v, want ErrPermissionDenied", err)
	}
	// Without a client certificate the handshake or the first call fails.
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	noCert, err := cipherd.Dial(short, mtls.Addr, cipherd.WithCAFile(pki.CAFile), cipherd.WithRetries(1))
	if err == nil {
		defer noCert.Close()
		_, err = noCert.Encrypt(short, "billing-a", []byte("x"))
	}
	if !errors.Is(err, cipherd.ErrUnavailable) {
		t.Fatalf("without a client certificate: %v, want ErrUnavailable", err)
	}
}

func TestAdmin_importPolicyGetAndKeys(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "admin")
	if _, err := c.ImportKey(ctx, key, make([]byte, 32)); err != nil {
		t.Fatalf("ImportKey: %v", err)
	}
	if _, err := c.UpdateKeyPolicy(ctx, key, cipherd.KeyPolicy{MinDecryptionVersion: 2}); err != nil {
		t.Fatalf("UpdateKeyPolicy: %v", err)
	}
	got, err := c.GetKey(ctx, key)
	if err != nil || got.CurrentVersion != 2 || !got.Versions[1].Imported || got.Policy.MinDecryptionVersion != 2 {
		t.Fatalf("GetKey = %v, %v", got, err)
	}
	found := false
	for k, err := range c.ListKeys(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || k.KeyName == key
	}
	if !found {
		t.Fatalf("Keys did not list %s", key)
	}
}
