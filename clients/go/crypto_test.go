package cipherd_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestEncryptDecrypt_roundTripWithAAD(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "rt")
	ct, err := c.Encrypt(ctx, key, []byte("card 4111"), cipherd.WithAAD([]byte("order-7")))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := cipherd.ParseCiphertext(ct)
	if err != nil || parsed.KeyName != key || parsed.KeyVersion != 1 || parsed.Mode != cipherd.ModeGCM {
		t.Fatalf("ciphertext header %+v, %v", parsed, err)
	}
	pt, err := c.Decrypt(ctx, ct, cipherd.WithAAD([]byte("order-7")))
	if err != nil || string(pt) != "card 4111" {
		t.Fatalf("Decrypt = %q, %v", pt, err)
	}
	if _, err := c.Decrypt(ctx, ct, cipherd.WithAAD([]byte("order-8"))); !errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("wrong AAD: %v, want ErrDecryptionFailed", err)
	}
}

func TestReEncryptAndInspect_afterRotation(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "rot")
	old, err := c.Encrypt(ctx, key, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	info, err := c.Inspect(ctx, old)
	if err != nil || info.KeyVersion != 1 || info.CurrentVersion != 2 || !info.BehindCurrent {
		t.Fatalf("Inspect = %v, %v", info, err)
	}
	re, err := c.ReEncrypt(ctx, old)
	if err != nil || re.KeyVersion != 2 || re.SourceKeyVersion != 1 {
		t.Fatalf("ReEncrypt = %v, %v", re, err)
	}
	if pt, err := c.Decrypt(ctx, re.Ciphertext); err != nil || string(pt) != "x" {
		t.Fatalf("Decrypt(rewrapped) = %q, %v", pt, err)
	}
	v1, err := c.Encrypt(ctx, key, []byte("y"), cipherd.WithKeyVersion(1))
	if p, _ := cipherd.ParseCiphertext(v1); err != nil || p.KeyVersion != 1 {
		t.Fatalf("Encrypt WithKeyVersion(1) = version %d, %v", p.KeyVersion, err)
	}
}

func TestReEncrypt_intoAnotherKey(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	from, to := newKey(t, c, "from"), newKey(t, c, "to")
	ct, err := c.Encrypt(ctx, from, []byte("move me"))
	if err != nil {
		t.Fatal(err)
	}
	re, err := c.ReEncrypt(ctx, ct, cipherd.WithTargetKey(to))
	if p, _ := cipherd.ParseCiphertext(re.Ciphertext); err != nil || p.KeyName != to {
		t.Fatalf("ReEncrypt into %s: %v, %v", to, re, err)
	}
}

func TestBatches_oneResultPerItemAcrossChunks(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "batch")
	items := make([]cipherd.PlaintextItem, 2500) // three calls of at most 1000
	for i := range items {
		items[i] = cipherd.PlaintextItem{Reference: string(rune('a' + i%26)), Plaintext: []byte{byte(i), byte(i >> 8)}}
	}
	enc, err := c.EncryptBatch(ctx, key, items)
	if err != nil || len(enc) != len(items) {
		t.Fatalf("EncryptBatch: %d results, %v", len(enc), err)
	}
	cts := make([]cipherd.CiphertextItem, len(enc))
	for i, r := range enc {
		if r.Err != nil || r.Reference != items[i].Reference {
			t.Fatalf("item %d: %+v", i, r)
		}
		cts[i] = cipherd.CiphertextItem{Reference: r.Reference, Ciphertext: r.Ciphertext}
	}
	cts[7].Ciphertext = "<nope" // one bad item fails alone
	dec, err := c.DecryptBatch(ctx, cts)
	if err != nil || len(dec) != len(cts) {
		t.Fatalf("DecryptBatch: %d results, %v", len(dec), err)
	}
	for i, r := range dec {
		if i == 7 {
			if !errors.Is(r.Err, cipherd.ErrInvalidArgument) {
				t.Errorf("bad item: %v, want ErrInvalidArgument", r.Err)
			}
			continue
		}
		if r.Err != nil || !bytes.Equal(r.Plaintext, items[i].Plaintext) {
			t.Fatalf("item %d: %+v", i, r)
		}
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	re, err := c.ReEncryptBatch(ctx, "", cts[:10])
	if err != nil || len(re) != 10 || re[0].KeyVersion != 2 || re[0].SourceKeyVersion != 1 || !errors.Is(re[7].Err, cipherd.ErrInvalidArgument) {
		t.Fatalf("ReEncryptBatch = %+v, %v", re, err)
	}
}
