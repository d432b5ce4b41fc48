package cipherd

import (
	"context"
	"fmt"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// maxBatchItems is how many items one batch call carries; the server's default limit is 4096.
const maxBatchItems = 1000

// PlaintextItem is one plaintext of EncryptBatch or EncryptStream. Formatting it with fmt shows
// neither its Plaintext nor its Subject.
type PlaintextItem struct {
	Reference string
	Plaintext []byte
	AAD       []byte
	// Subject is the item's data subject, as WithSubject; "" means the call's WithSubject, if any.
	Subject string
}

// Format prints the item's reference and sizes, never its plaintext or subject, whatever the verb.
func (it PlaintextItem) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "PlaintextItem{%q, plaintext %d bytes redacted, subject redacted: %t}", it.Reference, len(it.Plaintext), it.Subject != "")
}

// CiphertextItem is one ciphertext of DecryptBatch, DecryptStream, ReEncryptBatch or ReEncryptStream.
type CiphertextItem struct {
	Reference  string
	Ciphertext string
	AAD        []byte // of Ciphertext, and of the new ciphertext when rewrapping
	// Legacy, set instead of Ciphertext, is data encrypted before cipherd (LegacyHex, ...): only
	// ReEncryptBatch and ReEncryptStream take it, and only with a target key.
	Legacy *LegacyCiphertext
	// ExpectedKey is the key this item must be under, as WithExpectedKey; "" means the call's.
	ExpectedKey string
}

// Result is the outcome of one item: Err is nil or an *Error, as for a single call.
type Result struct {
	Reference        string
	Ciphertext       string // EncryptBatch, EncryptStream, ReEncryptBatch, ReEncryptStream
	Plaintext        []byte // DecryptBatch, DecryptStream
	Index            []byte // ComputeIndexBatch, ReIndexBatch
	KeyVersion       int32
	SourceKeyVersion int32 // ReEncryptBatch, ReEncryptStream, ReIndexBatch
	Err              error
}

// outcome is what every generated batch result has in common.
type outcome interface {
	GetReference() string
	GetKeyVersion() int32
	GetError() *cipherdpb.ItemError
}

func newResult(o outcome) Result {
	r := Result{Reference: o.GetReference(), KeyVersion: o.GetKeyVersion()}
	if e := o.GetError(); e != nil {
		r.Err = fromItem(e)
	}
	return r
}

// EncryptBatch encrypts every item with keyName, in calls of up to 1000 items; one result per item,
// in order. WithSubject is the subject of every item that names none of its own (PlaintextItem.Subject),
// WithRenewErasedSubject applies to every item's subject; an item of an erased subject fails alone
// with ErrSubjectErased.
func (c *Client) EncryptBatch(ctx context.Context, keyName string, items []PlaintextItem, opts ...CallOption) ([]Result, error) {
	s := callOptions(opts)
	return inChunks(items, func(chunk []PlaintextItem) ([]Result, error) {
		req := &cipherdpb.EncryptBatchRequest{KeyName: keyName, Subject: s.subject, RenewErasedSubject: s.renewErasure}
		for _, it := range chunk {
			req.Items = append(req.Items, &cipherdpb.EncryptBatchItem{Reference: it.Reference, Plaintext: it.Plaintext, Context: it.AAD, Subject: it.Subject})
		}
		resp, err := c.crypto.EncryptBatch(ctx, req)
		return convert(resp.GetResults(), err, encryptResult)
	})
}

// DecryptBatch decrypts every item, in calls of up to 1000 items; one result per item, in order.
// WithExpectedKey is the key of every item that names none of its own.
func (c *Client) DecryptBatch(ctx context.Context, items []CiphertextItem, opts ...CallOption) ([]Result, error) {
	expected := callOptions(opts).expectedKey
	return inChunks(items, func(chunk []CiphertextItem) ([]Result, error) {
		req := &cipherdpb.DecryptBatchRequest{ExpectedKey: expected}
		for _, it := range chunk {
			if it.Legacy != nil {
				return nil, fmt.Errorf("cipherd: item %q: %w", it.Reference, errLegacyNotDecryptable)
			}
			req.Items = append(req.Items, &cipherdpb.DecryptBatchItem{Reference: it.Reference, Ciphertext: it.Ciphertext, Context: it.AAD, ExpectedKey: it.ExpectedKey})
		}
		resp, err := c.crypto.DecryptBatch(ctx, req)
		return convert(resp.GetResults(), err, decryptResult)
	})
}

// ReEncryptBatch rewraps every item to targetKey ("" for each item's own key), in calls of up to
// 1000 items; one result per item, in order. WithExpectedKey is the key of every item that names
// none of its own.
func (c *Client) ReEncryptBatch(ctx context.Context, targetKey string, items []CiphertextItem, opts ...CallOption) ([]Result, error) {
	expected := callOptions(opts).expectedKey
	return inChunks(items, func(chunk []CiphertextItem) ([]Result, error) {
		req := &cipherdpb.ReEncryptBatchRequest{KeyName: targetKey, ExpectedKey: expected}
		for _, it := range chunk {
			req.Items = append(req.Items, &cipherdpb.ReEncryptBatchItem{Reference: it.Reference, Ciphertext: it.Ciphertext, Context: it.AAD, Legacy: it.Legacy.proto(), ExpectedKey: it.ExpectedKey})
		}
		resp, err := c.crypto.ReEncryptBatch(ctx, req)
		return convert(resp.GetResults(), err, reEncryptResult)
	})
}

func encryptResult(r *cipherdpb.EncryptBatchResult) Result {
	res := newResult(r)
	res.Ciphertext = r.GetCiphertext()
	return res
}

func decryptResult(r *cipherdpb.DecryptBatchResult) Result {
	res := newResult(r)
	res.Plaintext = r.GetPlaintext()
	return res
}

func reEncryptResult(r *cipherdpb.ReEncryptBatchResult) Result {
	res := newResult(r)
	res.Ciphertext = r.GetCiphertext()
	res.SourceKeyVersion = r.GetSourceKeyVersion()
	return res
}

func inChunks[T, R any](items []T, call func([]T) ([]R, error)) ([]R, error) {
	results := make([]R, 0, len(items))
	for start := 0; start < len(items); start += maxBatchItems {
		chunk := items[start:min(start+maxBatchItems, len(items))]
		got, err := call(chunk)
		if err != nil {
			return results, err
		}
		if len(got) != len(chunk) {
			return results, fmt.Errorf("cipherd: server answered %d results for %d items", len(got), len(chunk))
		}
		results = append(results, got...)
	}
	return results, nil
}

func convert[R, O any](results []R, err error, one func(R) O) ([]O, error) {
	if err != nil {
		return nil, err
	}
	out := make([]O, len(results))
	for i, r := range results {
		out[i] = one(r)
	}
	return out, nil
}
