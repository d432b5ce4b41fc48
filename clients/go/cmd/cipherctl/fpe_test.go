package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFPE_cardNumbersThroughARotation runs keys create --mode ff1 and every fpe command against
// the real server: a file of card numbers encrypted, decrypted back, rewrapped to version 2 and masked.
func TestFPE_cardNumbersThroughARotation(t *testing.T) {
	needServer(t)
	out := cipherctl(t, "", 0, "keys", "create", "cli-cards", "--mode", "ff1", "--fpe-template", "card_number", "--fpe-accept-small-domain")
	if !strings.Contains(out, `"mode": "MODE_FF1"`) || !strings.Contains(out, `"template": "FPE_TEMPLATE_CARD_NUMBER"`) || !strings.Contains(out, `"acceptSmallDomain": true`) {
		t.Fatalf("keys create printed %s", out)
	}
	cards := "4111 1111 1111 1111\n5555-5555-5555-4444\n"
	encrypted := cipherctl(t, cards, 0, "fpe", "encrypt", "cli-cards", "--context", "payments.pan")
	lines := strings.Split(strings.TrimSuffix(encrypted, "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "1111\t1") || !strings.HasPrefix(lines[1], "5555-55") || strings.Contains(encrypted, "4111 1111 1111 1111") {
		t.Fatalf("fpe encrypt printed %q", encrypted)
	}
	if got := cipherctl(t, encrypted, 0, "fpe", "decrypt", "cli-cards", "--context", "payments.pan"); got != "4111 1111 1111 1111\t1\n5555-5555-5555-4444\t1\n" {
		t.Errorf("fpe decrypt printed %q", got)
	}
	if got := cipherctl(t, encrypted, 0, "fpe", "mask", "cli-cards", "--context", "payments.pan"); got != "•••• •••• •••• 1111\t1\n••••-••••-••••-4444\t1\n" {
		t.Errorf("fpe mask printed %q", got)
	}
	first, _, _ := strings.Cut(lines[0], "\t")
	if _, stderr := cipherctlErr(t, "", 2, "fpe", "decrypt", "cli-cards", "--key-version", "0", first); !strings.Contains(stderr, "key_version") {
		t.Errorf("decrypt with version 0 on a key without a prefix: %s", stderr)
	}
	cipherctl(t, "", 0, "keys", "rotate", "cli-cards")
	cmd := exec.Command(binary, "fpe", "rewrap", "cli-cards", "--context", "payments.pan")
	cmd.Env, cmd.Stdin = append(os.Environ(), "CIPHERD_ADDR="+server.Addr), strings.NewReader(encrypted)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("fpe rewrap: %v\n%s", err, stderr.String())
	}
	moved := stdout.String()
	if movedLines := strings.Split(strings.TrimSuffix(moved, "\n"), "\n"); len(movedLines) != 2 || !strings.HasSuffix(movedLines[0], "\t2") || movedLines[0] == lines[0] {
		t.Fatalf("fpe rewrap printed %q", moved)
	}
	if got := cipherctl(t, moved, 0, "fpe", "decrypt", "cli-cards", "--context", "payments.pan"); got != "4111 1111 1111 1111\t2\n5555-5555-5555-4444\t2\n" {
		t.Errorf("fpe decrypt of the rewrapped lines printed %q", got)
	}
	// The resumable form writes the same lines (FF1 is deterministic) and a summary by version.
	dir := t.TempDir()
	in, out := filepath.Join(dir, "cards.enc"), filepath.Join(dir, "cards.v2")
	if err := os.WriteFile(in, []byte(encrypted), 0o600); err != nil {
		t.Fatal(err)
	}
	summary := cipherctl(t, "", 0, "fpe", "rewrap", "cli-cards", "--context", "payments.pan", "--in", in, "--out", out)
	if !strings.Contains(summary, "rewrapped: 2\n") || !strings.Contains(summary, "from version 1: 2\n") {
		t.Errorf("fpe rewrap --out printed %q", summary)
	}
	if data, err := os.ReadFile(out); err != nil || string(data) != moved {
		t.Errorf("fpe rewrap --out wrote %q (%v), want what it printed to stdout, %q", data, err, moved)
	}
	if _, err := os.Stat(out + ".checkpoint"); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is left after the run finished: %v", err)
	}
}
