package cipherd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// streamWindow bounds the items sent but not yet answered, and so the memory a stream holds.
const streamWindow = 512

// pending is an item in flight, or one refused locally that never needs a call.
type pending[T any] struct {
	tag      T
	ref      string
	localErr error
}

// ReEncryptStream rewraps items through one ReEncryptStream call to targetKey ("" for each item's
// own key) and calls handle once per item, in input order, with the caller's tag of the item.
// An item whose ciphertext does not parse is answered locally with its *CiphertextError. Sending
// and receiving overlap, with at most 512 items in flight. The first error of the stream or of
// handle ends the call; every item handled before it is final.
func ReEncryptStream[T any](ctx context.Context, c *Client, targetKey string, items iter.Seq2[T, CiphertextItem], handle func(T, Result) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.Crypto.ReEncryptStream(ctx)
	if err != nil {
		return err
	}
	inFlight := make(chan pending[T], streamWindow)
	sendDone := make(chan error, 1)
	go func() {
		defer close(inFlight)
		err := sendAll(ctx, stream, targetKey, items, inFlight)
		if err != nil {
			cancel() // unblocks Recv
		}
		sendDone <- err
	}()
	// The sender runs the caller's iterator: it has stopped when ReEncryptStream returns.
	defer func() {
		cancel()
		for range inFlight {
		}
	}()
	for p := range inFlight {
		if p.localErr != nil {
			if err := handle(p.tag, Result{Reference: p.ref, Err: p.localErr}); err != nil {
				return err
			}
			continue
		}
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("cipherd: stream ended before item %q was answered", p.ref)
		}
		if err != nil {
			return err
		}
		r := reEncryptResult(resp.GetResult())
		if r.Reference != p.ref {
			return fmt.Errorf("cipherd: stream answered %q where %q was due", r.Reference, p.ref)
		}
		if err := handle(p.tag, r); err != nil {
			return err
		}
	}
	if err := <-sendDone; err != nil {
		// The sender may stop on ctx before the stream reports it: type that error like the stream's.
		return fromRPC(err)
	}
	if _, err := stream.Recv(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("cipherd: stream did not end after the last item: %w", err)
	}
	return nil
}

func sendAll[T any](ctx context.Context, stream cipherdpb.CryptoService_ReEncryptStreamClient, targetKey string,
	items iter.Seq2[T, CiphertextItem], inFlight chan<- pending[T]) error {
	for tag, it := range items {
		p := pending[T]{tag: tag, ref: it.Reference}
		if _, err := ParseCiphertext(it.Ciphertext); err != nil {
			p.localErr = err
		}
		select {
		case inFlight <- p:
		case <-ctx.Done():
			return ctx.Err()
		}
		if p.localErr != nil {
			continue
		}
		err := stream.Send(&cipherdpb.ReEncryptStreamRequest{Reference: it.Reference, Ciphertext: it.Ciphertext, Context: it.AAD, KeyName: targetKey})
		if errors.Is(err, io.EOF) {
			return nil // the server ended the stream; Recv reports why
		}
		if err != nil {
			return err
		}
	}
	return stream.CloseSend()
}
