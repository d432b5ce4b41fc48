package cipherd

import (
	"context"
	"iter"

	"google.golang.org/grpc"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// EncryptFormattedStream encrypts items with keyName's current version through one
// EncryptFormattedStream call and calls handle once per item, in input order, with the caller's tag
// of the item and its FormattedResult (Value with the version to store beside it, or Err). It runs
// like EncryptStream: at most 512 items in flight, and an early end is a *StreamError saying which
// items were handled: resume with ItemsAfter its LastReference. WithValueContext is the context of
// every item that gives none.
func EncryptFormattedStream[T any](ctx context.Context, c *Client, keyName string, items iter.Seq2[T, FormattedPlainItem],
	handle func(T, FormattedResult) error, opts ...FormattedOption) error {
	s := formattedOptions(opts)
	return runStream(ctx, streamKind[FormattedPlainItem, cipherdpb.EncryptFormattedStreamRequest, cipherdpb.EncryptFormattedStreamResponse, FormattedResult]{
		open: func(ctx context.Context) (grpc.BidiStreamingClient[cipherdpb.EncryptFormattedStreamRequest, cipherdpb.EncryptFormattedStreamResponse], error) {
			return c.fpe.EncryptFormattedStream(ctx)
		},
		request: func(it FormattedPlainItem) (string, *cipherdpb.EncryptFormattedStreamRequest, error) {
			return it.Reference, &cipherdpb.EncryptFormattedStreamRequest{Reference: it.Reference, KeyName: keyName, Value: it.Value,
				Context: orContext(it.Context, s.context)}, nil
		},
		result: func(resp *cipherdpb.EncryptFormattedStreamResponse) FormattedResult {
			return formattedResult(resp.GetResult())
		},
		failed: failedFormatted,
	}, items, handle)
}

// DecryptFormattedStream decrypts items, each with the version it carries, through one
// DecryptFormattedStream call, like EncryptFormattedStream: one FormattedResult (the plaintext and
// the version that decrypted it, or Err) per item, in order.
func DecryptFormattedStream[T any](ctx context.Context, c *Client, keyName string, items iter.Seq2[T, FormattedItem],
	handle func(T, FormattedResult) error, opts ...FormattedOption) error {
	s := formattedOptions(opts)
	return runStream(ctx, streamKind[FormattedItem, cipherdpb.DecryptFormattedStreamRequest, cipherdpb.DecryptFormattedStreamResponse, FormattedResult]{
		open: func(ctx context.Context) (grpc.BidiStreamingClient[cipherdpb.DecryptFormattedStreamRequest, cipherdpb.DecryptFormattedStreamResponse], error) {
			return c.fpe.DecryptFormattedStream(ctx)
		},
		request: func(it FormattedItem) (string, *cipherdpb.DecryptFormattedStreamRequest, error) {
			return it.Reference, &cipherdpb.DecryptFormattedStreamRequest{Reference: it.Reference, KeyName: keyName, Value: it.Ciphertext.Value,
				Context: orContext(it.Context, s.context), KeyVersion: it.Ciphertext.KeyVersion}, nil
		},
		result: func(resp *cipherdpb.DecryptFormattedStreamResponse) FormattedResult {
			return formattedResult(resp.GetResult())
		},
		failed: failedFormatted,
	}, items, handle)
}

// ReEncryptFormattedStream moves items to keyName's current version through one
// ReEncryptFormattedStream call, the plaintexts never reaching the client, like
// EncryptFormattedStream: one FormattedResult (the new value and version, SourceKeyVersion, or Err)
// per item, in order. How to move a whole column after a rotation.
func ReEncryptFormattedStream[T any](ctx context.Context, c *Client, keyName string, items iter.Seq2[T, FormattedItem],
	handle func(T, FormattedResult) error, opts ...FormattedOption) error {
	s := formattedOptions(opts)
	return runStream(ctx, streamKind[FormattedItem, cipherdpb.ReEncryptFormattedStreamRequest, cipherdpb.ReEncryptFormattedStreamResponse, FormattedResult]{
		open: func(ctx context.Context) (grpc.BidiStreamingClient[cipherdpb.ReEncryptFormattedStreamRequest, cipherdpb.ReEncryptFormattedStreamResponse], error) {
			return c.fpe.ReEncryptFormattedStream(ctx)
		},
		request: func(it FormattedItem) (string, *cipherdpb.ReEncryptFormattedStreamRequest, error) {
			return it.Reference, &cipherdpb.ReEncryptFormattedStreamRequest{Reference: it.Reference, KeyName: keyName, Value: it.Ciphertext.Value,
				Context: orContext(it.Context, s.context), KeyVersion: it.Ciphertext.KeyVersion}, nil
		},
		result: func(resp *cipherdpb.ReEncryptFormattedStreamResponse) FormattedResult {
			return formattedResult(resp.GetResult())
		},
		failed: failedFormatted,
	}, items, handle)
}

// failedFormatted is the FormattedResult of an item refused locally with err.
func failedFormatted(ref string, err error) FormattedResult {
	return FormattedResult{Reference: ref, Err: err}
}

// orContext is an item's context, else the call's: a stream request has no call-wide context.
func orContext(item, call []byte) []byte {
	if len(item) > 0 {
		return item
	}
	return call
}

func (it FormattedPlainItem) reference() string { return it.Reference }
func (it FormattedItem) reference() string      { return it.Reference }
