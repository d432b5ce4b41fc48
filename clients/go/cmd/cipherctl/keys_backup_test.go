package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// TestKeysBackupRestore_movesAKeyToAnotherServerWhereOldDataDecrypts is the real round trip: an
// exportable key encrypts, is rotated and its first version destroyed, is backed up for an openssl
// recipient, and is restored into a second server (its own data dir), where the data decrypts and
// the versions keep their numbers and states; a second restore is refused, never overwriting.
func TestKeysBackupRestore_movesAKeyToAnotherServerWhereOldDataDecrypts(t *testing.T) {
	needServer(t)
	dir := t.TempDir()
	private, public := recipientKeys(t, dir, "recipient")
	file := filepath.Join(dir, "cli-backup.backup")

	cipherctl(t, "", 0, "keys", "create", "cli-backup")
	if _, stderr := cipherctlErr(t, "", 1, "keys", "backup", "cli-backup", "--to", file, "--recipient", public); !strings.Contains(stderr, "not exportable") {
		t.Errorf("backup of a key not exportable said: %s", stderr)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a refused backup wrote a file")
	}
	cipherctl(t, "", 0, "keys", "set-exportable", "cli-backup")
	v1 := strings.TrimSpace(cipherctl(t, "first", 0, "encrypt", "cli-backup"))
	cipherctl(t, "", 0, "keys", "rotate", "cli-backup")
	v2 := strings.TrimSpace(cipherctl(t, "second", 0, "encrypt", "cli-backup"))
	cipherctl(t, "", 0, "keys", "rotate", "cli-backup")
	cipherctl(t, "", 0, "keys", "destroy", "cli-backup", "--versions", "1")
	cipherctl(t, "", 0, "keys", "backup", "cli-backup", "--to", file, "--recipient", public)

	second, err := testserver.Start(testserver.Options{WrappedImportOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	out := cipherctl(t, "", 0, "keys", "restore", "--from", file, "--identity", private, "--into-address", second.Addr)
	lines := strings.Split(out, "\n")
	if lines[0] != "restored cli-backup: 3 versions, v3 current, key enabled, exportable" ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[2]), " "), "v1 gcm destruction_scheduled 20") ||
		strings.Join(strings.Fields(lines[3]), " ") != "v2 gcm enabled -" {
		t.Errorf("keys restore printed:\n%s", out)
	}
	if code, pt, stderr := cipherctlAt(t, second.Addr, v2, "decrypt"); code != 0 || strings.TrimSpace(pt) != "second" {
		t.Errorf("v2's ciphertext decrypts there to %q (exit %d, %s)", pt, code, stderr)
	}
	if code, _, stderr := cipherctlAt(t, second.Addr, v1, "decrypt"); code != 1 || !strings.Contains(stderr, "destruction") {
		t.Errorf("v1, scheduled for destruction, decrypting there: exit %d, %s", code, stderr)
	}
	if _, stderr := cipherctlErr(t, "", 1, "keys", "restore", "--from", file, "--identity", private, "--into-address", second.Addr); !strings.Contains(stderr, "exists") {
		t.Errorf("a second restore said: %s", stderr)
	}
}
