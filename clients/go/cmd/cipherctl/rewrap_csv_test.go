package main_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func TestRewrap_csvColumn_countsAlreadyCurrentAndKeepsOtherColumns(t *testing.T) {
	needServer(t)
	c, ctx := client(t), context.Background()
	if _, err := c.CreateKey(ctx, "rewrap-csv"); err != nil {
		t.Fatal(err)
	}
	old, err := c.Encrypt(ctx, "rewrap-csv", []byte("old"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, "rewrap-csv"); err != nil {
		t.Fatal(err)
	}
	current, err := c.Encrypt(ctx, "rewrap-csv", []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv")
	input := "name,secret\n\"Doe, Jane\"," + old + "\nRoe," + current + "\nGone,<missing/v1:gcm>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	summary := cipherctl(t, "", 2, "rewrap", "--in", in, "--out", out, "--field", "secret")
	for _, want := range []string{"records: 3", "rewrapped: 1", "already current: 1", "failed: 1", "not_found: 1"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 4 || rows[0][1] != "secret" || rows[1][0] != "Doe, Jane" || rows[2][1] != current {
		t.Fatalf("output rows %q, %v", rows, err)
	}
	if p, err := cipherd.ParseCiphertext(rows[1][1]); err != nil || p.KeyVersion != 2 {
		t.Fatalf("first row not rewrapped: %v", err)
	}
	// A second run refuses to overwrite the finished output without --force.
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out, "--field", "secret")
}
