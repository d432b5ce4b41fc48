package cipherd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"google.golang.org/grpc"
)

// streamWindow bounds the items sent but not yet answered, and so the memory a stream holds.
const streamWindow = 512

// StreamError is how every stream call ends early: after a broken connection, a server restart,
// ctx ending or an error of handle. Every item up to LastReference was handled and is final; to
// resume, call again with the items after it (ItemsAfter does that for an iterator that can be
// run again). Errors.Is and errors.As see the cause (ErrUnavailable, ErrCanceled, ...).
type StreamError struct {
	// LastReference is the reference of the last item handled, "" if none was.
	LastReference string
	// Handled is how many items of this call were handled (a resume after items[Handled:] of a slice).
	Handled int
	// Err is why the stream ended.
	Err error
}

func (e *StreamError) Error() string {
	if e.Handled == 0 {
		return fmt.Sprintf("cipherd: stream ended before any item was handled: %v", e.Err)
	}
	return fmt.Sprintf("cipherd: stream ended after %d items, the last %q: %v", e.Handled, e.LastReference, e.Err)
}

func (e *StreamError) Unwrap() error { return e.Err }

// streamKind is what differs between the stream calls: EncryptStream, DecryptStream and
// ReEncryptStream answer a Result per item, the formatted streams a FormattedResult.
type streamKind[I, Req, Resp any, R streamResult] struct {
	open func(context.Context) (grpc.BidiStreamingClient[Req, Resp], error)
	// request builds the request of an item, or the error that answers it without a call.
	request func(I) (ref string, req *Req, localErr error)
	result  func(*Resp) R
	// failed is the result of an item refused locally.
	failed func(ref string, err error) R
}

// streamResult is an item's outcome in a stream: it names its item.
type streamResult interface {
	Result | FormattedResult
	reference() string
}

func (r Result) reference() string          { return r.Reference }
func (r FormattedResult) reference() string { return r.Reference }

// failedResult is a Result of an item refused locally with err.
func failedResult(ref string, err error) Result { return Result{Reference: ref, Err: err} }

// pending is an item in flight, or one refused locally that never needs a call.
type pending[T any] struct {
	tag      T
	ref      string
	localErr error
}

// runStream sends items through one stream of kind and calls handle once per item, in input
// order. Sending and receiving overlap, with at most streamWindow items in flight: the sender
// waits for answers to be read, and gRPC flow control makes the server wait for this reader.
func runStream[T, I, Req, Resp any, R streamResult](ctx context.Context, kind streamKind[I, Req, Resp, R], items iter.Seq2[T, I], handle func(T, R) error) error {
	progress := &StreamError{}
	err := receiveAll(ctx, kind, items, func(tag T, r R) error {
		if err := handle(tag, r); err != nil {
			return err
		}
		progress.LastReference, progress.Handled = r.reference(), progress.Handled+1
		return nil
	})
	if err == nil {
		return nil
	}
	progress.Err = err
	return progress
}

func receiveAll[T, I, Req, Resp any, R streamResult](ctx context.Context, kind streamKind[I, Req, Resp, R], items iter.Seq2[T, I], handle func(T, R) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := kind.open(ctx)
	if err != nil {
		return fromRPC(err)
	}
	inFlight := make(chan pending[T], streamWindow)
	sendDone := make(chan error, 1)
	go func() {
		defer close(inFlight)
		err := sendAll(ctx, stream, kind, items, inFlight)
		if err != nil {
			cancel() // unblocks Recv
		}
		sendDone <- err
	}()
	// The sender runs the caller's iterator: it has stopped when the stream call returns.
	defer func() {
		cancel()
		for range inFlight {
		}
	}()
	for p := range inFlight {
		if p.localErr != nil {
			if err := handle(p.tag, kind.failed(p.ref, p.localErr)); err != nil {
				return err
			}
			continue
		}
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("cipherd: stream ended before item %q was answered", p.ref)
		}
		if err != nil {
			return fromRPC(err)
		}
		r := kind.result(resp)
		if r.reference() != p.ref {
			return fmt.Errorf("cipherd: stream answered %q where %q was due", r.reference(), p.ref)
		}
		if err := handle(p.tag, r); err != nil {
			return err
		}
	}
	if err := <-sendDone; err != nil {
		// The sender may stop on ctx before the stream reports it: type that error like the stream's.
		return fromRPC(err)
	}
	switch _, err := stream.Recv(); {
	case err == nil:
		return errors.New("cipherd: stream answered more items than were sent")
	case !errors.Is(err, io.EOF):
		return fromRPC(err)
	}
	return nil
}

func sendAll[T, I, Req, Resp any, R streamResult](ctx context.Context, stream grpc.BidiStreamingClient[Req, Resp], kind streamKind[I, Req, Resp, R],
	items iter.Seq2[T, I], inFlight chan<- pending[T]) error {
	for tag, it := range items {
		ref, req, localErr := kind.request(it)
		select {
		case inFlight <- pending[T]{tag: tag, ref: ref, localErr: localErr}:
		case <-ctx.Done():
			return ctx.Err()
		}
		if localErr != nil {
			continue
		}
		err := stream.Send(req)
		if errors.Is(err, io.EOF) {
			return nil // the server ended the stream; Recv reports why
		}
		if err != nil {
			return err
		}
	}
	return stream.CloseSend()
}
