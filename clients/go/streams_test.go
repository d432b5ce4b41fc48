package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// answered records the references a stream handled, across runs, and fails on any out of order.
type answered struct {
	refs []string
}

func (a *answered) check(ref string, r cipherd.Result) error {
	if r.Reference != ref {
		return fmt.Errorf("item %s answered as %s", ref, r.Reference)
	}
	a.refs = append(a.refs, ref)
	return nil
}

// wantEveryItemOnceInOrder fails unless refs are "0" to "n-1", each once, in order.
func wantEveryItemOnceInOrder(t *testing.T, refs []string, n int) {
	t.Helper()
	if len(refs) != n {
		t.Fatalf("%d items answered across the runs, want %d", len(refs), n)
	}
	for i, ref := range refs {
		if ref != strconv.Itoa(i) {
			t.Fatalf("answer %d is item %s: not every item once, in order", i, ref)
		}
	}
}

// plaintexts yields n items with references "0" to "n-1"; the tag is the index.
func plaintexts(n int) iter.Seq2[int, cipherd.PlaintextItem] {
	return func(yield func(int, cipherd.PlaintextItem) bool) {
		for i := range n {
			if !yield(i, cipherd.PlaintextItem{Reference: strconv.Itoa(i), Plaintext: []byte(fmt.Sprint("row ", i))}) {
				return
			}
		}
	}
}

// TestEncryptStream_serverKilledMidway_resumesAfterLastReference kills the server process while a
// stream of 5000 items is running, restarts it on the same address and data, and resumes after
// the last reference received: every item is answered exactly once across the runs, in order, and
// every ciphertext decrypts to its own plaintext.
func TestEncryptStream_serverKilledMidway_resumesAfterLastReference(t *testing.T) {
	if plain == nil {
		t.Skip("no server (jar not built)")
	}
	srv, err := testserver.Start(testserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	c := dial(t, srv.Addr, cipherd.WithInsecure())
	ctx := context.Background()
	key := newKey(t, c, "killed")
	const n, killAt = 5000, 1500

	var got answered
	ciphertexts := make([]string, n)
	handle := func(i int, r cipherd.Result) error {
		if r.Err != nil {
			return fmt.Errorf("item %d: %w", i, r.Err)
		}
		ciphertexts[i] = r.Ciphertext
		if err := got.check(strconv.Itoa(i), r); err != nil {
			return err
		}
		if len(got.refs) == killAt {
			srv.Kill()
		}
		return nil
	}
	err = cipherd.EncryptStream(ctx, c, key, plaintexts(n), handle)
	var broken *cipherd.StreamError
	if !errors.As(err, &broken) || !errors.Is(err, cipherd.ErrUnavailable) {
		t.Fatalf("after the kill: %v, want a *StreamError matching ErrUnavailable", err)
	}
	if broken.Handled != len(got.refs) || broken.LastReference != got.refs[len(got.refs)-1] || broken.Handled >= n {
		t.Fatalf("StreamError says %d handled, last %q; the handler saw %d, last %q", broken.Handled,
			broken.LastReference, len(got.refs), got.refs[len(got.refs)-1])
	}
	t.Logf("first run: %d items, then %v", broken.Handled, err)

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	resumeUntilDone(t, broken.LastReference, func(last string) error {
		return cipherd.EncryptStream(ctx, c, key, cipherd.ItemsAfter(plaintexts(n), last), handle)
	})
	wantEveryItemOnceInOrder(t, got.refs, n)

	items := func(yield func(int, cipherd.CiphertextItem) bool) {
		for i, ct := range ciphertexts {
			if !yield(i, cipherd.CiphertextItem{Reference: strconv.Itoa(i), Ciphertext: ct}) {
				return
			}
		}
	}
	decrypted := 0
	err = cipherd.DecryptStream(ctx, c, items, func(i int, r cipherd.Result) error {
		if r.Err != nil || string(r.Plaintext) != fmt.Sprint("row ", i) {
			return fmt.Errorf("item %d does not decrypt to its plaintext: %v", i, r.Err)
		}
		decrypted++
		return nil
	})
	if err != nil || decrypted != n {
		t.Fatalf("decrypted %d of %d: %v", decrypted, n, err)
	}
}

// TestEncryptStream_serverDrained_resumesAfterLastReference sends SIGTERM, as a rollout does, while
// a stream of 5000 items runs on a server with a 60 s grace period: the stream ends at the start of
// the drain, not at its end, with UNAVAILABLE (a *StreamError matching ErrUnavailable) after every
// item the server received was answered; the server exits 0, and resuming after the last reference
// on the restarted server answers every item once, in order.
func TestEncryptStream_serverDrained_resumesAfterLastReference(t *testing.T) {
	if plain == nil {
		t.Skip("no server (jar not built)")
	}
	srv, err := testserver.Start(testserver.Options{Args: []string{"--shutdown-grace", "PT60S"}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	c := dial(t, srv.Addr, cipherd.WithInsecure())
	ctx := context.Background()
	key := newKey(t, c, "drained")
	const n, termAt = 5000, 1500

	var got answered
	var signalled time.Time
	exited := make(chan error, 1)
	handle := func(i int, r cipherd.Result) error {
		if r.Err != nil {
			return fmt.Errorf("item %d: %w", i, r.Err)
		}
		if err := got.check(strconv.Itoa(i), r); err != nil {
			return err
		}
		if len(got.refs) == termAt {
			signalled = time.Now()
			go func() { exited <- srv.Terminate() }()
		}
		return nil
	}
	err = cipherd.EncryptStream(ctx, c, key, plaintexts(n), handle)
	ended := time.Since(signalled)
	var broken *cipherd.StreamError
	if !errors.As(err, &broken) || !errors.Is(err, cipherd.ErrUnavailable) {
		t.Fatalf("after SIGTERM: %v, want a *StreamError matching ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), "server is shutting down") {
		t.Errorf("the error does not say why: %v", err)
	}
	if ended > 10*time.Second {
		t.Errorf("the stream ended %v after SIGTERM: it waited for the grace period", ended)
	}
	if broken.Handled != len(got.refs) || broken.LastReference != got.refs[len(got.refs)-1] || broken.Handled >= n {
		t.Fatalf("StreamError says %d handled, last %q; the handler saw %d", broken.Handled, broken.LastReference, len(got.refs))
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the server did not exit 0 after the drain: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit within 30s of SIGTERM")
	}
	t.Logf("first run: %d items, ended %v after SIGTERM: %v", broken.Handled, ended, err)

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	resumeUntilDone(t, broken.LastReference, func(last string) error {
		return cipherd.EncryptStream(ctx, c, key, cipherd.ItemsAfter(plaintexts(n), last), handle)
	})
	wantEveryItemOnceInOrder(t, got.refs, n)
}

// resumeUntilDone calls run with the last reference handled so far until it succeeds, as a caller
// would while the restarted server becomes reachable again.
func resumeUntilDone(t *testing.T, last string, run func(last string) error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := run(last)
		if err == nil {
			return
		}
		var broken *cipherd.StreamError
		if !errors.As(err, &broken) || !errors.Is(err, cipherd.ErrUnavailable) || time.Now().After(deadline) {
			t.Fatalf("resuming after %q: %v", last, err)
		}
		if broken.Handled > 0 {
			last = broken.LastReference
		}
		t.Logf("resuming again after %q: %v", last, err)
		time.Sleep(200 * time.Millisecond)
	}
}

// TestDecryptStream_cancelledMidway_resumesAfterLastReference cancels a stream of 3000 items,
// resumes after its last reference, and checks every item was answered once, in order, with bad
// items answered by their own error without ending the stream.
func TestDecryptStream_cancelledMidway_resumesAfterLastReference(t *testing.T) {
	c := dialPlain(t)
	key := newKey(t, c, "dstream")
	const n, cancelAt, malformed, wrongAAD = 3000, 700, 5, 2500
	enc, err := c.EncryptBatch(context.Background(), key, slices.Collect(func(yield func(cipherd.PlaintextItem) bool) {
		for _, it := range plaintexts(n) {
			it.AAD = []byte("ctx")
			if !yield(it) {
				return
			}
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	items := func(yield func(int, cipherd.CiphertextItem) bool) {
		for i, r := range enc {
			it := cipherd.CiphertextItem{Reference: r.Reference, Ciphertext: r.Ciphertext, AAD: []byte("ctx")}
			switch i {
			case malformed:
				it.Ciphertext = "<broken"
			case wrongAAD:
				it.AAD = []byte("other")
			}
			if !yield(i, it) {
				return
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var got answered
	handle := func(i int, r cipherd.Result) error {
		switch {
		case i == malformed && !errors.Is(r.Err, cipherd.ErrMalformedCiphertext):
			return fmt.Errorf("malformed item: %v", r.Err)
		case i == wrongAAD && !errors.Is(r.Err, cipherd.ErrDecryptionFailed):
			return fmt.Errorf("item with the wrong AAD: %v", r.Err)
		case i != malformed && i != wrongAAD && (r.Err != nil || string(r.Plaintext) != fmt.Sprint("row ", i)):
			return fmt.Errorf("item %d does not decrypt to its plaintext: %v", i, r.Err)
		}
		if len(got.refs) == cancelAt-1 {
			cancel()
		}
		return got.check(strconv.Itoa(i), r)
	}
	err = cipherd.DecryptStream(ctx, c, items, handle)
	var broken *cipherd.StreamError
	if !errors.As(err, &broken) || !errors.Is(err, cipherd.ErrCanceled) {
		t.Fatalf("after cancel: %v, want a *StreamError matching ErrCanceled", err)
	}
	if broken.Handled != len(got.refs) || broken.LastReference != got.refs[len(got.refs)-1] || broken.Handled < cancelAt || broken.Handled >= n {
		t.Fatalf("StreamError says %d handled, last %q; the handler saw %d", broken.Handled, broken.LastReference, len(got.refs))
	}
	if err := cipherd.DecryptStream(context.Background(), c, cipherd.ItemsAfter(items, broken.LastReference), handle); err != nil {
		t.Fatalf("resumed stream: %v", err)
	}
	wantEveryItemOnceInOrder(t, got.refs, n)
}

func TestEncryptStream_handlerErrorEndsTheStreamAfterTheLastHandledItem(t *testing.T) {
	c := dialPlain(t)
	key := newKey(t, c, "handler")
	stop := errors.New("disk full")
	err := cipherd.EncryptStream(context.Background(), c, key, plaintexts(1000), func(i int, r cipherd.Result) error {
		if i == 300 {
			return stop
		}
		return r.Err
	})
	var broken *cipherd.StreamError
	if !errors.As(err, &broken) || !errors.Is(err, stop) || broken.Handled != 300 || broken.LastReference != "299" {
		t.Fatalf("handler error: %v (%+v), want a *StreamError wrapping it after item 299", err, broken)
	}
}

func TestEncryptStream_unknownKeyFailsEachItem(t *testing.T) {
	c := dialPlain(t)
	var kinds []string
	err := cipherd.EncryptStream(context.Background(), c, "no-such-key", plaintexts(3), func(_ int, r cipherd.Result) error {
		var e *cipherd.Error
		if !errors.As(r.Err, &e) {
			return fmt.Errorf("item %s: %v, want an *Error", r.Reference, r.Err)
		}
		if e.Reason != "KEY_NOT_FOUND" {
			return fmt.Errorf("item %s: reason %q, want KEY_NOT_FOUND", r.Reference, e.Reason)
		}
		kinds = append(kinds, e.Kind())
		return nil
	})
	if err != nil || !slices.Equal(kinds, []string{"not_found", "not_found", "not_found"}) {
		t.Fatalf("stream: %v, item errors %v, want not_found for each item", err, kinds)
	}
}

func TestItemsAfter(t *testing.T) {
	refs := func(seq iter.Seq2[int, cipherd.PlaintextItem]) []string {
		var out []string
		for _, it := range seq {
			out = append(out, it.Reference)
		}
		return out
	}
	for _, tc := range []struct {
		last string
		want []string
	}{
		{"", []string{"0", "1", "2", "3"}},
		{"0", []string{"1", "2", "3"}},
		{"2", []string{"3"}},
		{"3", nil},
		{"absent", nil},
	} {
		if got := refs(cipherd.ItemsAfter(plaintexts(4), tc.last)); !slices.Equal(got, tc.want) {
			t.Errorf("ItemsAfter(%q) = %v, want %v", tc.last, got, tc.want)
		}
	}
}
