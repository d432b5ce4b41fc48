package main_test

import (
	"bytes"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFiles_encryptDecryptRewrapEndToEnd(t *testing.T) {
	needServer(t)
	dir := t.TempDir()
	plain, enc, dec := filepath.Join(dir, "report.pdf"), filepath.Join(dir, "report.pdf.cdf"), filepath.Join(dir, "report.out")
	plaintext := make([]byte, 2<<20+5)
	rand.Read(plaintext)
	if err := os.WriteFile(plain, plaintext, 0o600); err != nil {
		t.Fatal(err)
	}
	cipherctl(t, "", 0, "keys", "create", "cli-files")
	wrapped := fields(cipherctl(t, "", 0, "encrypt-file", "cli-files", "--in", plain, "--out", enc, "--context", "q3", "--chunk-size", "4096"))
	if wrapped["key"] != "cli-files" || wrapped["version"] != "1" || wrapped["mode"] != "gcm" {
		t.Fatalf("encrypt-file printed %v", wrapped)
	}
	if info, err := os.Stat(enc); err != nil || info.Size() < int64(len(plaintext)) || bytes.Contains(mustRead(t, enc), plaintext[:64]) {
		t.Fatalf("encrypted file: %v", err)
	}
	cipherctl(t, "", 0, "decrypt-file", "--in", enc, "--out", dec, "--context", "q3")
	if !bytes.Equal(mustRead(t, dec), plaintext) {
		t.Fatal("decrypt-file wrote something else")
	}
	cipherctl(t, "", 1, "decrypt-file", "--in", enc, "--out", dec+".2", "--context", "q4") // decryption failed
	cipherctl(t, "", 0, "keys", "rotate", "cli-files")
	if out := fields(cipherctl(t, "", 0, "rewrap-file", enc, "--context", "q3")); out["version"] != "2" {
		t.Fatalf("rewrap-file printed %v", out)
	}
	if out := fields(cipherctl(t, "", 0, "decrypt-file", "--in", enc, "--out", dec, "--context", "q3")); out["version"] != "2" {
		t.Fatalf("decrypt-file after rewrap-file printed %v", out)
	}
	if !bytes.Equal(mustRead(t, dec), plaintext) {
		t.Fatal("decrypt-file after rewrap-file wrote something else")
	}
	raw := mustRead(t, enc)
	os.WriteFile(enc, raw[:len(raw)-(5+16)], 0o600) // drop the last chunk: 5 bytes and a tag
	out, stderr := cipherctlErr(t, "", 1, "decrypt-file", "--in", enc, "--out", dec+".3", "--context", "q3")
	if out != "" || !strings.Contains(stderr, "chunk 511: file ends after a chunk not sealed as the last") {
		t.Fatalf("decrypt-file of a cut file: stdout %q, stderr %q", out, stderr)
	}
	for _, name := range []string{"report.out.2", "report.out.3"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("a failed decrypt-file left %s", name)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("folder holds %d entries, want report.pdf, .cdf and .out (no temporary files)", len(entries))
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
