package cipherd

import (
	"cmp"
	"context"
	"iter"

	"google.golang.org/grpc"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// EncryptStream encrypts items with keyName through one EncryptStream call and calls handle once
// per item, in input order, with the caller's tag of the item and its Result (Ciphertext, or Err).
// At most 512 items are in flight. The call ends at the end of items, or with a *StreamError
// saying which items were handled: resume with the items after its LastReference. WithSubject is
// the subject of every item that names none of its own, WithRenewErasedSubject applies to every
// item's subject; an item of an erased subject fails alone with ErrSubjectErased.
func EncryptStream[T any](ctx context.Context, c *Client, keyName string, items iter.Seq2[T, PlaintextItem], handle func(T, Result) error, opts ...CallOption) error {
	s := callOptions(opts)
	return runStream(ctx, streamKind[PlaintextItem, cipherdpb.EncryptStreamRequest, cipherdpb.EncryptStreamResponse, Result]{
		failed: failedResult,
		open: func(ctx context.Context) (grpc.BidiStreamingClient[cipherdpb.EncryptStreamRequest, cipherdpb.EncryptStreamResponse], error) {
			return c.crypto.EncryptStream(ctx)
		},
		request: func(it PlaintextItem) (string, *cipherdpb.EncryptStreamRequest, error) {
			return it.Reference, &cipherdpb.EncryptStreamRequest{Reference: it.Reference, KeyName: keyName, Plaintext: it.Plaintext, Context: it.AAD,
				Subject: cmp.Or(it.Subject, s.subject), RenewErasedSubject: s.renewErasure}, nil
		},
		result: func(resp *cipherdpb.EncryptStreamResponse) Result { return encryptResult(resp.GetResult()) },
	}, items, handle)
}

// DecryptStream decrypts items through one DecryptStream call, like EncryptStream: one Result
// (Plaintext, or Err) per item, in order. An item whose ciphertext does not parse is answered
// locally with its *CiphertextError. WithExpectedKey is the key of every item that names none of
// its own.
func DecryptStream[T any](ctx context.Context, c *Client, items iter.Seq2[T, CiphertextItem], handle func(T, Result) error, opts ...CallOption) error {
	expected := callOptions(opts).expectedKey
	return runStream(ctx, streamKind[CiphertextItem, cipherdpb.DecryptStreamRequest, cipherdpb.DecryptStreamResponse, Result]{
		failed: failedResult,
		open: func(ctx context.Context) (grpc.BidiStreamingClient[cipherdpb.DecryptStreamRequest, cipherdpb.DecryptStreamResponse], error) {
			return c.crypto.DecryptStream(ctx)
		},
		request: func(it CiphertextItem) (string, *cipherdpb.DecryptStreamRequest, error) {
			if it.Legacy != nil {
				return it.Reference, nil, errLegacyNotDecryptable
			}
			if _, err := ParseCiphertext(it.Ciphertext); err != nil && !IsTransitCiphertext(it.Ciphertext) {
				return it.Reference, nil, err
			}
			return it.Reference, &cipherdpb.DecryptStreamRequest{Reference: it.Reference, Ciphertext: it.Ciphertext, Context: it.AAD, ExpectedKey: cmp.Or(it.ExpectedKey, expected)}, nil
		},
		result: func(resp *cipherdpb.DecryptStreamResponse) Result { return decryptResult(resp.GetResult()) },
	}, items, handle)
}

// ReEncryptStream rewraps items through one ReEncryptStream call to targetKey ("" for each item's
// own key), like EncryptStream: one Result (Ciphertext, KeyVersion, SourceKeyVersion, or Err) per
// item, in order. An item whose ciphertext does not parse is answered locally with its
// *CiphertextError (a Vault Transit one, IsTransitCiphertext, goes to the server). Items with Legacy set are rewrapped from their legacy key into targetKey.
// WithExpectedKey is the key of every item that names none of its own.
func ReEncryptStream[T any](ctx context.Context, c *Client, targetKey string, items iter.Seq2[T, CiphertextItem], handle func(T, Result) error, opts ...CallOption) error {
	expected := callOptions(opts).expectedKey
	return runStream(ctx, streamKind[CiphertextItem, cipherdpb.ReEncryptStreamRequest, cipherdpb.ReEncryptStreamResponse, Result]{
		failed: failedResult,
		open: func(ctx context.Context) (grpc.BidiStreamingClient[cipherdpb.ReEncryptStreamRequest, cipherdpb.ReEncryptStreamResponse], error) {
			return c.crypto.ReEncryptStream(ctx)
		},
		request: func(it CiphertextItem) (string, *cipherdpb.ReEncryptStreamRequest, error) {
			req := &cipherdpb.ReEncryptStreamRequest{Reference: it.Reference, Context: it.AAD, KeyName: targetKey, ExpectedKey: cmp.Or(it.ExpectedKey, expected)}
			if it.Legacy != nil {
				req.Legacy = it.Legacy.proto() // no header to check: the legacy key decides
				return it.Reference, req, nil
			}
			if _, err := ParseCiphertext(it.Ciphertext); err != nil && !IsTransitCiphertext(it.Ciphertext) {
				return it.Reference, nil, err
			}
			req.Ciphertext = it.Ciphertext
			return it.Reference, req, nil
		},
		result: func(resp *cipherdpb.ReEncryptStreamResponse) Result { return reEncryptResult(resp.GetResult()) },
	}, items, handle)
}

// streamItem is an item of a stream call: it has a reference.
type streamItem interface {
	PlaintextItem | CiphertextItem | FormattedPlainItem | FormattedItem
	reference() string
}

func (it PlaintextItem) reference() string  { return it.Reference }
func (it CiphertextItem) reference() string { return it.Reference }

// ItemsAfter yields the items that follow the one referenced last: how to resume a stream call
// after a *StreamError, given the same items (references must be unique) and its LastReference.
// "" yields every item; a reference that never appears yields none.
func ItemsAfter[T any, I streamItem](items iter.Seq2[T, I], last string) iter.Seq2[T, I] {
	return func(yield func(T, I) bool) {
		seen := last == ""
		for tag, it := range items {
			if !seen {
				seen = it.reference() == last
				continue
			}
			if !yield(tag, it) {
				return
			}
		}
	}
}
