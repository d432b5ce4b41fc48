package main_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// auditedServer starts a server of its own writing its audit trail into dir/audit.log, with a
// checkpoint every 50ms and a rotation every 4 KiB, so a few calls make several files.
func auditedServer(t *testing.T, dir string) *testserver.Server {
	t.Helper()
	needServer(t)
	srv, err := testserver.Start(testserver.Options{Args: []string{"--audit-log", filepath.Join(dir, "audit.log"),
		"--audit-checkpoint-interval", "PT0.05S", "--audit-rotate-size", "4096"}})
	if err != nil && strings.Contains(err.Error(), "--audit-log") {
		t.Skip("the server does not implement --audit-log and AuditService yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// TestAuditVerify_theRealServersTrail verifies the trail a real server writes, its checkpoints
// checked by that server, then finds a record edited in a copy.
func TestAuditVerify_theRealServersTrail(t *testing.T) {
	dir := t.TempDir()
	srv := auditedServer(t, dir)
	ctx := context.Background()
	c, err := cipherd.Dial(ctx, srv.Addr, cipherd.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CreateKey(ctx, "audited"); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if _, err := c.Encrypt(ctx, "audited", []byte("secret-"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond) // a checkpoint after the last call

	// The server keeps checkpointing and rotating every 50ms while the trail is listed and read: a
	// rotation in between shows as a gap, so a trail that does not verify is read again (at most 5 times).
	var code int
	var stdout, stderr string
	for range 5 {
		code, stdout, stderr = runAt(t, srv.Addr, "audit", "verify", filepath.Join(dir, "audit.log"))
		if code == 0 && strings.Contains(stdout, "\nintact\n") {
			break
		}
	}
	if code != 0 || !strings.Contains(stdout, "\nintact\n") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	m := regexp.MustCompile(`checkpoint MACs: (\d+) checked by the server\ncompleteness: checked against the server's head of trail "[^"]+/audit.log" \(seqs 0 to \d+, files listed: (\d+)\)\nfiles: (\d+), call records: (\d+)`).FindStringSubmatch(stdout)
	if m == nil || m[1] == "0" || m[3] == "1" || m[2] != m[3] {
		t.Fatalf("want checkpoints checked by the server across rotated files, each listed by its head:\n%s", stdout)
	}
	if calls, _ := strconv.Atoi(m[4]); calls < 41 {
		t.Fatalf("%d call records, want at least CreateKey and 40 Encrypts:\n%s", calls, stdout)
	}
	for _, f := range mustGlob(t, filepath.Join(dir, "audit.log*")) {
		if data, _ := os.ReadFile(f); bytes.Contains(data, []byte("secret-")) {
			t.Fatalf("%s holds a plaintext", f)
		}
	}

	// The same trail, copied, with one count of the oldest rotated file's third line changed.
	copyDir, files := copyIntactTrail(t, srv.Addr, dir)
	oldest := filepath.Join(copyDir, filepath.Base(files[1])) // files[0] is the live audit.log
	data, _ := os.ReadFile(oldest)
	lines := bytes.SplitAfter(data, []byte("\n"))
	edited := regexp.MustCompile(`"seq":\d+`).ReplaceAllFunc(lines[2], func(b []byte) []byte { return append(b[:len(b):len(b)], ' ') })
	if bytes.Equal(edited, lines[2]) {
		t.Fatalf("line 3 of %s has no seq: %s", oldest, lines[2])
	}
	lines[2] = edited
	if err := os.WriteFile(oldest, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runAt(t, srv.Addr, "audit", "verify", "--offline", filepath.Join(copyDir, "audit.log"))
	want := regexp.MustCompile(`NOT intact: ` + regexp.QuoteMeta(filepath.Base(oldest)) + `:3: seq \d+ altered`)
	if code != 1 || !want.MatchString(stderr) {
		t.Fatalf("edited copy: exit %d, %s; want %s", code, stderr, want)
	}
}

// copyIntactTrail copies the trail in dir into a new directory, again (at most 5 times) while a
// rotation during the copy leaves a copy that does not verify offline, and returns the copy and the
// files copied.
func copyIntactTrail(t *testing.T, addr, dir string) (string, []string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		copyDir := t.TempDir()
		files := mustGlob(t, filepath.Join(dir, "audit.log*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(copyDir, filepath.Base(f)), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		code, stdout, stderr := runAt(t, addr, "audit", "verify", "--offline", filepath.Join(copyDir, "audit.log"))
		if code == 0 {
			return copyDir, files
		}
		if attempt == 5 {
			t.Fatalf("no copy of the trail verified in 5 attempts: exit %d\n%s%s", code, stdout, stderr)
		}
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s: %v", pattern, err)
	}
	return files
}
