package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

const rewrapLines = 100_000

type row struct {
	ID int    `json:"id"`
	CT string `json:"ct"`
}

// writeFixture encrypts rewrapLines plaintexts under version 1 of key, writes them as JSONL (two
// records broken on purpose) and rotates the key. Plaintexts stay in memory, never on disk.
func writeFixture(t *testing.T, c *cipherd.Client, key, path string) []string {
	t.Helper()
	ctx := context.Background()
	if _, err := c.CreateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	plaintexts := make([]string, rewrapLines)
	items := make([]cipherd.PlaintextItem, rewrapLines)
	for i := range items {
		plaintexts[i] = fmt.Sprintf("secret-%d", i)
		items[i] = cipherd.PlaintextItem{Reference: fmt.Sprint(i), Plaintext: []byte(plaintexts[i])}
	}
	results, err := c.EncryptBatch(ctx, key, items)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i, r := range results {
		switch i {
		case 10:
			fmt.Fprintf(w, `{"id": %d, "ct": "<broken"}`+"\n", i)
		case 20:
			fmt.Fprintf(w, `{"id": %d}`+"\n", i)
		default:
			fmt.Fprintf(w, `{"id": %d, "ct": %q, "note": "kept"}`+"\n", i, r.Ciphertext)
		}
	}
	if err := errorsJoin(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	return plaintexts
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// TestRewrap_killedHalfwayThenResumed_losesAndRepeatsNothing SIGKILLs a rewrap of 100k lines once
// its checkpoint shows progress, resumes it, and checks every output line against the plaintexts.
func TestRewrap_killedHalfwayThenResumed_losesAndRepeatsNothing(t *testing.T) {
	needServer(t)
	c := client(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	plaintexts := writeFixture(t, c, "rewrap-big", in)
	args := []string{"rewrap", "--in", in, "--out", out, "--field", "ct", "--checkpoint-every", "500"}

	first := exec.Command(binary, args...)
	first.Env = append(os.Environ(), "CIPHERD_ADDR="+server.Addr)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	done := killAfterProgress(t, out+".checkpoint", first, 20_000)
	if done == 0 || done >= rewrapLines {
		t.Fatalf("could not kill the rewrap half-way: checkpoint at %d of %d records", done, rewrapLines)
	}
	t.Logf("killed after a checkpoint at %d records", done)

	summary := cipherctl(t, "", 2, args...) // exit 2: two records failed
	for _, want := range []string{"records: 100000", "rewrapped: 99998", "failed: 2", "malformed_ciphertext: 1", "field_missing: 1"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if _, err := os.Stat(out + ".checkpoint"); !os.IsNotExist(err) {
		t.Errorf("checkpoint left after a complete run: %v", err)
	}
	// Each failed record once, though the run before the kill had listed them too.
	if failed, err := os.ReadFile(out + ".failures.jsonl"); err != nil || string(failed) !=
		`{"record":11,"line":11,"kind":"malformed_ciphertext","message":"invalid ciphertext: header has no closing '>'"}`+"\n"+
			`{"record":21,"line":21,"kind":"field_missing","message":"field missing or not a string"}`+"\n" {
		t.Errorf("failures file: %v\n%s", err, failed)
	}
	checkOutput(t, c, out, plaintexts)
}

// killAfterProgress waits until the checkpoint counts atLeast records, SIGKILLs the process and
// returns how many records the checkpoint counts.
func killAfterProgress(t *testing.T, checkpoint string, cmd *exec.Cmd, atLeast int64) int64 {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var cp struct{ Records int64 }
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(checkpoint); err == nil && json.Unmarshal(data, &cp) == nil && cp.Records >= atLeast {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	data, err := os.ReadFile(checkpoint)
	if err != nil {
		t.Fatalf("no checkpoint after the kill: %v", err)
	}
	if err := json.Unmarshal(data, &cp); err != nil {
		t.Fatal(err)
	}
	return cp.Records
}

// checkOutput reads the output line by line: one line per input line in order, every good record
// under version 2 and decrypting to its own plaintext, the broken ones unchanged.
func checkOutput(t *testing.T, c *cipherd.Client, path string, plaintexts []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "secret-") {
		t.Fatal("a plaintext reached the output file")
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != rewrapLines {
		t.Fatalf("%d output lines, want %d", len(lines), rewrapLines)
	}
	var items []cipherd.CiphertextItem
	for i, line := range lines {
		var r row
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.ID != i {
			t.Fatalf("line %d is %q (%v)", i, line, err)
		}
		switch i {
		case 10, 20:
			if !strings.Contains(line, `"ct": "<broken"`) && !(i == 20 && line == `{"id": 20}`) {
				t.Fatalf("failed line %d changed: %q", i, line)
			}
			continue
		}
		if p, err := cipherd.ParseCiphertext(r.CT); err != nil || p.KeyVersion != 2 || !strings.HasSuffix(line, `"note": "kept"}`) {
			t.Fatalf("line %d: version %d, %v: %q", i, p.KeyVersion, err, line)
		}
		items = append(items, cipherd.CiphertextItem{Reference: fmt.Sprint(i), Ciphertext: r.CT})
	}
	results, err := c.DecryptBatch(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		var i int
		fmt.Sscan(r.Reference, &i)
		if r.Err != nil || string(r.Plaintext) != plaintexts[i] {
			t.Fatalf("line %d does not decrypt to its plaintext: %v", i, r.Err)
		}
	}
}

// TestRewrap_toAnotherKey_movesEveryRecord rewraps v1 ciphertexts of one key into v1 of another:
// the same version number, but every record moves.
func TestRewrap_toAnotherKey_movesEveryRecord(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-move-from")
	cipherctl(t, "", 0, "keys", "create", "cli-move-to", "--mode", "chacha")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv")
	var csv strings.Builder
	csv.WriteString("id,ct\n")
	for i := range 3 {
		ct := strings.TrimSpace(cipherctl(t, fmt.Sprint("moved-", i), 0, "encrypt", "cli-move-from"))
		fmt.Fprintf(&csv, "%d,%s\n", i, ct)
	}
	if err := os.WriteFile(in, []byte(csv.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if summary := cipherctl(t, "", 0, "rewrap", "--in", in, "--out", out, "--field", "ct", "--to", "cli-move-to"); !strings.Contains(summary, "rewrapped: 3\nalready current: 0") {
		t.Fatalf("summary:\n%s", summary)
	}
	data, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, line := range lines[1:] {
		ct := strings.SplitN(line, ",", 2)[1]
		if !strings.HasPrefix(ct, "<cli-move-to/v1:chacha>") {
			t.Fatalf("row %d: %q", i, ct)
		}
		if pt := cipherctl(t, ct, 0, "decrypt"); pt != fmt.Sprint("moved-", i) {
			t.Fatalf("row %d decrypts to %q", i, pt)
		}
	}
}
