package cipherd_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestReIndex_versionOptionsAreRefusedLocally(t *testing.T) {
	var c cipherd.Client // no connection: the options are refused before any call
	for name, opt := range map[string]cipherd.IndexOption{
		"key version":  cipherd.WithIndexKeyVersion(2),
		"all versions": cipherd.WithAllVersions(),
	} {
		if _, err := c.ReIndex(context.Background(), "idx", "<k/v1:gcm>AAAA", nil, opt); !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("ReIndex, %s: %v, want ErrInvalidArgument", name, err)
		}
		if _, err := c.ReIndexBatch(context.Background(), "idx", []cipherd.CiphertextItem{{Reference: "a", Ciphertext: "x"}}, opt); !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("ReIndexBatch, %s: %v, want ErrInvalidArgument", name, err)
		}
	}
	if _, err := c.ComputeIndexBatch(context.Background(), "idx", []cipherd.IndexItem{{Reference: "a"}}, cipherd.WithExpectedSourceKey("k")); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("ComputeIndexBatch with an expected source key: %v, want ErrInvalidArgument", err)
	}
}

// An index key rotated, its rows re-indexed by the server, lookups counted apart from use, and the
// old version retired: the path docs/searching.md walks.
func TestReIndex_afterRotation_matchesComputeIndex_andTheOldVersionRetires(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	data := newKey(t, c, "reindex-data")
	idx := newKeyWithMode(t, c, "reindex-idx", cipherd.ModeHMAC)
	column := []byte("accounts.email")
	norm := []cipherd.IndexOption{cipherd.WithTrim(), cipherd.WithCaseFold(), cipherd.WithIndexLength(16)}
	emails := []string{"Alice@Example.com", "bob@example.com"}
	var items []cipherd.CiphertextItem
	for i, email := range emails {
		ct, err := c.Encrypt(ctx, data, []byte(email), cipherd.WithAAD(column))
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, cipherd.CiphertextItem{Reference: string(rune('a' + i)), Ciphertext: ct, AAD: column})
		if v1 := index(t, c, idx, email, norm...); v1.KeyVersion != 1 {
			t.Fatalf("the row's first index: v%d, want v1", v1.KeyVersion)
		}
	}
	rotate(t, c, idx)
	// The rows' v1 indexes were written a quiet period (here 1 s) before the retirement.
	quiet := time.Second
	time.Sleep(quiet + 100*time.Millisecond)

	results, err := c.ReIndexBatch(ctx, idx, items, append(norm, cipherd.WithExpectedSourceKey(data))...)
	if err != nil {
		t.Fatalf("ReIndexBatch: %v", err)
	}
	for i, r := range results {
		want := index(t, c, idx, emails[i], norm...)
		if r.Err != nil || !bytes.Equal(r.Index, want.Index) || r.KeyVersion != 2 || r.SourceKeyVersion != 1 || r.Reference != items[i].Reference {
			t.Errorf("item %d: %+v, want index %x v2 from v1", i, r, want.Index)
		}
	}
	one, err := c.ReIndex(ctx, idx, items[0].Ciphertext, column, norm...)
	if err != nil || !bytes.Equal(one.Index, results[0].Index) || one.KeyVersion != 2 || one.SourceKeyVersion != 1 {
		t.Fatalf("ReIndex: %+v, %v", one, err)
	}
	if _, err := c.ReIndex(ctx, idx, items[0].Ciphertext, []byte("other column"), norm...); !errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("ReIndex with the wrong context: %v, want ErrDecryptionFailed", err)
	}
	_, err = c.ReIndex(ctx, idx, items[0].Ciphertext, column, append(norm, cipherd.WithExpectedSourceKey("payments-*"))...)
	var e *cipherd.Error
	if !errors.As(err, &e) || e.Reason != "UNEXPECTED_KEY" || !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Fatalf("ReIndex under another key than expected: %v, want INVALID_ARGUMENT UNEXPECTED_KEY", err)
	}

	lookup := index(t, c, idx, " ALICE@example.com", append(norm, cipherd.WithAllVersions())...)
	if len(lookup.Versions) != 2 {
		t.Fatalf("all-versions lookup: %d versions, want 2", len(lookup.Versions))
	}
	census, err := c.GetKeyCensus(ctx, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	v1 := census.Versions[0]
	if v1.Version != 1 || v1.Usage.IndexLookups != 1 || v1.Usage.Indexes != 2 || !v1.Usage.LastLookup.After(v1.Usage.LastUsed) {
		t.Fatalf("v1 after a lookup: %+v, want two indexes, then one lookup", v1)
	}
	if _, err := c.RetireKeyVersions(ctx, idx, 2, cipherd.RetireOptions{QuietPeriod: quiet}); err != nil {
		t.Fatalf("RetireKeyVersions below 2 after re-indexing: %v", err)
	}
}
