package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// newFPEKey creates a fresh format-preserving key with format and returns its name.
func newFPEKey(t *testing.T, c *cipherd.Client, prefix string, format cipherd.FPEFormat) string {
	t.Helper()
	name := freshKeyName(prefix)
	if _, err := c.CreateKey(context.Background(), name, cipherd.WithKeyMode(cipherd.ModeFF1), cipherd.WithFPEFormat(format)); err != nil {
		t.Fatalf("CreateKey(%s, ff1): %v", name, err)
	}
	return name
}

// luhnValid reports whether digits (separators ignored) pass the Luhn check.
func luhnValid(number string) bool {
	sum, double := 0, false
	for i := len(number) - 1; i >= 0; i-- {
		ch := number[i]
		if ch < '0' || ch > '9' {
			continue
		}
		d := int(ch - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func TestFormatted_digitsKeepTheirShapeAndNeedTheirVersionAcrossARotation(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newFPEKey(t, c, "fpe-digits", cipherd.FPEFormat{Template: cipherd.FPETemplateDigits})
	column := cipherd.WithValueContext([]byte("users.national_id"))
	v1, err := c.EncryptFormatted(ctx, key, "0123456789", column)
	if err != nil {
		t.Fatal(err)
	}
	if v1.KeyVersion != 1 || len(v1.Value) != 10 || strings.Trim(v1.Value, "0123456789") != "" || v1.Value == "0123456789" {
		t.Fatalf("EncryptFormatted = %+v, want 10 other digits at version 1", v1)
	}
	if again, _ := c.EncryptFormatted(ctx, key, "0123456789", column); again != v1 {
		t.Errorf("FF1 is deterministic: %+v then %+v", v1, again)
	}
	if other, _ := c.EncryptFormatted(ctx, key, "0123456789", cipherd.WithValueContext([]byte("users.phone"))); other.Value == v1.Value {
		t.Errorf("another context gave the same value %q", other.Value)
	}
	if got, err := c.DecryptFormatted(ctx, key, v1, column); err != nil || got != "0123456789" {
		t.Errorf("DecryptFormatted = %q, %v", got, err)
	}

	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	v2, err := c.EncryptFormatted(ctx, key, "0123456789", column)
	if err != nil || v2.KeyVersion != 2 || v2.Value == v1.Value {
		t.Fatalf("after rotation: %+v, %v", v2, err)
	}
	// The wrong version is no error, only a wrong value of the right shape: why the version travels with the value.
	wrong, err := c.DecryptFormatted(ctx, key, cipherd.FormattedValue{Value: v1.Value, KeyVersion: 2}, column)
	if err != nil || wrong == "0123456789" || len(wrong) != 10 {
		t.Errorf("decrypting with the wrong version: %q, %v, want another 10 digits", wrong, err)
	}
	if _, err := c.DecryptFormatted(ctx, key, cipherd.FormattedValue{Value: v1.Value}, column); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("key_version 0 on a key without a prefix: %v, want ErrInvalidArgument", err)
	}
	moved, err := c.ReEncryptFormatted(ctx, key, v1, column)
	if err != nil || moved.FormattedValue != v2 || moved.SourceKeyVersion != 1 {
		t.Errorf("ReEncryptFormatted(v1) = %+v, %v, want %+v from version 1", moved, err, v2)
	}
	k, err := c.GetKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range k.Versions {
		if v.Mode != cipherd.ModeFF1 || v.FPEFormat == nil || v.FPEFormat.Template != cipherd.FPETemplateDigits {
			t.Errorf("version %d: mode %s, format %+v", v.Version, v.Mode, v.FPEFormat)
		}
	}
	if k.Versions[0].Usage.Encryptions == 0 || k.Versions[0].Usage.Decryptions == 0 {
		t.Errorf("version 1's usage counts no FF1 call: %+v", k.Versions[0].Usage)
	}
}

func TestFormatted_cardNumbersStayLuhnValidAndMaskToTheirLastFour(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	small := newFPEKey(t, c, "fpe-card-refused", cipherd.FPEFormat{Template: cipherd.FPETemplateCardNumber})
	const card = "4111 1111 1111 1111"
	if _, err := c.EncryptFormatted(ctx, small, card); !errors.Is(err, cipherd.ErrInvalidArgument) || strings.Contains(err.Error(), "4111") {
		t.Errorf("a 16-digit card without accept_small_domain: %v, want ErrInvalidArgument without the value", err)
	}
	key := newFPEKey(t, c, "fpe-card", cipherd.FPEFormat{Template: cipherd.FPETemplateCardNumber, AcceptSmallDomain: true})
	ct, err := c.EncryptFormatted(ctx, key, card)
	if err != nil {
		t.Fatal(err)
	}
	if len(ct.Value) != len(card) || ct.Value[:7] != "4111 11" || ct.Value[len(ct.Value)-4:] != "1111" || ct.Value == card || !luhnValid(ct.Value) {
		t.Errorf("card ciphertext %q: want the first six and last four kept, the spaces in place, Luhn-valid", ct.Value)
	}
	masked, err := c.MaskFormatted(ctx, key, ct)
	if err != nil || masked != "•••• •••• •••• 1111" {
		t.Errorf("MaskFormatted = %q, %v", masked, err)
	}
	if _, err := c.EncryptFormatted(ctx, key, "4111-1111-11a1-1111"); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("a letter in a card number: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.Encrypt(ctx, key, []byte("x")); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("Encrypt with an FF1 key: %v, want ErrFailedPrecondition", err)
	}
	gcm := newKey(t, c, "fpe-not-ff1")
	if _, err := c.EncryptFormatted(ctx, gcm, "0123456789"); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("EncryptFormatted with a gcm key: %v, want ErrFailedPrecondition", err)
	}
}

func TestFormatted_aVersionPrefixLetsDecryptGoWithoutTheVersion(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	const hex = "0123456789abcdef"
	key := newFPEKey(t, c, "fpe-prefix", cipherd.FPEFormat{Alphabet: hex, VersionPrefixLength: 1})
	ct, err := c.EncryptFormatted(ctx, key, "deadbeef00")
	if err != nil {
		t.Fatal(err)
	}
	if ct.KeyVersion != 1 || len(ct.Value) != 11 || ct.Value[0] != '1' || strings.Trim(ct.Value, hex) != "" {
		t.Fatalf("prefixed ciphertext %+v: want 11 hex digits starting with version 1", ct)
	}
	if got, err := c.DecryptFormatted(ctx, key, cipherd.FormattedValue{Value: ct.Value}); err != nil || got != "deadbeef00" {
		t.Errorf("DecryptFormatted without a version = %q, %v", got, err)
	}
}

func TestFormattedBatches_againstTheServer_oneResultPerItemInOrder(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newFPEKey(t, c, "fpe-batch", cipherd.FPEFormat{Template: cipherd.FPETemplateAlphanumeric})
	items := make([]cipherd.FormattedPlainItem, 40)
	for i := range items {
		items[i] = cipherd.FormattedPlainItem{Reference: fmt.Sprint("row-", i), Value: fmt.Sprintf("Customer%04d", i)}
	}
	items[7].Value = "not alphanumeric!"
	enc, err := c.EncryptFormattedBatch(ctx, key, items, cipherd.WithValueContext([]byte("crm.customer_ref")))
	if err != nil {
		t.Fatal(err)
	}
	var toDecrypt []cipherd.FormattedItem
	for i, r := range enc {
		if r.Reference != items[i].Reference {
			t.Fatalf("result %d is %q", i, r.Reference)
		}
		if i == 7 {
			if !errors.Is(r.Err, cipherd.ErrInvalidArgument) {
				t.Errorf("item 7: %v, want ErrInvalidArgument", r.Err)
			}
			continue
		}
		if r.Err != nil || r.Value.KeyVersion != 1 || len(r.Value.Value) != len(items[i].Value) {
			t.Fatalf("item %d: %v, %v", i, r.Value, r.Err)
		}
		toDecrypt = append(toDecrypt, cipherd.FormattedItem{Reference: r.Reference, Ciphertext: r.Value})
	}
	dec, err := c.DecryptFormattedBatch(ctx, key, toDecrypt, cipherd.WithValueContext([]byte("crm.customer_ref")))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range dec {
		want := items[i]
		if i >= 7 {
			want = items[i+1]
		}
		if r.Err != nil || r.Reference != want.Reference || r.Value.Value != want.Value {
			t.Errorf("decrypted item %d: %s, %v", i, r.Reference, r.Err)
		}
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	moved, err := c.ReEncryptFormattedBatch(ctx, key, toDecrypt, cipherd.WithValueContext([]byte("crm.customer_ref")))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range moved {
		if r.Err != nil || r.Value.KeyVersion != 2 || r.SourceKeyVersion != 1 || r.Reference != toDecrypt[i].Reference {
			t.Errorf("rewrapped item %d: version %d from %d, %v", i, r.Value.KeyVersion, r.SourceKeyVersion, r.Err)
		}
	}
}

// TestFormatted_aMaskOnlyCallerMasksButCannotDecrypt starts a server whose access policy gives one
// caller only the mask operation: the display mask is all it gets.
func TestFormatted_aMaskOnlyCallerMasksButCannotDecrypt(t *testing.T) {
	if testing.Short() || plain == nil {
		t.Skip("no server (jar not built)")
	}
	const maskToken, ownerToken = "mask-token-for-tests", "owner-token-for-tests"
	policy := fmt.Sprintf(`callers:
  owner:
    token_sha256: %s
    rules:
      - keys: ["*"]
        operations: [admin, encrypt, decrypt, reencrypt]
  support:
    token_sha256: %s
    rules:
      - keys: ["*"]
        operations: [mask]
`, sha(ownerToken), sha(maskToken))
	srv, err := testserver.Start(testserver.Options{PKI: pki, AccessPolicy: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	ctx := context.Background()
	owner := dial(t, srv.Addr, cipherd.WithCAFile(pki.CAFile), cipherd.WithBearerToken(ownerToken))
	support := dial(t, srv.Addr, cipherd.WithCAFile(pki.CAFile), cipherd.WithBearerToken(maskToken))
	key := newFPEKey(t, owner, "fpe-mask", cipherd.FPEFormat{Template: cipherd.FPETemplateCardNumberLastFour})
	ct, err := owner.EncryptFormatted(ctx, key, "5555-5555-5555-4444")
	if err != nil {
		t.Fatal(err)
	}
	if masked, err := support.MaskFormatted(ctx, key, ct); err != nil || masked != "••••-••••-••••-4444" {
		t.Errorf("MaskFormatted by the mask-only caller = %q, %v", masked, err)
	}
	if _, err := support.DecryptFormatted(ctx, key, ct); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("DecryptFormatted by the mask-only caller: %v, want ErrPermissionDenied", err)
	}
	if _, err := support.ReEncryptFormatted(ctx, key, ct); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("ReEncryptFormatted by the mask-only caller: %v, want ErrPermissionDenied", err)
	}
}
