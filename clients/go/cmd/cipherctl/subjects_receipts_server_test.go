package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// TestSubjectsVerifyReceipt_theRealServersTrail erases a subject through a real server that writes
// an audit trail, checks the receipt file subjects erase wrote against that trail (its checkpoints'
// MACs checked by the server), then finds a tampered receipt and a tampered copy of the trail.
func TestSubjectsVerifyReceipt_theRealServersTrail(t *testing.T) {
	dir := t.TempDir()
	needServer(t)
	// One trail file (no rotation at 1 MiB): verify-receipt's own calls are audited too, and a rotation
	// between its listing and its reading would be another test's subject.
	srv, err := testserver.Start(testserver.Options{Args: []string{"--audit-log", filepath.Join(dir, "audit.log"),
		"--audit-checkpoint-interval", "PT0.05S", "--audit-rotate-size", "1048576"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	ctx := context.Background()
	c, err := cipherd.Dial(ctx, srv.Addr, cipherd.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const key = "receipted"
	if _, err := c.CreateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"user-a", "user-b"} {
		if _, err := c.Encrypt(ctx, key, []byte("notes of "+id), cipherd.WithSubject(id)); err != nil {
			t.Fatal(err)
		}
	}
	work := t.TempDir()
	ids, receipts := filepath.Join(work, "ids.txt"), filepath.Join(work, "receipts.jsonl")
	if err := os.WriteFile(ids, []byte("user-a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runAt(t, srv.Addr, "subjects", "erase", key, "--from-file", ids, "--receipts", receipts)
	if code != 0 || !strings.Contains(stdout, "erased: 1\n") {
		t.Fatalf("subjects erase: exit %d\n%s%s", code, stdout, stderr)
	}
	time.Sleep(300 * time.Millisecond) // a checkpoint after the erasure's record
	trail := filepath.Join(dir, "audit.log")

	code, stdout, stderr = runAt(t, srv.Addr, "subjects", "verify-receipt", "--receipts", receipts, trail)
	if code != 0 || !strings.Contains(stdout, "\nintact\n") || !strings.Contains(stdout, "receipts: 1, verified: 1, failed: 0\n") {
		t.Fatalf("verify-receipt of the server's own receipt: exit %d\n%s%s", code, stdout, stderr)
	}

	// The receipt with one digit of its record hash changed no longer names the erasure's record.
	data, err := os.ReadFile(receipts)
	if err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(work, "tampered.jsonl")
	if err := os.WriteFile(tampered, flipHexAfter(t, data, `"record_hash":"`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runAt(t, srv.Addr, "subjects", "verify-receipt", "--receipts", tampered, trail)
	if code != 1 || !strings.Contains(stdout, "receipt on line 1 (audit seq ") || !strings.Contains(stdout, "record_hash differs") ||
		!strings.Contains(stdout, "receipts: 1, verified: 0, failed: 1\n") {
		t.Fatalf("verify-receipt of a tampered receipt: exit %d\n%s%s", code, stdout, stderr)
	}

	// A copy of the trail whose erasure record names another subject hash breaks the chain there.
	var receipt struct {
		Receipt cipherd.ErasureReceipt `json:"receipt"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(data), &receipt); err != nil || receipt.Receipt.SubjectHash == "" {
		t.Fatalf("receipts file %s: %v", data, err)
	}
	subjectHash := strings.TrimPrefix(receipt.Receipt.SubjectHash, "hmac-sha256:")
	copyDir := t.TempDir()
	var edited bool
	for _, f := range mustGlob(t, trail+"*") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !edited && bytes.Contains(data, []byte(subjectHash)) {
			data, edited = flipHexAfter(t, data, subjectHash[:len(subjectHash)-1]), true
		}
		if err := os.WriteFile(filepath.Join(copyDir, filepath.Base(f)), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !edited {
		t.Fatalf("no record of %s names the receipt's subject hash", trail)
	}
	code, stdout, stderr = runAt(t, srv.Addr, "subjects", "verify-receipt", "--offline", "--receipts", receipts, filepath.Join(copyDir, "audit.log"))
	if code != 1 || !strings.Contains(stderr, "NOT intact: ") || !strings.Contains(stderr, " altered") {
		t.Fatalf("verify-receipt against an edited trail: exit %d\n%s%s", code, stdout, stderr)
	}
}

// flipHexAfter changes the hex digit right after the first marker in data (0 becomes 1, any other
// 0), in a copy.
func flipHexAfter(t *testing.T, data []byte, marker string) []byte {
	t.Helper()
	i := bytes.Index(data, []byte(marker))
	if i < 0 {
		t.Fatalf("no %s in %s", marker, data)
	}
	out := bytes.Clone(data)
	at := i + len(marker)
	if out[at] == '0' {
		out[at] = '1'
	} else {
		out[at] = '0'
	}
	return out
}
