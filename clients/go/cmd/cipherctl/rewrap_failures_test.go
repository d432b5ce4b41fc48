package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failedLine is a line of the failures file, as a reader of it sees it.
type failedLine struct {
	Record  int64  `json:"record"`
	Line    int64  `json:"line"`
	Kind    string `json:"kind"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// failingCSV is a CSV input whose records fail in every way a rewrap tells apart, one of them
// spanning two lines and a blank line before the last, so that record and line numbers differ.
type failingCSV struct {
	text        string
	ciphertexts []string // every ciphertext in it, none of which may reach the failures file
	// recordTwoEnd is the input offset just past record 2, which ends on line 4.
	recordTwoEnd int
	want         []failedLine
}

const failingPlaintext = "plaintext-7f3a"

func newFailingCSV(t *testing.T, key string) failingCSV {
	t.Helper()
	c, ctx := client(t), context.Background()
	if _, err := c.CreateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	good, err := c.Encrypt(ctx, key, []byte(failingPlaintext))
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.Encrypt(ctx, key, []byte(failingPlaintext))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	// One base64 character of the payload changed: still well-formed, no longer authentic.
	header := strings.IndexByte(other, '>') + 1
	i := header + (len(other)-header)/2
	flipped := byte('A')
	if other[i] == 'A' {
		flipped = 'B'
	}
	tampered := other[:i] + string(flipped) + other[i+1:]
	missing := "<no-such-key-" + key + "/v1:gcm>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	head := "name,secret\n" + // line 1
		"\"Doe,\nJane\"," + good + "\n" + // record 1, lines 2-3: rewrapped
		"Roe," + tampered + "\n" // record 2, line 4
	return failingCSV{
		text: head +
			"Gone," + missing + "\n" + // record 3, line 5
			"Broken,<broken\n" + // record 4, line 6: fails here, never sent
			"\n" + // line 7: blank, not a record
			"Short\n", // record 5, line 8: no secret column
		ciphertexts:  []string{good, other, tampered, missing},
		recordTwoEnd: len(head),
		want: []failedLine{
			{Record: 2, Line: 4, Kind: "decryption_failed", Reason: "DECRYPTION_FAILED", Message: "decryption failed"},
			{Record: 3, Line: 5, Kind: "not_found", Reason: "KEY_NOT_FOUND"},
			{Record: 4, Line: 6, Kind: "malformed_ciphertext"},
			{Record: 5, Line: 8, Kind: "field_missing"},
		},
	}
}

// readFailures reads a failures file and checks what is true of every line of it: a message, and
// neither a ciphertext nor the plaintext anywhere.
func readFailures(t *testing.T, path string, in failingCSV) ([]failedLine, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no failures file: %v", err)
	}
	text := string(data)
	for _, ct := range in.ciphertexts {
		if payload := ct[strings.IndexByte(ct, '>')+1:]; strings.Contains(text, payload) {
			t.Fatalf("a ciphertext's payload reached the failures file:\n%s", text)
		}
	}
	if strings.Contains(text, failingPlaintext) {
		t.Fatalf("the plaintext reached the failures file:\n%s", text)
	}
	var lines []failedLine
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var f failedLine
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("failures file line %q: %v", line, err)
		}
		if f.Message == "" {
			t.Errorf("failure without a message: %q", line)
		}
		lines = append(lines, f)
	}
	return lines, text
}

func checkFailures(t *testing.T, got, want []failedLine) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d failed records listed, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Record != w.Record || g.Line != w.Line || g.Kind != w.Kind || g.Reason != w.Reason ||
			(w.Message != "" && g.Message != w.Message) {
			t.Errorf("failed record %d: got %+v, want %+v", i+1, g, w)
		}
	}
}

func TestRewrap_failedRecords_listedWithLineAndReasonInTheNamedFile(t *testing.T) {
	needServer(t)
	in := newFailingCSV(t, "rewrap-failures")
	dir := t.TempDir()
	input, out, failures := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv"), filepath.Join(dir, "report", "failed.jsonl")
	if err := os.WriteFile(input, []byte(in.text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Dir(failures), 0o700); err != nil {
		t.Fatal(err)
	}
	summary := cipherctl(t, "", 2, "rewrap", "--in", input, "--out", out, "--field", "secret", "--failures", failures)
	for _, want := range []string{"records: 5", "rewrapped: 1", "failed: 4", "failed records (line, reason, message): " + failures} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	got, _ := readFailures(t, failures, in)
	checkFailures(t, got, in.want)
	if _, err := os.Stat(out + ".failures.jsonl"); !os.IsNotExist(err) {
		t.Errorf("a failures file at the default path besides --failures: %v", err)
	}
	// A second run with --force starts the failures file afresh rather than appending to it.
	cipherctl(t, "", 2, "rewrap", "--in", input, "--out", out, "--field", "secret", "--failures", failures, "--force")
	got, _ = readFailures(t, failures, in)
	checkFailures(t, got, in.want)
}

func TestRewrap_nothingFailed_leavesNoFailuresFile(t *testing.T) {
	needServer(t)
	c, ctx := client(t), context.Background()
	if _, err := c.CreateKey(ctx, "rewrap-no-failures"); err != nil {
		t.Fatal(err)
	}
	ct, err := c.Encrypt(ctx, "rewrap-no-failures", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(in, []byte(`{"ct": "`+ct+`"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if summary := cipherctl(t, "", 0, "rewrap", "--in", in, "--out", out, "--field", "ct"); strings.Contains(summary, "failed records") {
		t.Errorf("summary names a failures file when nothing failed:\n%s", summary)
	}
	if _, err := os.Stat(out + ".failures.jsonl"); !os.IsNotExist(err) {
		t.Errorf("failures file left when nothing failed: %v", err)
	}
}

// TestRewrap_resumed_failuresFileHasEachFailedRecordOnce resumes from a checkpoint taken after
// record 2, with bytes after the checkpoint in the output and the failures file (as a kill leaves
// them): the resumed run cuts them off, and its failures file is the uninterrupted run's, with the
// line numbers after a two-line record still right.
func TestRewrap_resumed_failuresFileHasEachFailedRecordOnce(t *testing.T) {
	needServer(t)
	in := newFailingCSV(t, "rewrap-failures-resumed")
	dir := t.TempDir()
	input, out := filepath.Join(dir, "in.csv"), filepath.Join(dir, "out.csv")
	failures, checkpoint := out+".failures.jsonl", out+".checkpoint"
	if err := os.WriteFile(input, []byte(in.text), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"rewrap", "--in", input, "--out", out, "--field", "secret"}
	cipherctl(t, "", 2, args...)
	_, full := readFailures(t, failures, in)
	output, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}

	// The state a kill after record 2's checkpoint leaves: its counts and offsets, and whatever was
	// written after them.
	roe := in.text[strings.Index(in.text, "Roe,"):in.recordTwoEnd]
	outputOffset := strings.Index(string(output), roe) + len(roe)
	failuresOffset := strings.IndexByte(full, '\n') + 1
	writeFile(t, out, string(output[:outputOffset])+"Gone,half a line")
	writeFile(t, failures, full[:failuresOffset]+`{"record": 3, "line": 5, "kind": "half`)
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	cp, _ := json.Marshal(map[string]any{
		"input": abs(input), "input_size": len(in.text), "field": "secret", "failures": abs(failures),
		"input_offset": in.recordTwoEnd, "input_lines": 4, "output_offset": outputOffset, "failures_offset": failuresOffset,
		"records": 2, "rewrapped": 1, "already_current": 0, "failed": map[string]int{"decryption_failed": 1},
	})
	writeFile(t, checkpoint, string(cp))

	// The checkpoint's failures file is the only one it resumes.
	_, stderr := cipherctlErr(t, "", 1, append(args, "--failures", filepath.Join(dir, "elsewhere.jsonl"))...)
	if !strings.Contains(stderr, "--failures") {
		t.Errorf("resuming with another --failures: %s", stderr)
	}
	summary := cipherctl(t, "", 2, args...)
	for _, want := range []string{"records: 5", "rewrapped: 1", "failed: 4"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	got, resumed := readFailures(t, failures, in)
	checkFailures(t, got, in.want)
	if resumed != full {
		t.Errorf("failures file after the resume:\n%s\nwant the uninterrupted run's:\n%s", resumed, full)
	}
	if after, _ := os.ReadFile(out); string(after) != string(output) {
		t.Errorf("output after the resume:\n%s\nwant the uninterrupted run's:\n%s", after, output)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
