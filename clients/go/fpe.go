package cipherd

import (
	"context"
	"fmt"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// FormattedValue is a format-preserving ciphertext and the key version that made it. FF1 output
// carries no header and cannot tell a wrong version from a right one (it decrypts to a wrong value
// of the right shape), so the two travel together: EncryptFormatted returns one, and
// DecryptFormatted, ReEncryptFormatted and MaskFormatted take one. Store KeyVersion beside Value.
// KeyVersion 0 is only for a key whose format reserves a version prefix (the value names it);
// the server refuses it for any other key.
type FormattedValue struct {
	Value      string
	KeyVersion int32
}

// FormattedRewrapped is a value ReEncryptFormatted moved to the key's current version: the new
// value with its version, and the version it came from.
type FormattedRewrapped struct {
	FormattedValue
	SourceKeyVersion int32
}

// FormattedOption sets optional fields of the format-preserving calls.
type FormattedOption func(*formattedSettings)

type formattedSettings struct {
	context []byte
}

// WithValueContext names where a format-preserving value lives (e.g. "users.card_number"), hashed
// into FF1's tweak: the same value encrypts differently under another context, and decrypting
// needs the same bytes. For a batch, the context of every item that names none (at most 1,024 bytes).
func WithValueContext(context []byte) FormattedOption {
	return func(s *formattedSettings) { s.context = context }
}

func formattedOptions(opts []FormattedOption) formattedSettings {
	var s formattedSettings
	for _, opt := range opts {
		opt(&s)
	}
	return s
}

// EncryptFormatted encrypts value, a value of keyName's format, with the key's current version:
// the answer is a value of the same format and the version to store beside it.
func (c *Client) EncryptFormatted(ctx context.Context, keyName, value string, opts ...FormattedOption) (FormattedValue, error) {
	s := formattedOptions(opts)
	resp, err := c.fpe.EncryptFormatted(ctx, &cipherdpb.EncryptFormattedRequest{KeyName: keyName, Value: value, Context: s.context})
	if err != nil {
		return FormattedValue{}, err
	}
	return FormattedValue{Value: resp.GetValue(), KeyVersion: resp.GetKeyVersion()}, nil
}

// DecryptFormatted decrypts ciphertext with the version it names. A wrong version or context
// gives a wrong plaintext of the right shape, never an error: FF1 cannot tell.
func (c *Client) DecryptFormatted(ctx context.Context, keyName string, ciphertext FormattedValue, opts ...FormattedOption) (string, error) {
	s := formattedOptions(opts)
	resp, err := c.fpe.DecryptFormatted(ctx, &cipherdpb.DecryptFormattedRequest{KeyName: keyName, Value: ciphertext.Value,
		Context: s.context, KeyVersion: ciphertext.KeyVersion})
	if err != nil {
		return "", err
	}
	return resp.GetValue(), nil
}

// ReEncryptFormatted moves ciphertext to keyName's current version under the same context,
// without the plaintext reaching the client (it needs the rewrap operation, not decrypt).
func (c *Client) ReEncryptFormatted(ctx context.Context, keyName string, ciphertext FormattedValue, opts ...FormattedOption) (FormattedRewrapped, error) {
	s := formattedOptions(opts)
	resp, err := c.fpe.ReEncryptFormatted(ctx, &cipherdpb.ReEncryptFormattedRequest{KeyName: keyName, Value: ciphertext.Value,
		Context: s.context, KeyVersion: ciphertext.KeyVersion})
	if err != nil {
		return FormattedRewrapped{}, err
	}
	return FormattedRewrapped{FormattedValue: FormattedValue{Value: resp.GetValue(), KeyVersion: resp.GetKeyVersion()},
		SourceKeyVersion: resp.GetSourceKeyVersion()}, nil
}

// MaskFormatted is the display mask of ciphertext's plaintext as the key's format defines it
// (e.g. "•••• •••• •••• 4242"), never the plaintext: it needs the mask operation, not decrypt.
func (c *Client) MaskFormatted(ctx context.Context, keyName string, ciphertext FormattedValue, opts ...FormattedOption) (string, error) {
	s := formattedOptions(opts)
	resp, err := c.fpe.MaskFormatted(ctx, &cipherdpb.MaskFormattedRequest{KeyName: keyName, Value: ciphertext.Value,
		Context: s.context, KeyVersion: ciphertext.KeyVersion})
	if err != nil {
		return "", err
	}
	return resp.GetMasked(), nil
}

// FormattedPlainItem is one plaintext of EncryptFormattedBatch. Formatting it with fmt does not
// show its Value.
type FormattedPlainItem struct {
	Reference string
	Value     string
	Context   []byte // "" means the call's WithValueContext
}

// Format prints the item's reference and length, never its value, whatever the verb.
func (it FormattedPlainItem) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "FormattedPlainItem{%q, value %d bytes redacted}", it.Reference, len(it.Value))
}

// FormattedItem is one ciphertext of DecryptFormattedBatch or ReEncryptFormattedBatch, with the
// version EncryptFormatted returned for it.
type FormattedItem struct {
	Reference  string
	Ciphertext FormattedValue
	Context    []byte // "" means the call's WithValueContext
}

// FormattedResult is the outcome of one item of a format-preserving batch: Err is nil or an
// *Error, as for a single call.
type FormattedResult struct {
	Reference string
	// Value is the item's ciphertext and its version (EncryptFormattedBatch,
	// ReEncryptFormattedBatch), or its plaintext and the version that decrypted it
	// (DecryptFormattedBatch). Formatting the result with fmt does not show Value.Value.
	Value            FormattedValue
	SourceKeyVersion int32 // ReEncryptFormattedBatch
	Err              error
}

// Format prints the result's reference, version and error, never its value, whatever the verb.
func (r FormattedResult) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "FormattedResult{%q, value redacted, version %d, source version %d, err %v}", r.Reference, r.Value.KeyVersion, r.SourceKeyVersion, r.Err)
}

func formattedResult(r *cipherdpb.FormattedBatchResult) FormattedResult {
	res := FormattedResult{Reference: r.GetReference(), Value: FormattedValue{Value: r.GetValue(), KeyVersion: r.GetKeyVersion()},
		SourceKeyVersion: r.GetSourceKeyVersion()}
	if e := r.GetError(); e != nil {
		res.Err = fromItem(e)
	}
	return res
}

// EncryptFormattedBatch encrypts every item with keyName's current version, in calls of up to
// 1000 items; one result per item, in order, each failing alone.
func (c *Client) EncryptFormattedBatch(ctx context.Context, keyName string, items []FormattedPlainItem, opts ...FormattedOption) ([]FormattedResult, error) {
	s := formattedOptions(opts)
	return inChunks(items, func(chunk []FormattedPlainItem) ([]FormattedResult, error) {
		req := &cipherdpb.EncryptFormattedBatchRequest{KeyName: keyName, Context: s.context}
		for _, it := range chunk {
			req.Items = append(req.Items, &cipherdpb.EncryptFormattedBatchItem{Reference: it.Reference, Value: it.Value, Context: it.Context})
		}
		resp, err := c.fpe.EncryptFormattedBatch(ctx, req)
		return convert(resp.GetResults(), err, formattedResult)
	})
}

// DecryptFormattedBatch decrypts every item with the version it carries, in calls of up to 1000
// items; one result per item, in order, each failing alone.
func (c *Client) DecryptFormattedBatch(ctx context.Context, keyName string, items []FormattedItem, opts ...FormattedOption) ([]FormattedResult, error) {
	s := formattedOptions(opts)
	return inChunks(items, func(chunk []FormattedItem) ([]FormattedResult, error) {
		req := &cipherdpb.DecryptFormattedBatchRequest{KeyName: keyName, Context: s.context, Items: formattedItems(chunk)}
		resp, err := c.fpe.DecryptFormattedBatch(ctx, req)
		return convert(resp.GetResults(), err, formattedResult)
	})
}

// ReEncryptFormattedBatch moves every item to keyName's current version, in calls of up to 1000
// items; one result per item, in order, each failing alone.
func (c *Client) ReEncryptFormattedBatch(ctx context.Context, keyName string, items []FormattedItem, opts ...FormattedOption) ([]FormattedResult, error) {
	s := formattedOptions(opts)
	return inChunks(items, func(chunk []FormattedItem) ([]FormattedResult, error) {
		req := &cipherdpb.ReEncryptFormattedBatchRequest{KeyName: keyName, Context: s.context, Items: formattedItems(chunk)}
		resp, err := c.fpe.ReEncryptFormattedBatch(ctx, req)
		return convert(resp.GetResults(), err, formattedResult)
	})
}

// formattedItems are the items as the API's, each with its own version: the batch-wide
// key_version is never sent, so that no item can fall back to another's version.
func formattedItems(items []FormattedItem) []*cipherdpb.FormattedBatchItem {
	out := make([]*cipherdpb.FormattedBatchItem, len(items))
	for i, it := range items {
		out[i] = &cipherdpb.FormattedBatchItem{Reference: it.Reference, Value: it.Ciphertext.Value, Context: it.Context,
			KeyVersion: it.Ciphertext.KeyVersion}
	}
	return out
}
