package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// TestReEncryptStream_contextBoundColumn rewraps a column whose rows are bound to
// "users.email/<id>" after a rotation: each item with its row's context is rewrapped and keeps
// it; items without one fail to decrypt, and their error says to check the context.
func TestReEncryptStream_contextBoundColumn(t *testing.T) {
	needSecureServers(t)
	ctx := context.Background()
	c := dial(t, plain.Addr, cipherd.WithInsecure())
	if _, err := c.CreateKey(ctx, "ctx-column"); err != nil {
		t.Fatal(err)
	}
	contextOf := func(id int) []byte { return fmt.Appendf(nil, "users.email/%d", id) }
	var rows []string
	for id := 1; id <= 3; id++ {
		ct, err := c.Encrypt(ctx, "ctx-column", fmt.Appendf(nil, "user%d@example.com", id), cipherd.WithAAD(contextOf(id)))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, ct)
	}
	if _, err := c.RotateKey(ctx, "ctx-column"); err != nil {
		t.Fatal(err)
	}
	items := func(withContext bool) iter.Seq2[int, cipherd.CiphertextItem] {
		return func(yield func(int, cipherd.CiphertextItem) bool) {
			for i, ct := range rows {
				it := cipherd.CiphertextItem{Reference: fmt.Sprint(i + 1), Ciphertext: ct}
				if withContext {
					it.AAD = contextOf(i + 1)
				}
				if !yield(i+1, it) {
					return
				}
			}
		}
	}

	failed := 0
	err := cipherd.ReEncryptStream(ctx, c, "", items(false), func(id int, r cipherd.Result) error {
		if !errors.Is(r.Err, cipherd.ErrDecryptionFailed) || !strings.Contains(r.Err.Error(), "check that the context is the one given at encryption") {
			t.Errorf("row %d without its context: %v", id, r.Err)
		}
		failed++
		return nil
	})
	if err != nil || failed != len(rows) {
		t.Fatalf("stream without contexts: %v, %d failed", err, failed)
	}

	err = cipherd.ReEncryptStream(ctx, c, "", items(true), func(id int, r cipherd.Result) error {
		if r.Err != nil || r.KeyVersion != 2 || r.SourceKeyVersion != 1 {
			return fmt.Errorf("row %d: %+v", id, r)
		}
		pt, err := c.Decrypt(ctx, r.Ciphertext, cipherd.WithAAD(contextOf(id)))
		if err != nil || string(pt) != fmt.Sprintf("user%d@example.com", id) {
			return fmt.Errorf("row %d decrypts with its context to %q, %v", id, pt, err)
		}
		if _, err := c.Decrypt(ctx, r.Ciphertext); !errors.Is(err, cipherd.ErrDecryptionFailed) {
			return fmt.Errorf("row %d's new ciphertext decrypts without its context: %v", id, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
