package main_test

import (
	"context"
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

// contextRow is a line of a column encrypted with a context per row.
type contextRow struct {
	ID    json.Number `json:"id"`
	Tag   string      `json:"tag"`
	Email string      `json:"email"`
}

// writeContextColumn encrypts n emails under key, each bound to contextOf(id), as JSONL lines
// {"id": N, "tag": "t-N", "email": CIPHERTEXT}; it returns the file and the plaintexts.
func writeContextColumn(t *testing.T, key string, n int, contextOf func(id int) []byte) (string, []string) {
	t.Helper()
	c := client(t)
	var lines, plaintexts []string
	for id := 1; id <= n; id++ {
		email := fmt.Sprintf("user%d@example.com", id)
		ct, err := c.Encrypt(context.Background(), key, []byte(email), cipherd.WithAAD(contextOf(id)))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf(`{"id": %d, "tag": "t-%d", "email": %q}`, id, id, ct))
		plaintexts = append(plaintexts, email)
	}
	in := filepath.Join(t.TempDir(), "users.jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return in, plaintexts
}

// checkContextRows checks every output row is under key/vN and decrypts to its plaintext with its
// own context, and not without it.
func checkContextRows(t *testing.T, out, prefix string, plaintexts []string, contextOf func(id int) []byte) {
	t.Helper()
	c := client(t)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != len(plaintexts) {
		t.Fatalf("%d output lines, want %d", len(lines), len(plaintexts))
	}
	for i, line := range lines {
		var row contextRow
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !strings.HasPrefix(row.Email, prefix) {
			t.Fatalf("line %d not rewrapped to %s: %q", i+1, prefix, row.Email)
		}
		pt, err := c.Decrypt(context.Background(), row.Email, cipherd.WithAAD(contextOf(i+1)))
		if err != nil || string(pt) != plaintexts[i] {
			t.Fatalf("line %d decrypts with its context to %q, %v; want %q", i+1, pt, err, plaintexts[i])
		}
		if _, err := c.Decrypt(context.Background(), row.Email); err == nil {
			t.Fatalf("line %d decrypts without its context: the rewrap dropped it", i+1)
		}
	}
}

func rowContext(id int) []byte { return []byte(fmt.Sprintf("users.email/%d", id)) }

// TestRewrapContext_templatePerRow rewraps a column bound to "users.email/{id}" after a rotation:
// without a context every record fails and the summary says to pass one; with the template every
// record is rewrapped and keeps its row's context.
func TestRewrapContext_templatePerRow(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-ctx-rows")
	in, plaintexts := writeContextColumn(t, "cli-ctx-rows", 5, rowContext)
	cipherctl(t, "", 0, "keys", "rotate", "cli-ctx-rows")
	dir := t.TempDir()

	without := filepath.Join(dir, "without.jsonl")
	summary := cipherctl(t, "", 2, "rewrap", "--in", in, "--out", without, "--field", "email")
	for _, want := range []string{"failed: 5", "decryption_failed: 5",
		"every record failed to decrypt: if the data was encrypted with a context, pass the same one (--context, --context-field or --context-hex)"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary without a context lacks %q:\n%s", want, summary)
		}
	}

	out := filepath.Join(dir, "out.jsonl")
	summary = cipherctl(t, "", 0, "rewrap", "--in", in, "--out", out, "--field", "email", "--context", "users.email/{id}")
	if !strings.Contains(summary, "records: 5\nrewrapped: 5\nalready current: 0\nfailed: 0") || strings.Contains(summary, "every record") {
		t.Fatalf("summary with the template:\n%s", summary)
	}
	checkContextRows(t, out, "<cli-ctx-rows/v2:", plaintexts, rowContext)

	// A wrong template fails every record too, and the hint names the template given.
	wrong := filepath.Join(dir, "wrong.jsonl")
	summary = cipherctl(t, "", 2, "rewrap", "--in", in, "--out", wrong, "--field", "email", "--context", "users.email/{tag}")
	if !strings.Contains(summary, `every record failed to decrypt: check that --context "users.email/{tag}" gives exactly the context`) {
		t.Fatalf("summary with a wrong template:\n%s", summary)
	}
}

// TestRewrapContext_fieldCSVAndMissingField takes each row's context from a CSV column; a row
// without the column fails alone, with a message naming the field, and the rest are rewrapped.
func TestRewrapContext_fieldCSVAndMissingField(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-ctx-csv")
	c := client(t)
	var csv strings.Builder
	csv.WriteString("id,ctx,ct\n")
	for id := 1; id <= 3; id++ {
		ct, err := c.Encrypt(context.Background(), "cli-ctx-csv", []byte(fmt.Sprint("v", id)), cipherd.WithAAD([]byte(fmt.Sprint("row-", id))))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&csv, "%d,row-%d,%s\n", id, id, ct)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv")
	if err := os.WriteFile(in, []byte(csv.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cipherctl(t, "", 0, "keys", "rotate", "cli-ctx-csv")
	summary := cipherctl(t, "", 0, "rewrap", "--in", in, "--out", out, "--field", "ct", "--context-field", "ctx")
	if !strings.Contains(summary, "rewrapped: 3") {
		t.Fatalf("summary:\n%s", summary)
	}
	data, _ := os.ReadFile(out)
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		ct := strings.SplitN(line, ",", 3)[2]
		if pt := cipherctl(t, ct, 0, "decrypt", "--context", fmt.Sprint("row-", i+1)); pt != fmt.Sprint("v", i+1) || !strings.HasPrefix(ct, "<cli-ctx-csv/v2:") {
			t.Fatalf("row %d: %q decrypts to %q", i+1, ct, pt)
		}
	}

	// JSONL: the template's field is missing from one record.
	jin, plaintexts := writeContextColumn(t, "cli-ctx-csv", 2, rowContext)
	raw, _ := os.ReadFile(jin)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	lines = append(lines, strings.Replace(lines[0], `"id": 1, `, "", 1))
	os.WriteFile(jin, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	cipherctl(t, "", 0, "keys", "rotate", "cli-ctx-csv")
	jout := filepath.Join(dir, "out.jsonl")
	summary = cipherctl(t, "", 2, "rewrap", "--in", jin, "--out", jout, "--field", "email", "--context", "users.email/{id}")
	if !strings.Contains(summary, "rewrapped: 2") || !strings.Contains(summary, "context_field_missing: 1") || strings.Contains(summary, "every record") {
		t.Fatalf("summary with a record lacking the context's field:\n%s", summary)
	}
	failures, _ := os.ReadFile(jout + ".failures.jsonl")
	if !strings.Contains(string(failures), `"record":3,"line":3,"kind":"context_field_missing","message":"context field missing: the record has no field \"id\" for the context`) {
		t.Fatalf("failures file: %s", failures)
	}
	got, _ := os.ReadFile(jout)
	gotLines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if gotLines[2] != lines[2] {
		t.Fatalf("the failed record changed: %s", gotLines[2])
	}
	os.WriteFile(jout, []byte(strings.Join(gotLines[:2], "\n")+"\n"), 0o600)
	checkContextRows(t, jout, "<cli-ctx-csv/v3:", plaintexts, rowContext)
}

// TestRewrapContext_resumeWithAnotherContextIsRefused SIGKILLs a rewrap of 20k records bound to
// "users.email/{id}" after its checkpoint shows progress: a resume with another context, or none,
// is refused with both named; with the same it finishes, and every row keeps its context.
func TestRewrapContext_resumeWithAnotherContextIsRefused(t *testing.T) {
	needServer(t)
	const n = 20_000
	c := client(t)
	ctx := context.Background()
	cipherctl(t, "", 0, "keys", "create", "cli-ctx-resume")
	items := make([]cipherd.PlaintextItem, n)
	for i := range items {
		items[i] = cipherd.PlaintextItem{Reference: fmt.Sprint(i + 1), Plaintext: []byte(fmt.Sprint("secret-", i+1)), AAD: rowContext(i + 1)}
	}
	results, err := c.EncryptBatch(ctx, "cli-ctx-resume", items)
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i, r := range results {
		fmt.Fprintf(&lines, `{"id": %d, "email": %q}`+"\n", i+1, r.Ciphertext)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(in, []byte(lines.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cipherctl(t, "", 0, "keys", "rotate", "cli-ctx-resume")
	args := []string{"rewrap", "--in", in, "--out", out, "--field", "email", "--checkpoint-every", "200"}

	first := exec.Command(binary, append(args, "--context", "users.email/{id}")...)
	first.Env = append(os.Environ(), "CIPHERD_ADDR="+server.Addr)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	if done := killAfterProgress(t, out+".checkpoint", first, 1000); done == 0 || done >= n {
		t.Fatalf("could not kill the rewrap half-way: checkpoint at %d of %d records", done, n)
	}
	_, stderr := cipherctlErr(t, "", 1, append(args, "--context", "users.email/{ID}")...)
	if !strings.Contains(stderr, `was made with --context "users.email/{id}", this run has --context "users.email/{ID}"`) {
		t.Fatalf("resume with another template: %s", stderr)
	}
	_, stderr = cipherctlErr(t, "", 1, append(args, "--context-field", "id")...)
	if !strings.Contains(stderr, `this run has --context-field "id"`) {
		t.Fatalf("resume with --context-field: %s", stderr)
	}
	_, stderr = cipherctlErr(t, "", 1, args...)
	if !strings.Contains(stderr, `this run has no context`) {
		t.Fatalf("resume without a context: %s", stderr)
	}
	summary := cipherctl(t, "", 0, append(args, "--context", "users.email/{id}")...)
	if !strings.Contains(summary, fmt.Sprintf("records: %d\nrewrapped: %d\n", n, n)) {
		t.Fatalf("summary of the resumed run:\n%s", summary)
	}
	data, _ := os.ReadFile(out)
	var decrypts []cipherd.CiphertextItem
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row contextRow
		if err := json.Unmarshal([]byte(line), &row); err != nil || row.ID.String() != fmt.Sprint(i+1) || !strings.HasPrefix(row.Email, "<cli-ctx-resume/v2:") {
			t.Fatalf("line %d: %s (%v)", i+1, line, err)
		}
		decrypts = append(decrypts, cipherd.CiphertextItem{Reference: row.ID.String(), Ciphertext: row.Email, AAD: rowContext(i + 1)})
	}
	plain, err := c.DecryptBatch(ctx, decrypts)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range plain {
		if r.Err != nil || string(r.Plaintext) != fmt.Sprint("secret-", i+1) {
			t.Fatalf("line %d decrypts with its context to %q, %v", i+1, r.Plaintext, r.Err)
		}
	}
}

// TestRewrapContext_hexAndLegacy rewraps MySQL ciphertexts into a gcm key bound to a binary
// context: the server binds the context to the new ciphertexts of a legacy rewrap.
func TestRewrapContext_hexAndLegacy(t *testing.T) {
	needServer(t)
	importMySQL(t, "cli-ctx-mysql")
	cipherctl(t, "", 0, "keys", "create", "cli-ctx-from-mysql")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	os.WriteFile(in, []byte(`{"id": 1, "email_enc": "`+mysqlaes.KnownAnswerHex+`"}`+"\n"), 0o600)
	binaryContext := []byte{0x00, 0xff, 0x10, 'c'}
	summary := cipherctl(t, "", 0, "rewrap", "--in", in, "--out", out, "--field", "email_enc", "--legacy-key", "cli-ctx-mysql",
		"--to", "cli-ctx-from-mysql", "--context-hex", hex.EncodeToString(binaryContext))
	if !strings.Contains(summary, "rewrapped: 1") {
		t.Fatalf("summary:\n%s", summary)
	}
	rows := readRows(t, out)
	c := client(t)
	if pt, err := c.Decrypt(context.Background(), rows[0].EmailEnc, cipherd.WithAAD(binaryContext)); err != nil || string(pt) != mysqlaes.KnownPlaintext {
		t.Fatalf("decrypt with the context: %q, %v", pt, err)
	}
	if _, err := c.Decrypt(context.Background(), rows[0].EmailEnc); err == nil {
		t.Fatal("the legacy rewrap's ciphertext decrypts without the context")
	}
	// The flags are alternatives, and hex must be hex.
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out+"2", "--field", "email_enc", "--context", "a", "--context-field", "id")
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out+"2", "--field", "email_enc", "--context-hex", "zz")
	cipherctl(t, "", 1, "rewrap", "--in", in, "--out", out+"2", "--field", "email_enc", "--context", "users/{id")
}
