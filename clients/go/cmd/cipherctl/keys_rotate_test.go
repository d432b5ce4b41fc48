package main_test

import (
	"strings"
	"testing"
)

// rotatedRows are the version rows keys rotate prints, in columns, after checking the lines
// around them; a LAST USED date is replaced by "used". A version's STATE ends each row.
func rotatedRows(t *testing.T, out, first, last string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 4 || lines[0] != first || lines[len(lines)-1] != last ||
		strings.Join(strings.Fields(lines[1]), " ") != "VERSION MODE ENCRYPTIONS DECRYPTIONS REWRAPS INDEXES LAST USED STATE" {
		t.Fatalf("keys rotate printed:\n%s\nwant first line %q and last line %q", out, first, last)
	}
	var rows []string
	for _, line := range lines[2 : len(lines)-1] {
		fields := strings.Fields(line)
		if n := len(fields); n == 8 && strings.HasPrefix(fields[n-2], "20") && strings.HasSuffix(fields[n-2], "Z") {
			fields[n-2] = "used"
		}
		rows = append(rows, strings.Join(fields, " "))
	}
	return rows
}

func TestKeysRotate_showsEveryVersionsUsage(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-rotate")
	ct := strings.TrimSpace(cipherctl(t, "secret", 0, "encrypt", "cli-rotate"))
	cipherctl(t, "", 0, "keys", "rotate", "cli-rotate", "--json")
	cipherctl(t, ct, 0, "decrypt")
	out := cipherctl(t, "", 0, "keys", "rotate", "cli-rotate", "--mode", "chacha")
	rows := rotatedRows(t, out, "rotated cli-rotate: v3 (chacha) is current",
		"older versions still decrypt: rewrap their ciphertexts (cipherctl rewrap), and see cipherctl keys census cli-rotate before raising --min-decryption-version")
	if want := []string{"v1 gcm 1 1 0 - used enabled", "v2 gcm 0 0 0 - never enabled", "v3 chacha 0 0 0 - never enabled"}; strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("keys rotate rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	// --json prints the key as keys show does, usage included.
	k := showKey(t, "keys", "rotate", "cli-rotate", "--json")
	if k.CurrentVersion != 4 || len(k.Versions) != 4 || k.Versions[0].Usage.Encryptions != 1 || k.Versions[0].Usage.Decryptions != 1 {
		t.Fatalf("keys rotate --json: %+v", k)
	}
	cipherctl(t, "", 1, "keys", "rotate", "no-such-key")
}

func TestKeysRotate_indexKey_showsIndexesComputed(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-rotate-idx", "--mode", "hmac")
	cipherctl(t, "a", 0, "index", "cli-rotate-idx")
	cipherctl(t, "b", 0, "index", "cli-rotate-idx")
	out := cipherctl(t, "", 0, "keys", "rotate", "cli-rotate-idx")
	rows := rotatedRows(t, out, "rotated cli-rotate-idx: v2 (hmac) is current",
		"new indexes use v2; look stored ones up with cipherctl index cli-rotate-idx --all-versions until they are re-indexed (ReIndexBatch, docs/searching.md), then retire the old versions")
	if want := []string{"v1 hmac - - - 2 used enabled", "v2 hmac - - - 0 never enabled"}; strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("keys rotate rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
