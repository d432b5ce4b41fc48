package cipherd_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/datafile"
)

// TestDatafile_roundTripRewrapAfterRotation encrypts a few MiB through the real server's data key,
// unwraps that key with Decrypt, rewraps the file after a rotation and decrypts it again.
func TestDatafile_roundTripRewrapAfterRotation(t *testing.T) {
	c := dialPlain(t)
	ctx, dir := context.Background(), t.TempDir()
	key := newKeyWithMode(t, c, "files", cipherd.ModeXGCM)
	plaintext := make([]byte, 3<<20+77)
	rand.Read(plaintext)
	plain, enc, dec := filepath.Join(dir, "object"), filepath.Join(dir, "object.cdf"), filepath.Join(dir, "object.out")
	if err := os.WriteFile(plain, plaintext, 0o600); err != nil {
		t.Fatal(err)
	}
	aad := datafile.WithAAD([]byte("bucket/object"))
	h, err := datafile.EncryptFile(ctx, c, key, plain, enc, aad, datafile.WithChunkSize(100_000))
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(enc); info.Size() >= int64(len(plaintext))+int64(len(plaintext)/100_000+1)*16+200 {
		t.Errorf("encrypted file is %d bytes for %d of plaintext", info.Size(), len(plaintext))
	}
	if dataKey, err := c.Decrypt(ctx, h.WrappedKey, cipherd.WithAAD([]byte("bucket/object"))); err != nil || len(dataKey) != 32 {
		t.Fatalf("Decrypt of the file's wrapped key: %d bytes, %v", len(dataKey), err)
	}
	if _, err := datafile.DecryptFile(ctx, c, enc, dec, aad); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(dec); !bytes.Equal(got, plaintext) {
		t.Fatal("decrypted file differs")
	}
	if _, err := datafile.DecryptFile(ctx, c, enc, dec+"2", datafile.WithAAD([]byte("other"))); !errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("DecryptFile with another context: %v, want ErrDecryptionFailed", err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(enc)
	rewrapped, err := datafile.RewrapFile(ctx, c, enc, aad)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := cipherd.ParseCiphertext(rewrapped.WrappedKey); err != nil || p.KeyName != key || p.KeyVersion != 2 {
		t.Fatalf("rewrapped key is %s/v%d (%v), want %s/v2", p.KeyName, p.KeyVersion, err, key)
	}
	after, _ := os.ReadFile(enc)
	const headerLen = 27 + 2 // fixed part and wrapped-key length, before the wrapped key
	if !bytes.Equal(before[headerLen+len(h.WrappedKey):], after[headerLen+len(rewrapped.WrappedKey):]) {
		t.Fatal("RewrapFile changed the chunks")
	}
	os.Remove(dec)
	if h, err := datafile.DecryptFile(ctx, c, enc, dec, aad); err != nil || h.WrappedKey != rewrapped.WrappedKey {
		t.Fatalf("DecryptFile after RewrapFile: %v", err)
	}
	if got, _ := os.ReadFile(dec); !bytes.Equal(got, plaintext) {
		t.Fatal("decrypted file differs after RewrapFile")
	}
}
