package cipherd_test

import (
	"context"
	"errors"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// TestKeyCensus_afterEncryptDecryptRewrap encrypts 3 messages under v1, decrypts 2, rotates,
// rewraps 1 into v2 and rotates again, then checks GetKey's usage (counted at once on the replica
// that answers) and the census: v3 was never used, so the oldest version in use, v1, is the safe
// minimum until the minimum itself is raised.
func TestKeyCensus_afterEncryptDecryptRewrap(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "census")
	start := time.Now().Add(-time.Second) // the server's clock may differ a little
	var cts []string
	for _, p := range []string{"a", "b", "c"} {
		ct, err := c.Encrypt(ctx, key, []byte(p))
		if err != nil {
			t.Fatal(err)
		}
		cts = append(cts, ct)
	}
	for _, ct := range cts[:2] {
		if _, err := c.Decrypt(ctx, ct); err != nil {
			t.Fatal(err)
		}
	}
	rotate(t, c, key)
	if _, err := c.ReEncrypt(ctx, cts[2]); err != nil {
		t.Fatal(err)
	}
	rotate(t, c, key)

	resp, err := c.GetKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	want := []cipherd.Usage{
		{Encryptions: 3, Decryptions: 3, Rewraps: 1}, // the rewrap decrypted v1 too
		{Encryptions: 1}, // and encrypted into v2
		{},
	}
	for i, v := range resp.Versions {
		got := v.Usage
		if got.Encryptions != want[i].Encryptions || got.Decryptions != want[i].Decryptions || got.Rewraps != want[i].Rewraps {
			t.Errorf("GetKey v%d usage %+v, want %+v", v.Version, got, want[i])
		}
		if used := i < 2; got.Used() != used || (used && got.LastUsed.Before(start)) {
			t.Errorf("GetKey v%d last used %v, want used=%v after %v", v.Version, got.LastUsed, used, start)
		}
	}

	census, err := c.GetKeyCensus(ctx, key, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantCensus(t, census, 1, []bool{true, true, false})
	if census.Versions[0].Usage.Rewraps != 1 || census.Versions[1].Usage.Encryptions != 1 {
		t.Errorf("census usage: %+v", census.Versions)
	}

	if _, err := c.UpdateKeyPolicy(ctx, key, cipherd.KeyPolicy{MinDecryptionVersion: 2}); err != nil {
		t.Fatal(err)
	}
	census, err = c.GetKeyCensus(ctx, key, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	wantCensus(t, census, 2, []bool{true, false}) // from the minimum, v2, up
	if census.Versions[0].Version != 2 {
		t.Errorf("census starts at v%d, want v2 (the minimum)", census.Versions[0].Version)
	}
}

func TestKeyCensus_shortQuietPeriodFindsNoVersionInUse(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "quiet")
	if _, err := c.Encrypt(ctx, key, []byte("x")); err != nil {
		t.Fatal(err)
	}
	rotate(t, c, key)
	time.Sleep(1100 * time.Millisecond)
	census, err := c.GetKeyCensus(ctx, key, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	wantCensus(t, census, 2, []bool{false, false}) // none in use: the current version is safe
	if !census.Versions[0].Usage.Used() {
		t.Error("v1 was used, only not within the quiet period")
	}
	if _, err := c.GetKeyCensus(ctx, "no-such-key", 0); !errors.Is(err, cipherd.ErrNotFound) {
		t.Errorf("census of a missing key: %v, want ErrNotFound", err)
	}
}

func wantCensus(t *testing.T, census *cipherd.KeyCensus, safe int32, inUse []bool) {
	t.Helper()
	if census.SafeMinDecryptionVersion != safe {
		t.Errorf("safe min_decryption_version %d, want %d", census.SafeMinDecryptionVersion, safe)
	}
	if len(census.Versions) != len(inUse) {
		t.Fatalf("census has %d versions, want %d", len(census.Versions), len(inUse))
	}
	for i, v := range census.Versions {
		if v.InUse != inUse[i] {
			t.Errorf("census v%d in use: %v, want %v", v.Version, v.InUse, inUse[i])
		}
	}
}

func rotate(t *testing.T, c *cipherd.Client, key string) {
	t.Helper()
	if _, err := c.RotateKey(context.Background(), key); err != nil {
		t.Fatal(err)
	}
}
