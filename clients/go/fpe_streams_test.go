package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// formattedStreamRequest is any of the three formatted stream requests, as the fake reads them.
type formattedStreamRequest[Req any] interface {
	*Req
	proto.Message
	GetReference() string
	GetValue() string
}

// serveFormattedStream records each request of stream and sends answer's result for it, in order;
// with failStreamAfter set, the call ends with UNAVAILABLE after that many answers (once: the next
// call runs whole), as when the server goes away.
func serveFormattedStream[Req, Resp any, P formattedStreamRequest[Req]](f *fakeFPE, stream grpc.BidiStreamingServer[Req, Resp],
	answer func(P) *cipherdpb.FormattedBatchResult, wrap func(*cipherdpb.FormattedBatchResult) *Resp) error {
	f.mu.Lock()
	failAfter := f.failStreamAfter
	f.failStreamAfter = 0
	f.mu.Unlock()
	for answered := 0; ; answered++ {
		if failAfter > 0 && answered == failAfter {
			return status.Error(codes.Unavailable, "the fake server went away")
		}
		req, err := stream.Recv()
		if err != nil {
			return nil // io.EOF: the client sent everything
		}
		f.record(P(req))
		if err := stream.Send(wrap(answer(P(req)))); err != nil {
			return err
		}
	}
}

// The fake's stream answers are its batch answers: reversed values at version 3 for encrypt and
// decrypt, "re-" values at version 4 for rewrap, "bad" failing alone.

func (f *fakeFPE) EncryptFormattedStream(stream grpc.BidiStreamingServer[cipherdpb.EncryptFormattedStreamRequest, cipherdpb.EncryptFormattedStreamResponse]) error {
	return serveFormattedStream(f, stream, func(r *cipherdpb.EncryptFormattedStreamRequest) *cipherdpb.FormattedBatchResult {
		v := r.GetValue()
		if v != "bad" {
			v = reverse(v)
		}
		return itemResult(r.GetReference(), v, 3, 0)
	}, func(r *cipherdpb.FormattedBatchResult) *cipherdpb.EncryptFormattedStreamResponse {
		return &cipherdpb.EncryptFormattedStreamResponse{Result: r}
	})
}

func (f *fakeFPE) DecryptFormattedStream(stream grpc.BidiStreamingServer[cipherdpb.DecryptFormattedStreamRequest, cipherdpb.DecryptFormattedStreamResponse]) error {
	return serveFormattedStream(f, stream, func(r *cipherdpb.DecryptFormattedStreamRequest) *cipherdpb.FormattedBatchResult {
		v := r.GetValue()
		if v != "bad" {
			v = reverse(v)
		}
		return itemResult(r.GetReference(), v, r.GetKeyVersion(), 0)
	}, func(r *cipherdpb.FormattedBatchResult) *cipherdpb.DecryptFormattedStreamResponse {
		return &cipherdpb.DecryptFormattedStreamResponse{Result: r}
	})
}

func (f *fakeFPE) ReEncryptFormattedStream(stream grpc.BidiStreamingServer[cipherdpb.ReEncryptFormattedStreamRequest, cipherdpb.ReEncryptFormattedStreamResponse]) error {
	return serveFormattedStream(f, stream, func(r *cipherdpb.ReEncryptFormattedStreamRequest) *cipherdpb.FormattedBatchResult {
		v := r.GetValue()
		if v != "bad" {
			v = "re-" + v
		}
		return itemResult(r.GetReference(), v, 4, r.GetKeyVersion())
	}, func(r *cipherdpb.FormattedBatchResult) *cipherdpb.ReEncryptFormattedStreamResponse {
		return &cipherdpb.ReEncryptFormattedStreamResponse{Result: r}
	})
}

// formattedCiphertexts yields n items "0" to "n-1" with values "v<i>" at version 1, and "bad" at bad.
func formattedCiphertexts(n, bad int) iter.Seq2[int, cipherd.FormattedItem] {
	return func(yield func(int, cipherd.FormattedItem) bool) {
		for i := range n {
			v := fmt.Sprint("v", i)
			if i == bad {
				v = "bad"
			}
			if !yield(i, cipherd.FormattedItem{Reference: strconv.Itoa(i), Ciphertext: cipherd.FormattedValue{Value: v, KeyVersion: 1}}) {
				return
			}
		}
	}
}

func TestReEncryptFormattedStream_oneResultPerItemInOrderAFailedItemAlone(t *testing.T) {
	f, c := serveFakeFPE(t)
	const n, bad = 1500, 700
	var refs []string
	err := cipherd.ReEncryptFormattedStream(context.Background(), c, "cards", formattedCiphertexts(n, bad), func(i int, r cipherd.FormattedResult) error {
		refs = append(refs, r.Reference)
		switch {
		case r.Reference != strconv.Itoa(i):
			return fmt.Errorf("item %d answered as %s", i, r.Reference)
		case i == bad:
			if !errors.Is(r.Err, cipherd.ErrInvalidArgument) {
				return fmt.Errorf("the bad item: %v, want ErrInvalidArgument", r.Err)
			}
		case r.Err != nil || r.Value != (cipherd.FormattedValue{Value: fmt.Sprint("re-v", i), KeyVersion: 4}) || r.SourceKeyVersion != 1:
			return fmt.Errorf("item %d: %+v %v", i, r.Value, r.Err)
		}
		return nil
	}, cipherd.WithValueContext([]byte("payments.pan")))
	if err != nil {
		t.Fatal(err)
	}
	wantEveryItemOnceInOrder(t, refs, n)
	first := f.requests[0].(*cipherdpb.ReEncryptFormattedStreamRequest)
	if first.GetKeyName() != "cards" || string(first.GetContext()) != "payments.pan" || first.GetKeyVersion() != 1 || len(f.requests) != n {
		t.Errorf("first request %v, %d requests: want the key, the call's context and the item's version on each", first, len(f.requests))
	}
}

func TestFormattedStreams_encryptAndDecryptAnswerInOrderWithTheItemsContextFirst(t *testing.T) {
	f, c := serveFakeFPE(t)
	plain := []cipherd.FormattedPlainItem{{Reference: "a", Value: "1234"}, {Reference: "b", Value: "bad"}, {Reference: "c", Value: "5678", Context: []byte("own")}}
	var got []cipherd.FormattedResult
	err := cipherd.EncryptFormattedStream(context.Background(), c, "ids", slices.All(plain), func(_ int, r cipherd.FormattedResult) error {
		got = append(got, r)
		return nil
	}, cipherd.WithValueContext([]byte("users.id")))
	if err != nil || len(got) != 3 || got[0].Value.Value != "4321" || got[0].Value.KeyVersion != 3 || !errors.Is(got[1].Err, cipherd.ErrInvalidArgument) || got[2].Value.Value != "8765" {
		t.Fatalf("encrypt stream: %v, %v", err, got)
	}
	if ctx := string(f.requests[2].(*cipherdpb.EncryptFormattedStreamRequest).GetContext()); ctx != "own" {
		t.Errorf("item c went with context %q, want its own", ctx)
	}
	back := []cipherd.FormattedItem{{Reference: "a", Ciphertext: got[0].Value}, {Reference: "c", Ciphertext: got[2].Value}}
	var plains []string
	err = cipherd.DecryptFormattedStream(context.Background(), c, "ids", slices.All(back), func(_ int, r cipherd.FormattedResult) error {
		plains = append(plains, r.Reference+"="+r.Value.Value)
		return r.Err
	})
	if err != nil || !slices.Equal(plains, []string{"a=1234", "c=5678"}) {
		t.Fatalf("decrypt stream: %v, %v", err, plains)
	}
	if v := f.requests[3].(*cipherdpb.DecryptFormattedStreamRequest).GetKeyVersion(); v != 3 {
		t.Errorf("decrypt sent version %d, want the 3 encrypt returned", v)
	}
}

func TestReEncryptFormattedStream_brokenMidway_resumesAfterLastReference(t *testing.T) {
	f, c := serveFakeFPE(t)
	const n, breakAt = 2000, 900
	f.failStreamAfter = breakAt
	var refs []string
	handle := func(i int, r cipherd.FormattedResult) error {
		refs = append(refs, r.Reference)
		if r.Err != nil || r.Value.Value != fmt.Sprint("re-v", i) {
			return fmt.Errorf("item %d: %v", i, r.Err)
		}
		return nil
	}
	err := cipherd.ReEncryptFormattedStream(context.Background(), c, "cards", formattedCiphertexts(n, -1), handle)
	var broken *cipherd.StreamError
	if !errors.As(err, &broken) || !errors.Is(err, cipherd.ErrUnavailable) {
		t.Fatalf("broken stream: %v, want a *StreamError matching ErrUnavailable", err)
	}
	if broken.Handled != breakAt || broken.LastReference != strconv.Itoa(breakAt-1) || len(refs) != breakAt {
		t.Fatalf("StreamError says %d handled, last %q; the handler saw %d", broken.Handled, broken.LastReference, len(refs))
	}
	if err := cipherd.ReEncryptFormattedStream(context.Background(), c, "cards", cipherd.ItemsAfter(formattedCiphertexts(n, -1), broken.LastReference), handle); err != nil {
		t.Fatalf("resumed stream: %v", err)
	}
	wantEveryItemOnceInOrder(t, refs, n)
	if len(f.requests) < n {
		t.Errorf("%d requests reached the fake, want at least %d", len(f.requests), n)
	}
}
