package main_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// TestSubjectsErase_againstTheServer erases two of three subjects listed in a file with the real
// server, and checks their data no longer decrypts while the third's does.
func TestSubjectsErase_againstTheServer(t *testing.T) {
	needServer(t)
	c, ctx := client(t), context.Background()
	key := "subjects-ctl"
	if _, err := c.CreateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	sealed := map[string]string{}
	for _, id := range []string{"user-1", "user-2", "user-3"} {
		ct, err := c.Encrypt(ctx, key, []byte("notes of "+id), cipherd.WithSubject(id))
		if err != nil {
			t.Fatal(err)
		}
		sealed[id] = ct
	}
	dir := t.TempDir()
	ids := filepath.Join(dir, "ids.txt")
	if err := os.WriteFile(ids, []byte("user-1\nuser-2\nuser-never\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr := cipherctlErr(t, "", 0, "subjects", "erase", key, "--from-file", ids)
	if strings.Count(stdout, `"outcome":"erased"`) != 2 || strings.Count(stdout, `"outcome":"no_key"`) != 1 || strings.Contains(stdout, "user-") {
		t.Errorf("receipts:\n%s", stdout)
	}
	if !strings.Contains(stderr, "erased: 2\n") || !strings.Contains(stderr, "no key: 1\n") {
		t.Errorf("summary:\n%s", stderr)
	}
	for id, ct := range sealed {
		_, err := c.Decrypt(ctx, ct)
		if erased := id != "user-3"; erased != errors.Is(err, cipherd.ErrSubjectErased) || !erased && err != nil {
			t.Errorf("%s after the erase: %v", id, err)
		}
	}
	if out := cipherctl(t, "user-1\n", 0, "subjects", "show", key, "-"); !strings.HasPrefix(out, "state: erased\n") {
		t.Errorf("show: %s", out)
	}
	// The census counts the live subject keys v1 wraps: user-3's, the erased two no longer.
	out := cipherctl(t, "", 0, "keys", "census", key)
	if rows := censusRows(t, out); len(rows) != 1 || rows[0][0] != "v1" || rows[0][len(rows[0])-1] != "1" {
		t.Errorf("keys census after erasing two of three subjects:\n%s", out)
	}
}
