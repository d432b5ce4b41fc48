package cipherd_test

import (
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// TestCreateKey_optionsReachTheKey: mode, size, the unauthenticated-mode opt-in and the policy
// given to CreateKey are what GetKey reads back, as the client's own types.
func TestCreateKey_optionsReachTheKey(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	name := freshKeyName("create")
	policy := cipherd.KeyPolicy{AutoRotatePeriod: 720 * time.Hour, MaxEncryptionsPerVersion: 1000, CancelDestructionOnUse: true}
	created, err := c.CreateKey(ctx, name, cipherd.WithKeyMode(cipherd.ModeCBC), cipherd.WithKeySizeBits(128),
		cipherd.WithAllowUnauthenticated(), cipherd.WithKeyPolicy(policy))
	if err != nil {
		t.Fatal(err)
	}
	if created.KeyName != name || created.CurrentVersion != 1 || len(created.Versions) != 1 || created.State != cipherd.KeyEnabled {
		t.Fatalf("CreateKey = %+v", created)
	}
	got, err := c.GetKey(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	v1, ok := got.Version(1)
	if !ok || v1.Mode != cipherd.ModeCBC || v1.Mode.String() != "cbc" || v1.KeySizeBits != 128 || v1.Imported ||
		v1.State != cipherd.VersionEnabled || v1.CreateTime.IsZero() || time.Since(v1.CreateTime) > time.Hour || !v1.DestroyTime.IsZero() {
		t.Errorf("GetKey v1 = %+v", v1)
	}
	if got.Policy != policy {
		t.Errorf("policy = %+v, want %+v", got.Policy, policy)
	}
	if _, ok := got.Version(2); ok {
		t.Error("Version(2) of a key with one version")
	}

	if _, err := c.CreateKey(ctx, name); !errors.Is(err, cipherd.ErrAlreadyExists) {
		t.Errorf("CreateKey of an existing key: %v, want ErrAlreadyExists", err)
	}
	if _, err := c.CreateKey(ctx, freshKeyName("cbc"), cipherd.WithKeyMode(cipherd.ModeCBC)); !errors.Is(err, cipherd.ErrInvalidArgument) &&
		!errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("an unauthenticated mode without WithAllowUnauthenticated: %v, want a refusal", err)
	}
	if _, err := c.CreateKey(ctx, "Bad Name"); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("CreateKey(Bad Name): %v, want ErrInvalidArgument", err)
	}
	if _, err := c.GetKey(ctx, "no-such-key"); !errors.Is(err, cipherd.ErrNotFound) {
		t.Errorf("GetKey(no-such-key): %v, want ErrNotFound", err)
	}
}

// TestRotateKey_addsAVersionInTheModeAsked: RotateKey keeps the mode by default and changes it
// with WithKeyMode; ListKeys lists the key at its new current version.
func TestRotateKey_addsAVersionInTheModeAsked(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	name := newKeyWithMode(t, c, "rotate", cipherd.ModeChaCha)
	k, err := c.RotateKey(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if k.CurrentVersion != 2 || len(k.Versions) != 2 || k.Versions[1].Mode != cipherd.ModeChaCha {
		t.Fatalf("RotateKey = %+v", k)
	}
	if k, err = c.RotateKey(ctx, name, cipherd.WithKeyMode(cipherd.ModeXGCM)); err != nil || k.CurrentVersion != 3 || k.Versions[2].Mode != cipherd.ModeXGCM {
		t.Fatalf("RotateKey to xgcm = %+v, %v", k, err)
	}
	ct, err := c.Encrypt(ctx, name, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := cipherd.ParseCiphertext(ct); p.KeyVersion != 3 || p.Mode != cipherd.ModeXGCM {
		t.Errorf("after rotating to xgcm, Encrypt made %s/v%d:%s", p.KeyName, p.KeyVersion, p.Mode)
	}
	listed := false
	for k, err := range c.ListKeys(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if k.KeyName == name {
			listed = k.CurrentVersion == 3 && len(k.Versions) == 3
		}
	}
	if !listed {
		t.Errorf("ListKeys did not list %s at v3", name)
	}
	if _, err := c.RotateKey(ctx, "no-such-key"); !errors.Is(err, cipherd.ErrNotFound) {
		t.Errorf("RotateKey(no-such-key): %v, want ErrNotFound", err)
	}
}

// TestUpdateKeyPolicy_replacesTheWholePolicy: every field travels, and fields left out of the
// next policy go back to their defaults.
func TestUpdateKeyPolicy_replacesTheWholePolicy(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	name := newKey(t, c, "policy")
	for range 2 {
		if _, err := c.RotateKey(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	full := cipherd.KeyPolicy{MinDecryptionVersion: 2, MinEncryptionVersion: 3, AllowECBEncryption: true,
		AutoRotatePeriod: 48 * time.Hour, MaxEncryptionsPerVersion: 5000, CancelDestructionOnUse: true}
	k, err := c.UpdateKeyPolicy(ctx, name, full)
	if err != nil || k.Policy != full {
		t.Fatalf("UpdateKeyPolicy = %+v, %v; want the policy %+v", k, err, full)
	}
	if k, err = c.UpdateKeyPolicy(ctx, name, cipherd.KeyPolicy{MinDecryptionVersion: 3}); err != nil ||
		k.Policy != (cipherd.KeyPolicy{MinDecryptionVersion: 3}) {
		t.Fatalf("UpdateKeyPolicy(min 3) = %+v, %v", k, err)
	}
	if _, err := c.UpdateKeyPolicy(ctx, name, cipherd.KeyPolicy{MinDecryptionVersion: 9}); !errors.Is(err, cipherd.ErrInvalidArgument) &&
		!errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("a minimum past the current version: %v, want a refusal", err)
	}
}

// TestImportKey_materialBecomesAVersion: imported bytes decrypt what an independent AES-GCM made,
// and the options ImportKey does not take fail before a call.
func TestImportKey_materialBecomesAVersion(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	name := freshKeyName("import")
	material := make([]byte, 32)
	rand.Read(material)
	k, err := c.ImportKey(ctx, name, material, cipherd.WithKeyMode(cipherd.ModeGCM))
	if err != nil {
		t.Fatal(err)
	}
	if v := k.Versions[0]; !v.Imported || v.Mode != cipherd.ModeGCM || v.KeySizeBits != 256 || v.LegacyCipher != cipherd.LegacyCipherUnspecified {
		t.Errorf("imported version = %+v", v)
	}
	if k, err = c.ImportKey(ctx, name, material); err != nil || k.CurrentVersion != 2 || !k.Versions[1].Imported {
		t.Fatalf("a second import = %+v, %v; want version 2", k, err)
	}
	for what, opts := range map[string][]cipherd.KeyOption{
		"a policy":                 {cipherd.WithKeyPolicy(cipherd.KeyPolicy{})},
		"a size":                   {cipherd.WithKeySizeBits(256)},
		"a legacy IV alone":        {cipherd.WithLegacyIV(cipherd.LegacyIVFixed)},
		"a mode and legacy cipher": {cipherd.WithKeyMode(cipherd.ModeGCM), cipherd.WithLegacyCipher(cipherd.LegacyAESCBC)},
	} {
		if _, err := c.ImportKey(ctx, name, material, opts...); !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("ImportKey with %s: %v, want ErrInvalidArgument", what, err)
		}
	}
	if _, err := c.ImportKey(ctx, freshKeyName("short"), material[:5]); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("ImportKey of 5 bytes: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.CreateKey(ctx, freshKeyName("x"), cipherd.WithLegacyCipher(cipherd.LegacyAESCBC)); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("CreateKey with a legacy cipher: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.RotateKey(ctx, name, cipherd.WithKeyPolicy(cipherd.KeyPolicy{})); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("RotateKey with a policy: %v, want ErrInvalidArgument", err)
	}
}

// TestImportKey_legacyCipherWithItsIV: a legacy key with a fixed IV reads back its cipher and IV
// convention, and has no cipherd mode.
func TestImportKey_legacyCipherWithItsIV(t *testing.T) {
	c := dialPlain(t)
	material := make([]byte, 16)
	rand.Read(material)
	k, err := c.ImportKey(context.Background(), freshKeyName("legacy-cbc"), material, cipherd.WithLegacyCipher(cipherd.LegacyAESCBC),
		cipherd.WithLegacyIV(cipherd.LegacyIVFixed), cipherd.WithLegacyFixedIV(make([]byte, 16)))
	if err != nil {
		t.Fatal(err)
	}
	if v := k.Versions[0]; v.LegacyCipher != cipherd.LegacyAESCBC || v.LegacyCipher.String() != "aes-cbc" || v.LegacyIV != cipherd.LegacyIVFixed ||
		v.Mode != cipherd.ModeUnspecified {
		t.Errorf("legacy version = %+v", v)
	}
}

// TestRaw_stubsGoThroughTheClientsConnection: the generated stubs on Raw() carry the client's
// options and answer with its typed errors.
func TestRaw_stubsGoThroughTheClientsConnection(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	name := newKey(t, c, "raw")
	resp, err := cipherdpb.NewKeyAdminServiceClient(c.Raw()).GetKey(ctx, &cipherdpb.GetKeyRequest{KeyName: name})
	if err != nil || resp.GetKey().GetKeyName() != name {
		t.Fatalf("GetKey through Raw: %v, %v", resp, err)
	}
	_, err = cipherdpb.NewCryptoServiceClient(c.Raw()).Decrypt(ctx, &cipherdpb.DecryptRequest{Ciphertext: "<" + name + "/v1:gcm>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
	var e *cipherd.Error
	if !errors.Is(err, cipherd.ErrDecryptionFailed) || !errors.As(err, &e) || e.Reason != "DECRYPTION_FAILED" {
		t.Errorf("a tampered ciphertext through Raw: %v, want ErrDecryptionFailed", err)
	}
}

// TestEnums_namesOfEveryValue: every Mode of the API has a name ParseMode reads back.
func TestEnums_namesOfEveryValue(t *testing.T) {
	if len(cipherd.Modes()) != len(cipherdpb.Mode_name)-1 {
		t.Errorf("Modes() = %v: not every mode of the API", cipherd.Modes())
	}
	for _, m := range cipherd.Modes() {
		if got, ok := cipherd.ParseMode(m.String()); !ok || got != m || m.String() == "" {
			t.Errorf("mode %d: name %q reads back as %v, %v", int32(m), m.String(), got, ok)
		}
	}
	if cipherd.ModeUnspecified.String() != "" || cipherd.ModeChaCha.String() != "chacha" || cipherd.IsHeaderMode(cipherd.ModeHMAC) {
		t.Error("mode names")
	}
}

// TestListKeys_withPageSize_pagesThroughTheSameKeys: pages of one key list the same keys in the
// same order as the default pages, one ListKeys call per key (plus the last, empty-token one).
func TestListKeys_withPageSize_pagesThroughTheSameKeys(t *testing.T) {
	var calls atomic.Int32
	count := grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if strings.HasSuffix(method, "/ListKeys") {
			calls.Add(1)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	})
	c := dialPlain(t, cipherd.WithDialOptions(count))
	ctx := context.Background()
	newKeyWithMode(t, c, "page-a", cipherd.ModeGCM)
	newKeyWithMode(t, c, "page-b", cipherd.ModeGCM)
	names := func(opts ...cipherd.ListKeysOption) []string {
		var out []string
		for k, err := range c.ListKeys(ctx, opts...) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, k.KeyName)
		}
		return out
	}
	all := names()
	calls.Store(0)
	paged := names(cipherd.WithPageSize(1))
	if !slices.Equal(all, paged) || len(paged) < 2 {
		t.Fatalf("ListKeys by pages of 1 = %v, by default pages = %v", paged, all)
	}
	if !slices.IsSorted(paged) {
		t.Errorf("ListKeys not in name order: %v", paged)
	}
	if got := int(calls.Load()); got < len(paged) {
		t.Errorf("pages of 1 over %d keys took %d ListKeys calls", len(paged), got)
	}
}
