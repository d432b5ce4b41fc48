package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectedKey_refusesAPlantedValue: a column read with --expected-key refuses the value a writer
// planted under another key it may use, in decrypt and in rewrap (that record fails alone, as
// unexpected_key, and stays as it was); without the flag the planted value is decrypted.
func TestExpectedKey_refusesAPlantedValue(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-exp-column")
	cipherctl(t, "", 0, "keys", "create", "cli-exp-writer")
	own := strings.TrimSpace(cipherctl(t, "alice@example.com", 0, "encrypt", "cli-exp-column", "--context", "users.email"))
	planted := strings.TrimSpace(cipherctl(t, "mallory@example.com", 0, "encrypt", "cli-exp-writer", "--context", "users.email"))

	if got := cipherctl(t, planted, 0, "decrypt", "--context", "users.email"); got != "mallory@example.com" {
		t.Fatalf("without --expected-key the planted value should decrypt (the reason for the flag), got %q", got)
	}
	_, stderr := cipherctlErr(t, planted, 1, "decrypt", "--context", "users.email", "--expected-key", "cli-exp-column")
	if !strings.Contains(stderr, "cli-exp-writer") || strings.Contains(stderr, "mallory") {
		t.Fatalf("decrypt --expected-key: %q", stderr)
	}
	if got := cipherctl(t, own, 0, "decrypt", "--context", "users.email", "--expected-key", "cli-exp-*"); got != "alice@example.com" {
		t.Fatalf("decrypt with a matching prefix: %q", got)
	}

	cipherctl(t, "", 0, "keys", "rotate", "cli-exp-column")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	rows := `{"id": 1, "email": "` + own + `"}` + "\n" + `{"id": 2, "email": "` + planted + `"}` + "\n"
	if err := os.WriteFile(in, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	summary := cipherctl(t, "", 2, "rewrap", "--in", in, "--out", out, "--field", "email",
		"--context", "users.email", "--expected-key", "cli-exp-column")
	for _, want := range []string{"rewrapped: 1", "failed: 1", "unexpected_key: 1"} {
		if !strings.Contains(summary, want) {
			t.Errorf("rewrap summary lacks %q:\n%s", want, summary)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "<cli-exp-column/v2:") || !strings.Contains(lines[1], planted) {
		t.Fatalf("output rows:\n%s", data)
	}
}
