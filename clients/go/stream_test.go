package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestReEncryptStream_answersEveryItemInOrder(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "stream")
	const n = 3000 // more than the window of 512 in flight
	plain := make([]cipherd.PlaintextItem, n)
	for i := range plain {
		plain[i] = cipherd.PlaintextItem{Reference: fmt.Sprint(i), Plaintext: []byte(fmt.Sprint("p", i))}
	}
	enc, err := c.EncryptBatch(ctx, key, plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	items := func(yield func(int, cipherd.CiphertextItem) bool) {
		for i, r := range enc {
			ct := r.Ciphertext
			if i == 5 {
				ct = "not a ciphertext" // refused locally, still answered in its place
			}
			if !yield(i, cipherd.CiphertextItem{Reference: r.Reference, Ciphertext: ct}) {
				return
			}
		}
	}
	next := 0
	err = cipherd.ReEncryptStream(ctx, c, "", items, func(i int, r cipherd.Result) error {
		if i != next || r.Reference != fmt.Sprint(i) {
			return fmt.Errorf("item %d (%s) answered where %d was due", i, r.Reference, next)
		}
		next++
		if i == 5 {
			if !errors.Is(r.Err, cipherd.ErrMalformedCiphertext) {
				return fmt.Errorf("item 5: %v, want ErrMalformedCiphertext", r.Err)
			}
			return nil
		}
		if r.Err != nil || r.KeyVersion != 2 || r.SourceKeyVersion != 1 {
			return fmt.Errorf("item %d: %+v", i, r)
		}
		return nil
	})
	if err != nil || next != n {
		t.Fatalf("stream: %d of %d answered, %v", next, n, err)
	}
}

func TestReEncryptStream_cancelStopsTheStream(t *testing.T) {
	c := dialPlain(t)
	ctx, cancel := context.WithCancel(context.Background())
	key := newKey(t, c, "cancel")
	ct, err := c.Encrypt(ctx, key, []byte("z"))
	if err != nil {
		t.Fatal(err)
	}
	var endless iter.Seq2[int, cipherd.CiphertextItem] = func(yield func(int, cipherd.CiphertextItem) bool) {
		for i := 0; yield(i, cipherd.CiphertextItem{Reference: fmt.Sprint(i), Ciphertext: ct}); i++ {
		}
	}
	handled := 0
	done := make(chan error, 1)
	go func() {
		done <- cipherd.ReEncryptStream(ctx, c, "", endless, func(int, cipherd.Result) error {
			if handled++; handled == 100 {
				cancel()
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, cipherd.ErrCanceled) {
			t.Fatalf("after cancel: %v, want ErrCanceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the stream did not stop after cancel")
	}
}

func TestReEncryptStream_deadlineEndsTheStream(t *testing.T) {
	c := dialPlain(t)
	key := newKey(t, c, "deadline")
	ct, err := c.Encrypt(context.Background(), key, []byte("z"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	endless := func(yield func(int, cipherd.CiphertextItem) bool) {
		for i := 0; yield(i, cipherd.CiphertextItem{Reference: fmt.Sprint(i), Ciphertext: ct}); i++ {
		}
	}
	err = cipherd.ReEncryptStream(ctx, c, "", endless, func(int, cipherd.Result) error { return nil })
	if !errors.Is(err, cipherd.ErrDeadlineExceeded) {
		t.Fatalf("after the deadline: %v, want ErrDeadlineExceeded", err)
	}
}
