package cipherd_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// dialSubjects connects to the real plaintext server and makes a gcm key for subject tests.
func dialSubjects(t *testing.T) (*cipherd.Client, string) {
	t.Helper()
	c := dialPlain(t)
	key := newKey(t, c, "subjects")
	return c, key
}

// TestSubjects_eraseOneSubject_leavesTheOthers is the feature end to end against the real server:
// two subjects' data under one key, one erased, the other untouched, and the erased one's data
// never "decryption failed".
func TestSubjects_eraseOneSubject_leavesTheOthers(t *testing.T) {
	c, key := dialSubjects(t)
	ctx := context.Background()
	aad := []byte("users.email")
	alice, err := c.Encrypt(ctx, key, []byte("alice@example.com"), cipherd.WithSubject("user-1"), cipherd.WithAAD(aad))
	if err != nil {
		t.Fatal(err)
	}
	bob, err := c.Encrypt(ctx, key, []byte("bob@example.com"), cipherd.WithSubject("user-2"), cipherd.WithAAD(aad))
	if err != nil {
		t.Fatal(err)
	}
	ct, err := cipherd.ParseCiphertext(alice)
	if err != nil || !ct.SubjectBound || ct.KeyVersion != 0 || ct.KeyName != key || strings.Contains(alice, "user-1") {
		t.Fatalf("the ciphertext %+v (%v) is not subject-bound under %s", ct, err, key)
	}
	if in, err := c.Inspect(ctx, alice); err != nil || !in.SubjectBound || in.KeyVersion != 0 || in.BehindCurrent {
		t.Errorf("Inspect: %+v, %v", in, err)
	}
	if st, err := c.GetSubject(ctx, key, "user-1"); err != nil || st.State != cipherd.SubjectActive || st.KeyVersion != 1 {
		t.Errorf("GetSubject before: %+v, %v", st, err)
	}

	erasure, err := c.EraseSubject(ctx, key, "user-1")
	if err != nil || erasure.Outcome != cipherd.Erased || erasure.EraseTime.IsZero() {
		t.Fatalf("EraseSubject: %+v, %v", erasure, err)
	}
	_, err = c.Decrypt(ctx, alice, cipherd.WithAAD(aad))
	if !errors.Is(err, cipherd.ErrSubjectErased) || errors.Is(err, cipherd.ErrDecryptionFailed) || strings.Contains(err.Error(), "user-1") {
		t.Errorf("Decrypt of the erased subject's data: %v", err)
	}
	if at, ok := cipherd.ErasedAt(err); !ok || !at.Equal(erasure.EraseTime) {
		t.Errorf("ErasedAt = %v %t, want %v", at, ok, erasure.EraseTime)
	}
	if got, err := c.Decrypt(ctx, bob, cipherd.WithAAD(aad)); err != nil || string(got) != "bob@example.com" {
		t.Errorf("the other subject: %q, %v", got, err)
	}
	if _, err := c.Encrypt(ctx, key, []byte("x"), cipherd.WithSubject("user-1")); !errors.Is(err, cipherd.ErrSubjectErased) {
		t.Errorf("Encrypt for the erased subject: %v", err)
	}
	renewed, err := c.Encrypt(ctx, key, []byte("new"), cipherd.WithSubject("user-1"), cipherd.WithRenewErasedSubject())
	if err != nil {
		t.Fatalf("renewing: %v", err)
	}
	if got, err := c.Decrypt(ctx, renewed); err != nil || string(got) != "new" {
		t.Errorf("the renewed subject's data: %q, %v", got, err)
	}
	if _, err := c.Decrypt(ctx, alice, cipherd.WithAAD(aad)); !errors.Is(err, cipherd.ErrSubjectErased) {
		t.Errorf("after the renewal, the data before the erasure: %v", err)
	}
	if again, err := c.EraseSubject(ctx, key, "user-never"); err != nil || again.Outcome != cipherd.NoSubjectKey {
		t.Errorf("erasing a subject without a key: %+v, %v", again, err)
	}
}

// TestSubjects_batchesStreamsAndDataKeys checks the subject options of the batch, stream and
// data-key calls against the real server, and EraseSubjects' one result per id.
func TestSubjects_batchesStreamsAndDataKeys(t *testing.T) {
	c, key := dialSubjects(t)
	ctx := context.Background()
	items := []cipherd.PlaintextItem{{Reference: "a", Plaintext: []byte("a")}, {Reference: "b", Plaintext: []byte("b"), Subject: "user-b"}}
	results, err := c.EncryptBatch(ctx, key, items, cipherd.WithSubject("user-a"))
	if err != nil {
		t.Fatal(err)
	}
	dk, err := c.GenerateDataKey(ctx, key, cipherd.WithDataKeySubject("user-a"))
	if err != nil {
		t.Fatal(err)
	}
	streamed := map[string]string{}
	err = cipherd.EncryptStream(ctx, c, key, func(yield func(string, cipherd.PlaintextItem) bool) {
		for _, it := range items {
			if !yield(it.Reference, it) {
				return
			}
		}
	}, func(ref string, r cipherd.Result) error { streamed[ref] = r.Ciphertext; return r.Err }, cipherd.WithSubject("user-a"))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{results[0].Ciphertext, results[1].Ciphertext, dk.Wrapped, streamed["a"], streamed["b"]} {
		if h, _, err := cipherd.ParseCiphertextHeader(text); err != nil || !h.SubjectBound {
			t.Errorf("%v is not subject-bound: %v", h, err)
		}
	}

	erased, err := c.EraseSubjects(ctx, key, []cipherd.SubjectItem{{Reference: "1", Subject: "user-a"}, {Reference: "2", Subject: "user-none"}})
	if err != nil || len(erased) != 2 {
		t.Fatalf("EraseSubjects: %d results, %v", len(erased), err)
	}
	if erased[0].Err != nil || erased[0].Erasure.Outcome != cipherd.Erased || erased[1].Erasure == nil || erased[1].Erasure.Outcome != cipherd.NoSubjectKey {
		t.Errorf("EraseSubjects results: %+v %+v", erased[0], erased[1])
	}
	back, err := c.DecryptBatch(ctx, []cipherd.CiphertextItem{{Reference: "a", Ciphertext: results[0].Ciphertext}, {Reference: "b", Ciphertext: results[1].Ciphertext},
		{Reference: "dk", Ciphertext: dk.Wrapped}, {Reference: "sa", Ciphertext: streamed["a"]}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range back {
		wantErased := r.Reference != "b"
		if errors.Is(r.Err, cipherd.ErrSubjectErased) != wantErased || !wantErased && (r.Err != nil || string(r.Plaintext) != "b") {
			t.Errorf("item %s after erasing user-a: %v", r.Reference, r.Err)
		}
	}
}
