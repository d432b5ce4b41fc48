package cipherd_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestSIV_encryptIsDeterministicPerContext(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKeyWithMode(t, c, "siv", cipherd.ModeSIV)
	a, err := c.Encrypt(ctx, key, []byte("alice@example.com"), cipherd.WithAAD([]byte("users.email")))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Encrypt(ctx, key, []byte("alice@example.com"), cipherd.WithAAD([]byte("users.email")))
	if err != nil || a != b {
		t.Fatalf("two encryptions differ (%v)", err)
	}
	if p, err := cipherd.ParseCiphertext(a); err != nil || p.Mode != cipherd.ModeSIV || len(p.Payload) != 16+len("alice@example.com") {
		t.Fatalf("header %+v, %v", p, err)
	}
	if other, _ := c.Encrypt(ctx, key, []byte("alice@example.com"), cipherd.WithAAD([]byte("users.backup"))); other == a {
		t.Fatal("another context gives the same ciphertext")
	}
	if pt, err := c.Decrypt(ctx, a, cipherd.WithAAD([]byte("users.email"))); err != nil || string(pt) != "alice@example.com" {
		t.Fatalf("Decrypt = %q, %v", pt, err)
	}
}

// xaesOpen decrypts an xgcm payload as c2sp.org/XAES-256-GCM specifies, independently of the server.
func xaesOpen(key, payload, aad []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	var k1 [16]byte
	block.Encrypt(k1[:], k1[:])
	msb := k1[0] >> 7
	for i := 0; i < 15; i++ {
		k1[i] = k1[i]<<1 | k1[i+1]>>7
	}
	k1[15] = k1[15]<<1 ^ msb*0x87
	derived := make([]byte, 32)
	for i, counter := range []byte{1, 2} {
		m := append([]byte{0, counter, 'X', 0}, payload[:12]...)
		for j := range m {
			m[j] ^= k1[j]
		}
		block.Encrypt(derived[16*i:], m)
	}
	inner, err := aes.NewCipher(derived)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(inner)
	if err != nil {
		return nil, err
	}
	return gcm.Open(nil, payload[12:24], payload[24:], aad)
}

func TestXAESOpen_matchesTheC2SPVector(t *testing.T) {
	// c2sp.org/XAES-256-GCM, first test vector: K = 0x01 * 32, N = "ABCDEFGHIJKLMNOPQRSTUVWX".
	ct, _ := hex.DecodeString("ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271")
	pt, err := xaesOpen(bytes.Repeat([]byte{1}, 32), append([]byte("ABCDEFGHIJKLMNOPQRSTUVWX"), ct...), nil)
	if err != nil || string(pt) != "XAES-256-GCM" {
		t.Fatalf("xaesOpen = %q, %v", pt, err)
	}
}

func TestXGCM_roundTripAndIndependentDecryption(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	material := bytes.Repeat([]byte{0x3c}, 32)
	key := importKey(t, c, "xgcm", cipherd.ModeXGCM, material)
	plaintext := []byte("an event worth keeping")
	ct, err := c.Encrypt(ctx, key, plaintext, cipherd.WithAAD([]byte("events")))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.Encrypt(ctx, key, plaintext, cipherd.WithAAD([]byte("events")))
	if ct == again {
		t.Fatal("xgcm gave the same ciphertext twice: the nonce is not random")
	}
	p, err := cipherd.ParseCiphertext(ct)
	if err != nil || p.Mode != cipherd.ModeXGCM || len(p.Payload) != 40+len(plaintext) {
		t.Fatalf("header %+v, %v", p, err)
	}
	if pt, err := c.Decrypt(ctx, ct, cipherd.WithAAD([]byte("events"))); err != nil || !bytes.Equal(pt, plaintext) {
		t.Fatalf("Decrypt = %q, %v", pt, err)
	}
	header := "<" + key + "/v1:xgcm>"
	if !strings.HasPrefix(ct, header) {
		t.Fatalf("ciphertext does not start with %s", header)
	}
	pt, err := xaesOpen(material, p.Payload, append([]byte(header), "events"...))
	if err != nil || !bytes.Equal(pt, plaintext) {
		t.Fatalf("independent XAES-256-GCM decryption: %q, %v", pt, err)
	}
}
