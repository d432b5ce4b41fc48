package cipherd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// transitVectors is proto/testdata/transit_vectors.json: ciphertexts made by a real Vault Transit
// with the keys that made them.
type transitVectors struct {
	Keys []struct {
		Name     string            `json:"name"`
		Type     string            `json:"type"`
		KDF      string            `json:"kdf"` // a derived key's
		Versions map[string][]byte `json:"versions"`
		Cases    []struct {
			Ciphertext     string `json:"ciphertext"`
			Plaintext      []byte `json:"plaintext"`
			AssociatedData []byte `json:"associated_data"`
			Context        []byte `json:"context"` // Transit's context, for a derived key
		} `json:"cases"`
	} `json:"keys"`
}

// transitCase is one vector with the name of the fresh key its Transit key was imported into.
type transitCase struct {
	key        string
	version    int32
	current    int32
	ciphertext string
	plaintext  []byte
	aad        []byte // the call's context: Transit's associated data, or a derived key's context
}

// importTransitVectors imports every vector key, version by version so that cipherd's version
// numbers are Transit's, into a fresh key each (a derived key's with its KDF, then rotated for a
// version that encrypts, as cipherctl import vault-transit does), and returns every case.
func importTransitVectors(t *testing.T, c *cipherd.Client) []transitCase {
	t.Helper()
	data, err := os.ReadFile("../../proto/testdata/transit_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors transitVectors
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	var cases []transitCase
	for _, k := range vectors.Keys {
		mode := cipherd.ModeGCM
		if strings.HasPrefix(k.Type, "chacha") {
			mode = cipherd.ModeChaCha
		}
		kdf := map[string]cipherd.TransitKDF{"hkdf_sha256": cipherd.TransitKDFHKDFSHA256, "hmac-sha256-counter": cipherd.TransitKDFHMACSHA256Counter}[k.KDF]
		name := freshKeyName(k.Name)
		for v := 1; v <= len(k.Versions); v++ {
			material, ok := k.Versions[strconv.Itoa(v)]
			if !ok {
				t.Fatalf("%s: version %d missing from the vectors", k.Name, v)
			}
			key, err := c.ImportKey(context.Background(), name, material, cipherd.WithKeyMode(mode), cipherd.WithTransitKDF(kdf))
			if err != nil {
				t.Fatalf("ImportKey(%s v%d): %v", k.Name, v, err)
			}
			if key.CurrentVersion != int32(v) {
				t.Fatalf("%s: imported version %d became v%d", k.Name, v, key.CurrentVersion)
			}
		}
		current := int32(len(k.Versions))
		if kdf != cipherd.TransitKDFNone {
			if _, err := c.RotateKey(context.Background(), name); err != nil {
				t.Fatalf("RotateKey(%s): %v", k.Name, err)
			}
			current++
		}
		for _, kc := range k.Cases {
			version, err := strconv.Atoi(strings.SplitN(kc.Ciphertext, ":", 3)[1][1:])
			if err != nil {
				t.Fatalf("%s: %v", kc.Ciphertext, err)
			}
			aad := kc.AssociatedData
			if len(kc.Context) > 0 {
				aad = kc.Context
			}
			cases = append(cases, transitCase{name, int32(version), current, kc.Ciphertext, kc.Plaintext, aad})
		}
	}
	if len(cases) < 100 {
		t.Fatalf("%d Transit vectors, want at least 100", len(cases))
	}
	return cases
}

// checkTransitRewrap checks that rewrapped is a cipherd ciphertext under the key's current version,
// from the case's version, that decrypts to the case's plaintext.
func checkTransitRewrap(t *testing.T, c *cipherd.Client, tc transitCase, ciphertext string, version, source int32) {
	t.Helper()
	if !strings.HasPrefix(ciphertext, fmt.Sprintf("<%s/v%d:", tc.key, tc.current)) || version != tc.current || source != tc.version {
		t.Fatalf("%s rewrapped to v%d from v%d as %.30q, want <%s/v%d:…> from v%d", tc.ciphertext, version, source, ciphertext, tc.key, tc.current, tc.version)
	}
	pt, err := c.Decrypt(context.Background(), ciphertext, cipherd.WithAAD(tc.aad))
	if err != nil || !bytes.Equal(pt, tc.plaintext) {
		t.Fatalf("the rewrap of %s decrypts to %q, %v", tc.ciphertext, pt, err)
	}
}

func TestTransitVectors_unary_decryptAndRewrapWithTheExpectedKey(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	for _, tc := range importTransitVectors(t, c) {
		pt, err := c.Decrypt(ctx, tc.ciphertext, cipherd.WithAAD(tc.aad), cipherd.WithExpectedKey(tc.key))
		if err != nil || !bytes.Equal(pt, tc.plaintext) {
			t.Fatalf("Decrypt(%s) = %q, %v", tc.ciphertext, pt, err)
		}
		r, err := c.ReEncrypt(ctx, tc.ciphertext, cipherd.WithAAD(tc.aad), cipherd.WithExpectedKey(tc.key))
		if err != nil {
			t.Fatalf("ReEncrypt(%s): %v", tc.ciphertext, err)
		}
		checkTransitRewrap(t, c, tc, r.Ciphertext, r.KeyVersion, r.SourceKeyVersion)
	}
}

// transitItems are the cases as items, each naming its own expected key.
func transitItems(cases []transitCase) []cipherd.CiphertextItem {
	items := make([]cipherd.CiphertextItem, len(cases))
	for i, tc := range cases {
		items[i] = cipherd.CiphertextItem{Reference: strconv.Itoa(i), Ciphertext: tc.ciphertext, AAD: tc.aad, ExpectedKey: tc.key}
	}
	return items
}

func TestTransitVectors_batches_decryptAndRewrapWithTheExpectedKey(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	cases := importTransitVectors(t, c)
	decrypted, err := c.DecryptBatch(ctx, transitItems(cases))
	if err != nil || len(decrypted) != len(cases) {
		t.Fatalf("DecryptBatch: %d results, %v", len(decrypted), err)
	}
	rewrapped, err := c.ReEncryptBatch(ctx, "", transitItems(cases))
	if err != nil || len(rewrapped) != len(cases) {
		t.Fatalf("ReEncryptBatch: %d results, %v", len(rewrapped), err)
	}
	for i, tc := range cases {
		if r := decrypted[i]; r.Err != nil || !bytes.Equal(r.Plaintext, tc.plaintext) || r.KeyVersion != tc.version {
			t.Fatalf("DecryptBatch item %s: %q v%d, %v", tc.ciphertext, r.Plaintext, r.KeyVersion, r.Err)
		}
		r := rewrapped[i]
		if r.Err != nil {
			t.Fatalf("ReEncryptBatch item %s: %v", tc.ciphertext, r.Err)
		}
		checkTransitRewrap(t, c, tc, r.Ciphertext, r.KeyVersion, r.SourceKeyVersion)
	}
}

// TestTransitVectors_streams_passTransitCiphertextsToTheServer: the streams' local header check
// lets a vault:vN: ciphertext through, and the stream's WithExpectedKey names its key.
func TestTransitVectors_streams_passTransitCiphertextsToTheServer(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	cases := importTransitVectors(t, c)
	for _, key := range uniqueKeys(cases) {
		var mine []transitCase
		for _, tc := range cases {
			if tc.key == key {
				mine = append(mine, tc)
			}
		}
		items := transitItems(mine)
		for i := range items {
			items[i].ExpectedKey = "" // the stream's option names the key
		}
		var decrypted, rewrapped int
		err := cipherd.DecryptStream(ctx, c, slices.All(items), func(i int, r cipherd.Result) error {
			if r.Err != nil || !bytes.Equal(r.Plaintext, mine[i].plaintext) {
				return fmt.Errorf("DecryptStream item %s: %q, %v", mine[i].ciphertext, r.Plaintext, r.Err)
			}
			decrypted++
			return nil
		}, cipherd.WithExpectedKey(key))
		if err != nil {
			t.Fatal(err)
		}
		err = cipherd.ReEncryptStream(ctx, c, "", slices.All(items), func(i int, r cipherd.Result) error {
			if r.Err != nil {
				return fmt.Errorf("ReEncryptStream item %s: %v", mine[i].ciphertext, r.Err)
			}
			checkTransitRewrap(t, c, mine[i], r.Ciphertext, r.KeyVersion, r.SourceKeyVersion)
			rewrapped++
			return nil
		}, cipherd.WithExpectedKey(key))
		if err != nil {
			t.Fatal(err)
		}
		if decrypted != len(mine) || rewrapped != len(mine) {
			t.Fatalf("%s: %d decrypted, %d rewrapped of %d", key, decrypted, rewrapped, len(mine))
		}
	}
}

func uniqueKeys(cases []transitCase) []string {
	var keys []string
	for _, tc := range cases {
		if !slices.Contains(keys, tc.key) {
			keys = append(keys, tc.key)
		}
	}
	return keys
}
