package main_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/mysqlaes"
)

// emailRow is a line of the exported MySQL column.
type emailRow struct {
	ID       int    `json:"id"`
	EmailEnc string `json:"email_enc"`
}

// importMySQL imports the known answer's passphrase from a file as legacy key name.
func importMySQL(t *testing.T, name string) {
	t.Helper()
	passphraseFile := filepath.Join(t.TempDir(), "mysql-passphrase")
	if err := os.WriteFile(passphraseFile, []byte(mysqlaes.KnownPassphrase+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := cipherctl(t, "", 0, "keys", "import", name, "--legacy-cipher", "mysql-aes-ecb", "--passphrase-file", passphraseFile)
	if !strings.Contains(out, `"legacyCipher": "LEGACY_CIPHER_MYSQL_AES_ECB"`) || strings.Contains(out, mysqlaes.KnownPassphrase) {
		t.Fatalf("keys import --legacy-cipher printed %s", out)
	}
}

// TestRewrapLegacy_mysqlKnownAnswer imports the passphrase of HEX(AES_ENCRYPT('HELLO','1234567890'))
// and rewraps a column holding it into a gcm key: the lines decrypt to HELLO; a row that is not
// hex and one of another passphrase are copied unchanged and counted.
func TestRewrapLegacy_mysqlKnownAnswer(t *testing.T) {
	needServer(t)
	importMySQL(t, "cli-mysql")
	cipherctl(t, "", 0, "keys", "create", "cli-users-email")
	other := strings.ToUpper(hex.EncodeToString(mysqlaes.Encrypt([]byte("x"), []byte("another"))))
	dir := t.TempDir()
	in, out := filepath.Join(dir, "users.jsonl"), filepath.Join(dir, "users-rewrapped.jsonl")
	lines := []string{
		`{"id": 1, "email_enc": "` + mysqlaes.KnownAnswerHex + `"}`,
		`{"id": 2, "email_enc": "` + strings.ToLower(mysqlaes.KnownAnswerHex) + `"}`,
		`{"id": 3, "email_enc": "not hex"}`,
		`{"id": 4, "email_enc": "` + other + `"}`,
		`{"id": 5}`,
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	summary := cipherctl(t, "", 2, "rewrap", "--in", in, "--out", out, "--field", "email_enc",
		"--legacy-key", "cli-mysql", "--legacy-encoding", "hex", "--to", "cli-users-email")
	for _, want := range []string{"records: 5", "rewrapped: 2", "failed: 3", "decryption_failed: 1", "invalid_argument: 1", "field_missing: 1"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	rows := readRows(t, out)
	for i, r := range rows[:2] {
		if !strings.HasPrefix(r.EmailEnc, "<cli-users-email/v1:gcm>") {
			t.Fatalf("row %d not rewrapped: %q", r.ID, r.EmailEnc)
		}
		if pt := cipherctl(t, r.EmailEnc, 0, "decrypt"); pt != mysqlaes.KnownPlaintext {
			t.Fatalf("row %d decrypts to %q, want HELLO", i+1, pt)
		}
	}
	data, _ := os.ReadFile(out)
	if got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"); strings.Join(got[2:], "\n") != strings.Join(lines[2:], "\n") {
		t.Fatalf("failed rows changed:\n%s", strings.Join(got[2:], "\n"))
	}
	if row := listRow(t, "cli-mysql"); row[2] != "legacy:mysql-aes-ecb" {
		t.Fatalf("keys list row of the legacy key: %q", row)
	}
	// Legacy input needs a target, and the flags go together.
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out+"2", "--field", "email_enc", "--legacy-key", "cli-mysql")
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out+"2", "--field", "email_enc", "--legacy-encoding", "hex")
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out+"2", "--field", "email_enc", "--legacy-key", "cli-mysql", "--to", "cli-users-email", "--legacy-encoding", "octal")
}

func readRows(t *testing.T, path string) []emailRow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []emailRow
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r emailRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestRewrapLegacy_killedHalfwayThenResumed rewraps 60k MySQL ciphertexts (base64 this time),
// SIGKILLs the run once its checkpoint shows progress, resumes it, and checks every row decrypts to
// its own plaintext; a resume with other flags is refused.
func TestRewrapLegacy_killedHalfwayThenResumed(t *testing.T) {
	needServer(t)
	const n = 60_000
	importMySQL(t, "cli-mysql-big")
	cipherctl(t, "", 0, "keys", "create", "cli-big-target", "--mode", "xgcm")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		ct := mysqlaes.Encrypt(fmt.Appendf(nil, "user%d@example.com", i), []byte(mysqlaes.KnownPassphrase))
		b, _ := json.Marshal(emailRow{ID: i, EmailEnc: base64.StdEncoding.EncodeToString(ct)})
		w.Write(append(b, '\n'))
	}
	if err := errorsJoin(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	args := []string{"rewrap", "--in", in, "--out", out, "--field", "email_enc", "--legacy-key", "cli-mysql-big",
		"--legacy-encoding", "base64", "--to", "cli-big-target", "--checkpoint-every", "500"}
	first := exec.Command(binary, args...)
	first.Env = append(os.Environ(), "CIPHERD_ADDR="+server.Addr)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	done := killAfterProgress(t, out+".checkpoint", first, 10_000)
	if done == 0 || done >= n {
		t.Fatalf("could not kill the rewrap half-way: checkpoint at %d of %d records", done, n)
	}
	t.Logf("killed after a checkpoint at %d records", done)
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out, "--field", "email_enc", "--legacy-key", "cli-mysql-big",
		"--legacy-encoding", "hex", "--to", "cli-big-target") // not how the checkpoint was made
	summary := cipherctl(t, "", 0, args...)
	if !strings.Contains(summary, fmt.Sprintf("records: %d\nrewrapped: %d\n", n, n)) {
		t.Fatalf("summary:\n%s", summary)
	}
	rows := readRows(t, out)
	if len(rows) != n {
		t.Fatalf("%d output rows, want %d", len(rows), n)
	}
	items := make([]cipherd.CiphertextItem, n)
	for i, r := range rows {
		if r.ID != i {
			t.Fatalf("output row %d has id %d", i, r.ID)
		}
		items[i] = cipherd.CiphertextItem{Reference: fmt.Sprint(i), Ciphertext: r.EmailEnc}
	}
	results, err := client(t).DecryptBatch(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.Err != nil || string(r.Plaintext) != fmt.Sprintf("user%d@example.com", i) {
			t.Fatalf("row %d does not decrypt to its plaintext: %v", i, r.Err)
		}
	}
}
