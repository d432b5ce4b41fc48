package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// TestFormattedStreams_againstTheServer encrypts 1,000 digit values through EncryptFormattedStream
// (one with a letter failing alone), decrypts them back through DecryptFormattedStream, rotates the
// key, and moves them through ReEncryptFormattedStream cancelled midway and resumed after its last
// reference: every item once, in order, each at version 2 and decrypting to its plaintext.
func TestFormattedStreams_againstTheServer(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newFPEKey(t, c, "fpe-stream", cipherd.FPEFormat{Template: cipherd.FPETemplateDigits})
	column := cipherd.WithValueContext([]byte("users.national_id"))
	const n, bad, cancelAt = 1000, 400, 600
	plain := make([]cipherd.FormattedPlainItem, n)
	for i := range plain {
		plain[i] = cipherd.FormattedPlainItem{Reference: strconv.Itoa(i), Value: fmt.Sprintf("%010d", i*7919)}
	}
	plain[bad].Value = "12345X7890"
	stored := make([]cipherd.FormattedValue, n)
	err := cipherd.EncryptFormattedStream(ctx, c, key, slices.All(plain), func(i int, r cipherd.FormattedResult) error {
		switch {
		case r.Reference != strconv.Itoa(i):
			return fmt.Errorf("item %d answered as %s", i, r.Reference)
		case i == bad && !errors.Is(r.Err, cipherd.ErrInvalidArgument):
			return fmt.Errorf("a value with a letter: %v, want ErrInvalidArgument", r.Err)
		case i != bad && (r.Err != nil || r.Value.KeyVersion != 1 || len(r.Value.Value) != 10):
			return fmt.Errorf("item %d: %v %v", i, r.Value.KeyVersion, r.Err)
		}
		stored[i] = r.Value
		return nil
	}, column)
	if err != nil {
		t.Fatal(err)
	}
	ciphertexts := func(yield func(int, cipherd.FormattedItem) bool) {
		for i, v := range stored {
			if i != bad && !yield(i, cipherd.FormattedItem{Reference: strconv.Itoa(i), Ciphertext: v}) {
				return
			}
		}
	}
	err = cipherd.DecryptFormattedStream(ctx, c, key, ciphertexts, func(i int, r cipherd.FormattedResult) error {
		if r.Err != nil || r.Value.Value != plain[i].Value {
			return fmt.Errorf("item %d does not decrypt to its plaintext: %v", i, r.Err)
		}
		return nil
	}, column)
	if err != nil {
		t.Fatal(err)
	}

	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	var refs []string
	handle := func(i int, r cipherd.FormattedResult) error {
		if r.Err != nil || r.Value.KeyVersion != 2 || r.SourceKeyVersion != 1 {
			return fmt.Errorf("item %d: version %d from %d: %v", i, r.Value.KeyVersion, r.SourceKeyVersion, r.Err)
		}
		refs = append(refs, r.Reference)
		stored[i] = r.Value
		if len(refs) == cancelAt {
			cancel()
		}
		return nil
	}
	err = cipherd.ReEncryptFormattedStream(cancelled, c, key, ciphertexts, handle, column)
	var broken *cipherd.StreamError
	if !errors.As(err, &broken) || !errors.Is(err, cipherd.ErrCanceled) || broken.Handled != len(refs) {
		t.Fatalf("after cancel: %v, want a *StreamError matching ErrCanceled after %d items", err, len(refs))
	}
	if err := cipherd.ReEncryptFormattedStream(ctx, c, key, cipherd.ItemsAfter(ciphertexts, broken.LastReference), handle, column); err != nil {
		t.Fatalf("resumed: %v", err)
	}
	want := slices.DeleteFunc(slices.Collect(func(yield func(string) bool) {
		for i := range n {
			yield(strconv.Itoa(i))
		}
	}), func(ref string) bool { return ref == strconv.Itoa(bad) })
	if !slices.Equal(refs, want) {
		t.Fatalf("%d items rewrapped across the runs, want every item but the bad one once, in order", len(refs))
	}
	for _, i := range []int{0, cancelAt, n - 1} {
		if got, err := c.DecryptFormatted(ctx, key, stored[i], column); err != nil || got != plain[i].Value {
			t.Errorf("item %d after the rewrap: %v", i, err)
		}
	}
}
