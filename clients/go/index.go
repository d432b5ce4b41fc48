package cipherd

import (
	"context"
	"fmt"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// IndexOption sets optional fields of ComputeIndex, ComputeIndexBatch, ReIndex and ReIndexBatch.
type IndexOption func(*indexSettings)

type indexSettings struct {
	trim, nfkc, casefold bool
	lengthBytes          int32
	keyVersion           int32
	allVersions          bool
	expectedKey          string
}

// WithTrim removes leading and trailing Unicode white space before hashing.
func WithTrim() IndexOption { return func(s *indexSettings) { s.trim = true } }

// WithNFKC applies Unicode Normalization Form KC (after WithTrim) before hashing.
func WithNFKC() IndexOption { return func(s *indexSettings) { s.nfkc = true } }

// WithCaseFold applies Unicode full case folding (after WithTrim and WithNFKC) before hashing.
func WithCaseFold() IndexOption { return func(s *indexSettings) { s.casefold = true } }

// WithIndexLength truncates the index to n bytes, 8 to 32 (default 32); keep one length per column.
func WithIndexLength(n int32) IndexOption { return func(s *indexSettings) { s.lengthBytes = n } }

// WithIndexKeyVersion computes the index under an older version instead of the current one.
// ComputeIndex only.
func WithIndexKeyVersion(v int32) IndexOption { return func(s *indexSettings) { s.keyVersion = v } }

// WithAllVersions also returns the index under every version still usable, newest first, for
// queries that must match rows indexed before a rotation. ComputeIndex only.
func WithAllVersions() IndexOption { return func(s *indexSettings) { s.allVersions = true } }

// WithExpectedSourceKey makes ReIndex and ReIndexBatch refuse (INVALID_ARGUMENT, reason
// UNEXPECTED_KEY) a ciphertext whose header names another key than name, or a key outside a
// prefix ending in '*' ("users-*"), before anything is decrypted. ReIndex and ReIndexBatch only.
func WithExpectedSourceKey(name string) IndexOption {
	return func(s *indexSettings) { s.expectedKey = name }
}

func indexOptions(opts []IndexOption) indexSettings {
	var s indexSettings
	for _, opt := range opts {
		opt(&s)
	}
	return s
}

// normalizationMessage is nil when no step is set: the server then hashes the bytes as given.
func (s *indexSettings) normalizationMessage() *cipherdpb.Normalization {
	if !s.trim && !s.nfkc && !s.casefold {
		return nil
	}
	return &cipherdpb.Normalization{Trim: s.trim, Nfkc: s.nfkc, Casefold: s.casefold}
}

// BlindIndex is a value's blind index under KeyVersion. Versions holds, with WithAllVersions, the
// index under every usable version, newest first (each without Versions of its own).
type BlindIndex struct {
	Index      []byte
	KeyVersion int32
	Versions   []BlindIndex
}

// ComputeIndex hashes value with the index key keyName (a MODE_HMAC key), for equality lookups
// on a column without decrypting it.
func (c *Client) ComputeIndex(ctx context.Context, keyName string, value []byte, opts ...IndexOption) (*BlindIndex, error) {
	s := indexOptions(opts)
	resp, err := c.crypto.ComputeIndex(ctx, &cipherdpb.ComputeIndexRequest{KeyName: keyName, Value: value,
		Normalization: s.normalizationMessage(), LengthBytes: s.lengthBytes, KeyVersion: s.keyVersion, AllVersions: s.allVersions})
	if err != nil {
		return nil, err
	}
	idx := &BlindIndex{Index: resp.GetIndex(), KeyVersion: resp.GetKeyVersion()}
	for _, v := range resp.GetVersions() {
		idx.Versions = append(idx.Versions, BlindIndex{Index: v.GetIndex(), KeyVersion: v.GetKeyVersion()})
	}
	return idx, nil
}

// IndexItem is one value of ComputeIndexBatch.
type IndexItem struct {
	Reference string
	Value     []byte
}

// ComputeIndexBatch indexes every item with keyName's current version and one normalization and
// length, in calls of up to 1000 items; one result per item, in order, with Index set or Err.
// WithIndexKeyVersion and WithAllVersions are refused: a batch uses the current version only.
func (c *Client) ComputeIndexBatch(ctx context.Context, keyName string, items []IndexItem, opts ...IndexOption) ([]Result, error) {
	s := indexOptions(opts)
	if s.keyVersion != 0 || s.allVersions || s.expectedKey != "" {
		return nil, fmt.Errorf("%w: ComputeIndexBatch takes no key version, all-versions or expected-key option", ErrInvalidArgument)
	}
	normalization := s.normalizationMessage()
	return inChunks(items, func(chunk []IndexItem) ([]Result, error) {
		req := &cipherdpb.ComputeIndexBatchRequest{KeyName: keyName, Normalization: normalization, LengthBytes: s.lengthBytes}
		for _, it := range chunk {
			req.Items = append(req.Items, &cipherdpb.ComputeIndexBatchItem{Reference: it.Reference, Value: it.Value})
		}
		resp, err := c.crypto.ComputeIndexBatch(ctx, req)
		return convert(resp.GetResults(), err, func(r *cipherdpb.ComputeIndexBatchResult) Result {
			res := newResult(r)
			res.Index = r.GetIndex()
			return res
		})
	})
}

// ReIndexed is the blind index of a ciphertext's plaintext, computed by the server.
type ReIndexed struct {
	Index            []byte
	KeyVersion       int32 // the index key's version, its current one
	SourceKeyVersion int32 // the version the ciphertext was under
}

func reIndexOptions(method string, opts []IndexOption) (indexSettings, error) {
	s := indexOptions(opts)
	if s.keyVersion != 0 || s.allVersions {
		return s, fmt.Errorf("%w: %s indexes with the current version only: no key version or all-versions option", ErrInvalidArgument, method)
	}
	return s, nil
}

// ReIndex computes, inside the server, the blind index of ciphertext's plaintext under the current
// version of indexKeyName, normalized and cut as opts say: what ComputeIndex of the plaintext gives,
// the plaintext never leaving the server. It re-indexes a column after its index key rotates, so
// the old version can retire; it needs the reindex operation on the ciphertext's key and index on
// the index key, not decrypt. aad is the ciphertext's context (nil if none).
func (c *Client) ReIndex(ctx context.Context, indexKeyName, ciphertext string, aad []byte, opts ...IndexOption) (*ReIndexed, error) {
	s, err := reIndexOptions("ReIndex", opts)
	if err != nil {
		return nil, err
	}
	resp, err := c.crypto.ReIndex(ctx, &cipherdpb.ReIndexRequest{Ciphertext: ciphertext, Context: aad, IndexKeyName: indexKeyName,
		Normalization: s.normalizationMessage(), LengthBytes: s.lengthBytes, ExpectedKey: s.expectedKey})
	if err != nil {
		return nil, err
	}
	return &ReIndexed{Index: resp.GetIndex(), KeyVersion: resp.GetKeyVersion(), SourceKeyVersion: resp.GetSourceKeyVersion()}, nil
}

// ReIndexBatch re-indexes every item (Ciphertext and AAD; Legacy is refused) with indexKeyName's
// current version and one normalization and length, in calls of up to 1000 items; one result per
// item, in order, with Index, KeyVersion and SourceKeyVersion set, or Err.
func (c *Client) ReIndexBatch(ctx context.Context, indexKeyName string, items []CiphertextItem, opts ...IndexOption) ([]Result, error) {
	s, err := reIndexOptions("ReIndexBatch", opts)
	if err != nil {
		return nil, err
	}
	normalization := s.normalizationMessage()
	return inChunks(items, func(chunk []CiphertextItem) ([]Result, error) {
		req := &cipherdpb.ReIndexBatchRequest{IndexKeyName: indexKeyName, Normalization: normalization, LengthBytes: s.lengthBytes, ExpectedKey: s.expectedKey}
		for _, it := range chunk {
			if it.Legacy != nil {
				return nil, fmt.Errorf("cipherd: item %q: %w: ReIndexBatch takes cipherd ciphertexts only; rewrap legacy data first", it.Reference, ErrInvalidArgument)
			}
			req.Items = append(req.Items, &cipherdpb.ReIndexBatchItem{Reference: it.Reference, Ciphertext: it.Ciphertext, Context: it.AAD})
		}
		resp, err := c.crypto.ReIndexBatch(ctx, req)
		return convert(resp.GetResults(), err, func(r *cipherdpb.ReIndexBatchResult) Result {
			res := newResult(r)
			res.Index = r.GetIndex()
			res.SourceKeyVersion = r.GetSourceKeyVersion()
			return res
		})
	})
}
