package main_test

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestCommands_keysEncryptDecryptInspect(t *testing.T) {
	needServer(t)
	if out := cipherctl(t, "", 0, "keys", "create", "cli-key"); !strings.Contains(out, `"currentVersion": 1`) {
		t.Fatalf("keys create printed %s", out)
	}
	ct := strings.TrimSpace(cipherctl(t, "hello from stdin", 0, "encrypt", "cli-key", "--context", "c1"))
	if !strings.HasPrefix(ct, "<cli-key/v1:gcm>") {
		t.Fatalf("encrypt printed %q", ct)
	}
	if pt := cipherctl(t, ct+"\n", 0, "decrypt", "--context", "c1"); pt != "hello from stdin" {
		t.Fatalf("decrypt printed %q", pt)
	}
	cipherctl(t, ct, 1, "decrypt", "--context", "other") // decryption failed
	cipherctl(t, "", 0, "keys", "rotate", "cli-key")
	if out := cipherctl(t, "", 0, "inspect", ct); !strings.Contains(out, "version: 1") || !strings.Contains(out, "behind_current: true") {
		t.Fatalf("inspect printed %s", out)
	}
	if out := cipherctl(t, ct, 0, "inspect", "--local", "--addr", "127.0.0.1:1"); !strings.Contains(out, "mode: gcm") {
		t.Fatalf("inspect --local printed %s", out)
	}
	cipherctl(t, "<bad", 1, "inspect", "--local")
	material := base64.StdEncoding.EncodeToString(make([]byte, 32))
	if out := cipherctl(t, material, 0, "keys", "import", "cli-key"); !strings.Contains(out, `"imported": true`) || strings.Contains(out, material) {
		t.Fatalf("keys import printed %s", out)
	}
	if out := cipherctl(t, "", 0, "keys", "policy", "cli-key", "--min-decryption-version", "2"); !strings.Contains(out, `"minDecryptionVersion": 2`) {
		t.Fatalf("keys policy printed %s", out)
	}
	cipherctl(t, ct, 1, "decrypt") // v1 is now below the minimum: FAILED_PRECONDITION
	if row := listRow(t, "cli-key"); len(row) < 3 || row[1] != "v3" || row[2] != "gcm" {
		t.Fatalf("keys list row of cli-key: %q", row)
	}
	if out := cipherctl(t, "", 0, "keys", "show", "cli-key"); strings.Count(out, `"version":`) != 3 {
		t.Fatalf("keys show printed %s", out)
	}
	cipherctl(t, "", 1, "keys", "show", "no-such-key")
	cipherctl(t, "", 3, "keys", "list", "--addr", "127.0.0.1:1", "--timeout", "2s") // unavailable
}
