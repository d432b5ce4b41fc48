package cipherd_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/mysqlaes"
)

// column is the AAD of the column in these tests, which any writer of the column knows.
var column = []byte("users.email/42")

// TestWithExpectedKey_refusesAPlantedValue_whichDecryptsWithoutIt is the planted value: a writer
// with encrypt on another key stores a ciphertext under that key with the column's AAD.
func TestWithExpectedKey_refusesAPlantedValue_whichDecryptsWithoutIt(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	email, attacker := newKey(t, c, "users-email"), newKey(t, c, "attacker")
	planted, err := c.Encrypt(ctx, attacker, []byte("attacker@evil.example"), cipherd.WithAAD(column))
	if err != nil {
		t.Fatal(err)
	}
	real, err := c.Encrypt(ctx, email, []byte("alice@example.com"), cipherd.WithAAD(column))
	if err != nil {
		t.Fatal(err)
	}

	_, err = c.Decrypt(ctx, planted, cipherd.WithAAD(column), cipherd.WithExpectedKey(email))
	var e *cipherd.Error
	if !errors.Is(err, cipherd.ErrUnexpectedKey) || !errors.Is(err, cipherd.ErrInvalidArgument) || !errors.As(err, &e) {
		t.Fatalf("planted value with WithExpectedKey: %v, want ErrUnexpectedKey", err)
	}
	if e.Reason != "UNEXPECTED_KEY" || e.Kind() != "unexpected_key" || e.Metadata["key"] != attacker || e.Metadata["expected_key"] != email {
		t.Fatalf("error %#v: want reason UNEXPECTED_KEY naming %s and %s", e, attacker, email)
	}
	if strings.Contains(e.Message, planted[strings.Index(planted, ">")+1:]) {
		t.Fatalf("the message repeats the ciphertext: %s", e.Message)
	}
	// Why the option matters: without it the planted value decrypts, and would be trusted.
	if pt, err := c.Decrypt(ctx, planted, cipherd.WithAAD(column)); err != nil || string(pt) != "attacker@evil.example" {
		t.Fatalf("planted value without WithExpectedKey = %q, %v", pt, err)
	}
	for _, expected := range []string{email, "users-email-*"} {
		if pt, err := c.Decrypt(ctx, real, cipherd.WithAAD(column), cipherd.WithExpectedKey(expected)); err != nil || string(pt) != "alice@example.com" {
			t.Fatalf("Decrypt WithExpectedKey(%s) = %q, %v", expected, pt, err)
		}
	}
	if _, err := c.Decrypt(ctx, real, cipherd.WithAAD(column), cipherd.WithExpectedKey("*")); !errors.Is(err, cipherd.ErrInvalidArgument) ||
		errors.Is(err, cipherd.ErrUnexpectedKey) || !strings.Contains(err.Error(), "expected_key") {
		t.Fatalf("WithExpectedKey(\"*\"): %v, want ErrInvalidArgument naming expected_key", err)
	}
}

func TestWithExpectedKey_onReEncryptAndReEncryptLegacy(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	email, attacker, legacy := newKey(t, c, "users-email"), newKey(t, c, "attacker"), importMySQLKey(t, c)
	planted, err := c.Encrypt(ctx, attacker, []byte("x"), cipherd.WithAAD(column))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReEncrypt(ctx, planted, cipherd.WithAAD(column), cipherd.WithTargetKey(email), cipherd.WithExpectedKey(email)); !errors.Is(err, cipherd.ErrUnexpectedKey) {
		t.Fatalf("ReEncrypt of a planted value: %v, want ErrUnexpectedKey", err)
	}
	lc := cipherd.LegacyHex(legacy, mysqlaes.KnownAnswerHex)
	if _, err := c.ReEncryptLegacy(ctx, email, lc, cipherd.WithExpectedKey(email)); !errors.Is(err, cipherd.ErrUnexpectedKey) {
		t.Fatalf("ReEncryptLegacy with another expected key: %v, want ErrUnexpectedKey", err)
	}
	if _, err := c.ReEncryptLegacy(ctx, email, lc, cipherd.WithExpectedKey(legacy)); err != nil {
		t.Fatalf("ReEncryptLegacy expecting its own legacy key: %v", err)
	}
}

func TestWithExpectedKey_onBatchesAndStreams_itemsOwnWins(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	email, phone, attacker := newKey(t, c, "users-email"), newKey(t, c, "users-phone"), newKey(t, c, "attacker")
	seal := func(key string) string {
		ct, err := c.Encrypt(ctx, key, []byte("v"), cipherd.WithAAD(column))
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	items := []cipherd.CiphertextItem{
		{Reference: "email", Ciphertext: seal(email), AAD: column},
		{Reference: "planted", Ciphertext: seal(attacker), AAD: column},
		{Reference: "phone-own", Ciphertext: seal(phone), AAD: column, ExpectedKey: phone},
		{Reference: "phone", Ciphertext: seal(phone), AAD: column},
	}
	// Only "email" and "phone-own" pass: the others are under keys the call does not expect.
	check := func(what string, results []cipherd.Result) {
		t.Helper()
		if len(results) != len(items) {
			t.Fatalf("%s: %d results for %d items", what, len(results), len(items))
		}
		for i, r := range results {
			want := items[i].Reference == "email" || items[i].Reference == "phone-own"
			if r.Reference != items[i].Reference || (r.Err == nil) != want || (!want && !errors.Is(r.Err, cipherd.ErrUnexpectedKey)) {
				t.Errorf("%s: item %s: %+v", what, items[i].Reference, r)
			}
		}
	}
	batch, err := c.DecryptBatch(ctx, items, cipherd.WithExpectedKey(email))
	if err != nil {
		t.Fatal(err)
	}
	check("DecryptBatch", batch)
	rewrapped, err := c.ReEncryptBatch(ctx, "", items, cipherd.WithExpectedKey(email))
	if err != nil {
		t.Fatal(err)
	}
	check("ReEncryptBatch", rewrapped)
	var streamed []cipherd.Result
	collect := func(_ int, r cipherd.Result) error { streamed = append(streamed, r); return nil }
	if err := cipherd.DecryptStream(ctx, c, slices.All(items), collect, cipherd.WithExpectedKey(email)); err != nil {
		t.Fatal(err)
	}
	check("DecryptStream", streamed)
	streamed = nil
	if err := cipherd.ReEncryptStream(ctx, c, "", slices.All(items), collect, cipherd.WithExpectedKey(email)); err != nil {
		t.Fatal(err)
	}
	check("ReEncryptStream", streamed)
	// Without the option, every item decrypts, the planted one too.
	all, err := c.DecryptBatch(ctx, items[:2])
	if err != nil || all[0].Err != nil || all[1].Err != nil {
		t.Fatalf("DecryptBatch without WithExpectedKey: %+v, %v", all, err)
	}
}
