package cipherd_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestDataKey_formattingNeverShowsThePlaintextKey(t *testing.T) {
	secret := bytes.Repeat([]byte{0xA7}, 32)
	k := cipherd.DataKey{Plaintext: secret, Wrapped: "<files/v3:gcm>" + base64.StdEncoding.EncodeToString(make([]byte, 60)), KeyVersion: 3}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%d", "%q"} {
		for _, arg := range []any{k, &k} {
			out := fmt.Sprintf(verb, arg)
			if strings.Contains(strings.ToLower(out), "a7a7") || strings.Contains(out, "167") || strings.Contains(out, string(secret[:4])) {
				t.Errorf("%s of %T shows the key: %s", verb, arg, out)
			}
			if !strings.Contains(out, "files/v3:gcm") {
				t.Errorf("%s of %T does not name the wrapping key: %s", verb, arg, out)
			}
		}
	}
}

func TestDataKey_wipeZeroesTheKeyBytes(t *testing.T) {
	buf := bytes.Repeat([]byte{0x5C}, 32)
	k := cipherd.DataKey{Plaintext: buf}
	k.Wipe()
	if k.Plaintext != nil || hex.EncodeToString(buf) != strings.Repeat("00", 32) {
		t.Fatalf("after Wipe: Plaintext %v, buffer %x", k.Plaintext != nil, buf)
	}
}

func TestGenerateDataKey_wrappedKeyDecryptsToThePlaintextKey(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "dk")
	dk, err := c.GenerateDataKey(ctx, key, cipherd.WithDataKeyAAD([]byte("bucket/a")))
	if err != nil {
		t.Fatal(err)
	}
	defer dk.Wipe()
	if p, err := cipherd.ParseCiphertext(dk.Wrapped); err != nil || p.KeyName != key || p.KeyVersion != 1 || dk.KeyVersion != 1 || len(dk.Plaintext) != 32 {
		t.Fatalf("data key: %v, %d-byte key, %v", dk, len(dk.Plaintext), err)
	}
	unwrapped, err := c.Decrypt(ctx, dk.Wrapped, cipherd.WithAAD([]byte("bucket/a")))
	if err != nil || !bytes.Equal(unwrapped, dk.Plaintext) {
		t.Fatalf("Decrypt(wrapped) differs from the plaintext key: %v", err)
	}
	if _, err := c.Decrypt(ctx, dk.Wrapped); !errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("Decrypt(wrapped) without its context: %v, want ErrDecryptionFailed", err)
	}
	short, err := c.GenerateDataKey(ctx, key, cipherd.WithDataKeyBits(128))
	if err != nil || len(short.Plaintext) != 16 {
		t.Fatalf("128-bit data key: %v, %v", short, err)
	}
	if _, err := c.GenerateDataKey(ctx, key, cipherd.WithDataKeyBits(192)); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Fatalf("192-bit data key: %v, want ErrInvalidArgument", err)
	}
	hidden, err := c.GenerateDataKey(ctx, key, cipherd.WithoutPlaintextKey())
	if err != nil || hidden.Plaintext != nil {
		t.Fatalf("WithoutPlaintextKey: %v, %v", hidden, err)
	}
	if later, err := c.Decrypt(ctx, hidden.Wrapped); err != nil || len(later) != 32 {
		t.Fatalf("unwrapping a key made WithoutPlaintextKey: %d bytes, %v", len(later), err)
	}
	if _, err := c.GenerateDataKey(ctx, "no-such-key"); !errors.Is(err, cipherd.ErrNotFound) {
		t.Fatalf("unknown key: %v, want ErrNotFound", err)
	}
}
