package cipherd_test

import (
	"context"
	"errors"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/mysqlaes"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// TestImportKeyWrapped_onAServerTakingNoPlaintext imports wrapped material (a gcm key, and a MySQL
// passphrase folded here) into a server without --allow-plaintext-key-import, which refuses the
// same material in the clear; the imported keys then encrypt and decrypt MySQL's known answer.
func TestImportKeyWrapped_onAServerTakingNoPlaintext(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	srv, err := testserver.Start(testserver.Options{WrappedImportOnly: true})
	if err != nil {
		if errors.Is(err, testserver.ErrNoJar) {
			t.Skip("no jar")
		}
		t.Fatal(err)
	}
	defer srv.Stop()
	c := dial(t, srv.Addr, cipherd.WithInsecure())
	ctx := context.Background()

	gcm := freshKeyName("wrapped")
	if _, err := c.ImportKey(ctx, gcm, make([]byte, 32)); !errors.Is(err, cipherd.ErrPlaintextImportDisabled) ||
		!errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Fatalf("ImportKey in the clear: %v, want ErrPlaintextImportDisabled", err)
	}
	key, err := c.ImportKeyWrapped(ctx, gcm, make([]byte, 32), cipherd.WithKeyMode(cipherd.ModeGCM))
	if err != nil {
		t.Fatalf("ImportKeyWrapped: %v", err)
	}
	if !key.Versions[0].Imported {
		t.Errorf("version not marked imported: %+v", key.Versions[0])
	}
	ct, err := c.Encrypt(ctx, gcm, []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := c.Decrypt(ctx, ct); err != nil || string(pt) != "hello" {
		t.Fatalf("Decrypt = %q, %v", pt, err)
	}

	job, err := c.CreateImportJob(ctx, gcm, cipherd.ImportWrappingRSA4096)
	if err != nil {
		t.Fatal(err)
	}
	if job.KeyName != gcm || job.WrappingAlgorithm != cipherd.ImportWrappingRSA4096 ||
		time.Until(job.ExpireTime) < 23*time.Hour || job.ID == "" {
		t.Errorf("job = %+v", job)
	}

	mysql := freshKeyName("wrapped-mysql")
	if _, err := c.ImportKeyWrapped(ctx, mysql, nil, cipherd.WithLegacyCipher(cipherd.LegacyMySQLAESECB),
		cipherd.WithLegacyPassphrase([]byte(mysqlaes.KnownPassphrase))); err != nil {
		t.Fatalf("ImportKeyWrapped(mysql passphrase): %v", err)
	}
	resp, err := c.ReEncryptLegacy(ctx, gcm, cipherd.LegacyHex(mysql, mysqlaes.KnownAnswerHex))
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := c.Decrypt(ctx, resp.Ciphertext); err != nil || string(pt) != mysqlaes.KnownPlaintext {
		t.Fatalf("MySQL's known answer rewrapped decrypts to %q, %v; want HELLO", pt, err)
	}
}
