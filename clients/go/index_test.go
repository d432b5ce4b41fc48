package cipherd_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestComputeIndexBatch_versionOptionsAreRefusedLocally(t *testing.T) {
	var c cipherd.Client // no connection: the options are refused before any call
	for name, opt := range map[string]cipherd.IndexOption{
		"key version":  cipherd.WithIndexKeyVersion(2),
		"all versions": cipherd.WithAllVersions(),
	} {
		_, err := c.ComputeIndexBatch(context.Background(), "idx", []cipherd.IndexItem{{Reference: "a", Value: []byte("v")}}, opt)
		if !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
}

func index(t *testing.T, c *cipherd.Client, key, value string, opts ...cipherd.IndexOption) *cipherd.BlindIndex {
	t.Helper()
	idx, err := c.ComputeIndex(context.Background(), key, []byte(value), opts...)
	if err != nil {
		t.Fatalf("ComputeIndex(%q): %v", value, err)
	}
	return idx
}

func TestComputeIndex_isHMACSHA256OfTheNormalizedValue(t *testing.T) {
	c := dialPlain(t)
	material := bytes.Repeat([]byte{0x42}, 32)
	key := importKey(t, c, "idx-known", cipherd.ModeHMAC, material)
	mac := hmac.New(sha256.New, material)
	mac.Write([]byte("alice@example.com"))
	want := mac.Sum(nil)
	got := index(t, c, key, "  Alice@Example.COM ", cipherd.WithTrim(), cipherd.WithCaseFold())
	if !bytes.Equal(got.Index, want) || got.KeyVersion != 1 {
		t.Fatalf("index %x v%d, want HMAC-SHA-256 %x v1", got.Index, got.KeyVersion, want)
	}
}

func TestComputeIndex_normalizationMakesEqualValuesEqual(t *testing.T) {
	c := dialPlain(t)
	key := newKeyWithMode(t, c, "idx", cipherd.ModeHMAC)
	norm := []cipherd.IndexOption{cipherd.WithTrim(), cipherd.WithCaseFold()}
	messy, clean := index(t, c, key, "  Alice@Example.COM ", norm...), index(t, c, key, "alice@example.com", norm...)
	if !bytes.Equal(messy.Index, clean.Index) || len(clean.Index) != 32 {
		t.Fatalf("trim+casefold: %x and %x, want equal 32-byte indexes", messy.Index, clean.Index)
	}
	if raw := index(t, c, key, "  Alice@Example.COM "); bytes.Equal(raw.Index, clean.Index) {
		t.Fatal("without normalization the messy value has the clean value's index")
	}
	if raw := index(t, c, key, "alice@example.com"); !bytes.Equal(raw.Index, clean.Index) {
		t.Fatal("an already normal value's index depends on the options")
	}
	if a, b := index(t, c, key, "Ｓtraße", cipherd.WithNFKC(), cipherd.WithCaseFold()), index(t, c, key, "STRASSE", cipherd.WithCaseFold()); !bytes.Equal(a.Index, b.Index) {
		t.Fatal("NFKC + case folding: full-width Ｓ and ß do not match STRASSE")
	}
	_, err := c.ComputeIndex(context.Background(), key, []byte{0xff, 0xfe}, cipherd.WithTrim())
	if !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Fatalf("non-UTF-8 value with normalization: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.ComputeIndex(context.Background(), key, []byte{0xff, 0xfe}); err != nil {
		t.Fatalf("non-UTF-8 value without normalization: %v", err)
	}
}

func TestComputeIndex_lengthTruncates(t *testing.T) {
	c := dialPlain(t)
	key := newKeyWithMode(t, c, "idx-len", cipherd.ModeHMAC)
	full := index(t, c, key, "4111 1111 1111 1111")
	for _, n := range []int32{8, 16, 32} {
		if got := index(t, c, key, "4111 1111 1111 1111", cipherd.WithIndexLength(n)); !bytes.Equal(got.Index, full.Index[:n]) {
			t.Errorf("length %d: %x, want %x", n, got.Index, full.Index[:n])
		}
	}
	for _, n := range []int32{7, 33} {
		if _, err := c.ComputeIndex(context.Background(), key, []byte("x"), cipherd.WithIndexLength(n)); !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("length %d: %v, want ErrInvalidArgument", n, err)
		}
	}
}

func TestComputeIndex_allVersionsAfterRotation(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKeyWithMode(t, c, "idx-rot", cipherd.ModeHMAC)
	v1 := index(t, c, key, "bob", cipherd.WithIndexLength(16))
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	v2 := index(t, c, key, "bob", cipherd.WithIndexLength(16))
	if v2.KeyVersion != 2 || bytes.Equal(v1.Index, v2.Index) {
		t.Fatalf("after rotation: v%d %x, v1's %x", v2.KeyVersion, v2.Index, v1.Index)
	}
	if old := index(t, c, key, "bob", cipherd.WithIndexLength(16), cipherd.WithIndexKeyVersion(1)); old.KeyVersion != 1 || !bytes.Equal(old.Index, v1.Index) {
		t.Fatalf("WithIndexKeyVersion(1): v%d %x, want %x", old.KeyVersion, old.Index, v1.Index)
	}
	all := index(t, c, key, "bob", cipherd.WithIndexLength(16), cipherd.WithAllVersions())
	if all.KeyVersion != 2 || !bytes.Equal(all.Index, v2.Index) || len(all.Versions) != 2 ||
		all.Versions[0].KeyVersion != 2 || !bytes.Equal(all.Versions[0].Index, v2.Index) ||
		all.Versions[1].KeyVersion != 1 || !bytes.Equal(all.Versions[1].Index, v1.Index) {
		t.Fatalf("WithAllVersions = %+v", all)
	}
	if _, err := c.UpdateKeyPolicy(ctx, key, cipherd.KeyPolicy{MinDecryptionVersion: 2}); err != nil {
		t.Fatal(err)
	}
	if all := index(t, c, key, "bob", cipherd.WithAllVersions()); len(all.Versions) != 1 || all.Versions[0].KeyVersion != 2 {
		t.Fatalf("WithAllVersions above min_decryption_version 2 = %+v", all)
	}
}

func TestComputeIndexBatch_oneResultPerItemMatchingComputeIndex(t *testing.T) {
	c := dialPlain(t)
	key := newKeyWithMode(t, c, "idx-batch", cipherd.ModeHMAC)
	items := []cipherd.IndexItem{{Reference: "a", Value: []byte(" A ")}, {Reference: "bad", Value: []byte{0xc3}}, {Reference: "c", Value: []byte("carol")}}
	results, err := c.ComputeIndexBatch(context.Background(), key, items, cipherd.WithTrim(), cipherd.WithCaseFold(), cipherd.WithIndexLength(12))
	if err != nil || len(results) != len(items) {
		t.Fatalf("ComputeIndexBatch: %d results, %v", len(results), err)
	}
	for i, r := range results {
		if r.Reference != items[i].Reference {
			t.Fatalf("result %d is %q", i, r.Reference)
		}
		if items[i].Reference == "bad" {
			if !errors.Is(r.Err, cipherd.ErrInvalidArgument) || r.Index != nil {
				t.Errorf("non-UTF-8 item: %+v, want ErrInvalidArgument", r)
			}
			continue
		}
		want := index(t, c, key, string(items[i].Value), cipherd.WithTrim(), cipherd.WithCaseFold(), cipherd.WithIndexLength(12))
		if r.Err != nil || !bytes.Equal(r.Index, want.Index) || r.KeyVersion != 1 {
			t.Errorf("item %s: %+v, want index %x", r.Reference, r, want.Index)
		}
	}
}

func TestIndexKeys_neitherEncryptNorWrapDataKeys(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKeyWithMode(t, c, "idx-only", cipherd.ModeHMAC)
	if _, err := c.Encrypt(ctx, key, []byte("x")); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("Encrypt with an index key: %v, want ErrFailedPrecondition", err)
	}
	if _, err := c.GenerateDataKey(ctx, key); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("GenerateDataKey with an index key: %v, want ErrFailedPrecondition", err)
	}
	gcm := newKey(t, c, "not-idx")
	if _, err := c.ComputeIndex(ctx, gcm, []byte("x")); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("ComputeIndex with a gcm key: %v, want ErrFailedPrecondition", err)
	}
}
