package cipherd_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
	"github.com/cipherd/cipherd/clients/go/internal/mysqlaes"
)

const mysqlPassphrase = mysqlaes.KnownPassphrase

func mysqlAESEncrypt(plaintext, passphrase string) []byte {
	return mysqlaes.Encrypt([]byte(plaintext), []byte(passphrase))
}

func TestMySQLAESEncrypt_matchesTheKnownAnswer(t *testing.T) {
	got := strings.ToUpper(hex.EncodeToString(mysqlAESEncrypt(mysqlaes.KnownPlaintext, mysqlPassphrase)))
	if got != mysqlaes.KnownAnswerHex {
		t.Fatalf("AES_ENCRYPT('HELLO', '%s') = %s, want %s", mysqlPassphrase, got, mysqlaes.KnownAnswerHex)
	}
}

// importMySQLKey imports the known-answer passphrase as a legacy key and returns its name.
func importMySQLKey(t *testing.T, c *cipherd.Client) string {
	t.Helper()
	name := freshKeyName("mysql")
	resp, err := c.ImportKey(context.Background(), name, nil, cipherd.WithLegacyCipher(cipherd.LegacyMySQLAESECB),
		cipherd.WithLegacyPassphrase([]byte(mysqlPassphrase)))
	if err != nil {
		t.Fatalf("ImportKey(%s, mysql-aes-ecb): %v", name, err)
	}
	if v := resp.Versions[0]; v.LegacyCipher != cipherd.LegacyMySQLAESECB || v.Mode != cipherd.ModeUnspecified {
		t.Fatalf("imported version: %v", v)
	}
	return name
}

func TestReEncryptLegacy_mysqlKnownAnswerInEveryEncoding(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	legacy, target := importMySQLKey(t, c), newKey(t, c, "from-mysql")
	raw, _ := hex.DecodeString(mysqlaes.KnownAnswerHex)
	for name, lc := range map[string]*cipherd.LegacyCiphertext{
		"hex":       cipherd.LegacyHex(legacy, mysqlaes.KnownAnswerHex),
		"lower hex": cipherd.LegacyHex(legacy, strings.ToLower(mysqlaes.KnownAnswerHex)),
		"base64":    cipherd.LegacyBase64(legacy, "/wala06IyCigEOm9DOcKiQ=="),
		"raw":       cipherd.LegacyRaw(legacy, raw),
	} {
		resp, err := c.ReEncryptLegacy(ctx, target, lc, cipherd.WithAAD([]byte("row 1")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p, _ := cipherd.ParseCiphertext(resp.Ciphertext); p.KeyName != target {
			t.Fatalf("%s: rewrapped into %q, want %s", name, p.KeyName, target)
		}
		pt, err := c.Decrypt(ctx, resp.Ciphertext, cipherd.WithAAD([]byte("row 1")))
		if err != nil || string(pt) != mysqlaes.KnownPlaintext {
			t.Fatalf("%s: rewrapped ciphertext decrypts to %q, %v; want HELLO", name, pt, err)
		}
	}
	// A legacy key never encrypts, and legacy data is never decrypted to the client.
	if _, err := c.Encrypt(ctx, legacy, []byte("x")); err == nil {
		t.Error("a legacy key encrypted")
	}
	_, err := c.DecryptBatch(ctx, []cipherd.CiphertextItem{{Reference: "1", Legacy: cipherd.LegacyHex(legacy, mysqlaes.KnownAnswerHex)}})
	if !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("DecryptBatch of a legacy item: %v, want ErrInvalidArgument", err)
	}
}

// TestReEncryptStream_legacyColumn rewraps a column of MySQL ciphertexts (made by the independent
// implementation above) in one stream, a broken and a foreign row among them, and a batch too.
func TestReEncryptStream_legacyColumn(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	legacy, target := importMySQLKey(t, c), newKey(t, c, "column")
	const n, badHex, otherPassphrase = 2000, 7, 11
	items := make([]cipherd.CiphertextItem, n)
	for i := range items {
		ct := strings.ToUpper(hex.EncodeToString(mysqlAESEncrypt(fmt.Sprintf("user%d@example.com", i), mysqlPassphrase)))
		switch i {
		case badHex:
			ct = "not hex"
		case otherPassphrase:
			ct = hex.EncodeToString(mysqlAESEncrypt("x", "another passphrase"))
		}
		items[i] = cipherd.CiphertextItem{Reference: strconv.Itoa(i), Legacy: cipherd.LegacyHex(legacy, ct)}
	}
	seq := func(yield func(int, cipherd.CiphertextItem) bool) {
		for i, it := range items {
			if !yield(i, it) {
				return
			}
		}
	}
	rewrapped := make([]cipherd.CiphertextItem, 0, n)
	err := cipherd.ReEncryptStream(ctx, c, target, seq, func(i int, r cipherd.Result) error {
		switch {
		case i == badHex && !errors.Is(r.Err, cipherd.ErrInvalidArgument):
			return fmt.Errorf("row with bad hex: %v, want ErrInvalidArgument", r.Err)
		case i == otherPassphrase && !errors.Is(r.Err, cipherd.ErrDecryptionFailed):
			return fmt.Errorf("row of another passphrase: %v, want ErrDecryptionFailed", r.Err)
		case i != badHex && i != otherPassphrase:
			if r.Err != nil {
				return fmt.Errorf("row %d: %w", i, r.Err)
			}
			rewrapped = append(rewrapped, cipherd.CiphertextItem{Reference: r.Reference, Ciphertext: r.Ciphertext})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	results, err := c.DecryptBatch(ctx, rewrapped)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Err != nil || string(r.Plaintext) != "user"+r.Reference+"@example.com" {
			t.Fatalf("row %s does not decrypt to its plaintext: %v", r.Reference, r.Err)
		}
	}
	if len(results) != n-2 {
		t.Fatalf("%d rows rewrapped, want %d", len(results), n-2)
	}
	batch, err := c.ReEncryptBatch(ctx, target, items[:3])
	if err != nil || len(batch) != 3 || batch[0].Err != nil {
		t.Fatalf("ReEncryptBatch of legacy items: %v, %+v", err, batch)
	}
}

func TestLegacyCipherNames_roundTrip(t *testing.T) {
	if name := cipherd.LegacyCipherUnspecified.String(); name != "" {
		t.Errorf("unspecified is named %q", name)
	}
	if len(cipherd.LegacyCiphers()) != len(cipherdpb.LegacyCipher_name)-1 {
		t.Errorf("LegacyCiphers() = %v: not every cipher of the API", cipherd.LegacyCiphers())
	}
	for _, c := range cipherd.LegacyCiphers() {
		name := cipherd.LegacyCipherName(c)
		if got, ok := cipherd.ParseLegacyCipher(name); !ok || got != c {
			t.Errorf("ParseLegacyCipher(%q) = %v, %v; want %v", name, got, ok, c)
		}
	}
	if cipherd.LegacyCipherName(cipherd.LegacyMySQLAESECB) != "mysql-aes-ecb" {
		t.Error("mysql-aes-ecb is misnamed")
	}
	for _, bad := range []string{"", "unspecified", "aes_cbc", "AES-CBC ", "mysql"} {
		if _, ok := cipherd.ParseLegacyCipher(bad); ok {
			t.Errorf("ParseLegacyCipher(%q) accepted", bad)
		}
	}
	if iv, ok := cipherd.ParseLegacyIV("fixed"); !ok || iv != cipherd.LegacyIVFixed || iv.String() != "fixed" {
		t.Error("ParseLegacyIV(fixed)")
	}
	if _, ok := cipherd.ParseLegacyIV("unspecified"); ok {
		t.Error("ParseLegacyIV(unspecified) accepted")
	}
}
