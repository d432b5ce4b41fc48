package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// ReEncryptFormattedStream moves a value to version 6 by reversing it, keeps a value already at 6,
// and fails "bad" alone; with failStreamAfter set it ends the call with UNAVAILABLE after that many
// answers, once.
func (f *fakeFormatted) ReEncryptFormattedStream(stream grpc.BidiStreamingServer[cipherdpb.ReEncryptFormattedStreamRequest, cipherdpb.ReEncryptFormattedStreamResponse]) error {
	f.mu.Lock()
	f.calls++
	failAfter, stallAfter := f.failStreamAfter, f.stallStreamAfter
	f.failStreamAfter, f.stallStreamAfter = 0, 0
	f.mu.Unlock()
	for answered := 0; ; answered++ {
		if failAfter > 0 && answered == failAfter {
			return status.Error(codes.Unavailable, "the fake server went away")
		}
		if stallAfter > 0 && answered == stallAfter {
			<-stream.Context().Done()
			return stream.Context().Err()
		}
		req, err := stream.Recv()
		if err != nil {
			return nil
		}
		f.mu.Lock()
		f.streamed++
		f.contexts = append(f.contexts, string(req.GetContext()))
		f.mu.Unlock()
		r := fakeResult(req.GetReference(), req.GetValue(), 6)
		switch {
		case r.GetError() != nil:
		case req.GetKeyVersion() == 6:
			r.Outcome = &cipherdpb.FormattedBatchResult_Value{Value: req.GetValue()}
		case req.GetKeyVersion() == 0:
			r = &cipherdpb.FormattedBatchResult{Reference: req.GetReference(), Outcome: &cipherdpb.FormattedBatchResult_Error{Error: &cipherdpb.ItemError{
				Code: int32(codes.InvalidArgument), Reason: "INVALID_ARGUMENT", Message: "key_version 0: the key's values carry no version prefix"}}}
		}
		if r.GetError() == nil {
			r.SourceKeyVersion = req.GetKeyVersion()
		}
		if err := stream.Send(&cipherdpb.ReEncryptFormattedStreamResponse{Result: r}); err != nil {
			return err
		}
	}
}

// formattedColumn is n lines "VALUE<TAB>VERSION" of versions 1 to 3 and some already at 6, with
// "bad" at line bad.
func formattedColumn(n, bad int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		value := fmt.Sprintf("%06d", i*37)
		if i == bad {
			value = "bad"
		}
		version := 1 + i%3
		if i%10 == 0 {
			version = 6
		}
		fmt.Fprintf(&b, "%s\t%d\n", value, version)
	}
	return b.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestFPERewrap_brokenHalfwayAndResumed_writesWhatAnUninterruptedRunWrites runs fpe rewrap --out
// over 5,000 lines twice: once whole, once on a server that goes away after 2,300 lines and then
// resumed by the same command. The outputs and failures files are the same byte for byte: the
// resume wrote no line twice and skipped none; the one bad line, before the break, is listed once.
func TestFPERewrap_brokenHalfwayAndResumed_writesWhatAnUninterruptedRunWrites(t *testing.T) {
	const n, bad, breakAt = 5000, 1201, 2300
	dir := t.TempDir()
	in := filepath.Join(dir, "pan.tsv")
	if err := os.WriteFile(in, []byte(formattedColumn(n, bad)), 0o600); err != nil {
		t.Fatal(err)
	}
	rewrap := func(addr, out string) (int, string, string) {
		return cipherctlAt(t, addr, "", "fpe", "rewrap", "pan", "--context", "payments.pan", "--in", in, "--out", out, "--checkpoint-every", "500")
	}

	_, addr := serveFakeFormatted(t)
	whole := filepath.Join(dir, "whole.tsv")
	code, summary, stderr := rewrap(addr, whole)
	if code != 2 {
		t.Fatalf("uninterrupted run: exit %d, want 2 (one line failed)\n%s\n%s", code, summary, stderr)
	}
	for _, want := range []string{"records: 5000\n", "rewrapped: 4499\n", "already current: 500\n", "  from version 1: 1500\n", "  from version 2: 1499\n", "  from version 3: 1500\n", "  from version 6: 500\n", "failed: 1\n", "  invalid_argument: 1\n"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}

	f, addr := serveFakeFormatted(t)
	f.failStreamAfter = breakAt
	resumed := filepath.Join(dir, "resumed.tsv")
	code, _, stderr = rewrap(addr, resumed)
	if code != 3 || !strings.Contains(stderr, "rewrap stopped after 2300 records") {
		t.Fatalf("broken run: exit %d, want 3 and where it stopped; stderr %s", code, stderr)
	}
	var cp struct {
		Records      int64           `json:"records"`
		FromVersions map[int32]int64 `json:"from_versions"`
		Failed       map[string]int  `json:"failed"`
	}
	if err := json.Unmarshal([]byte(readFile(t, resumed+".checkpoint")), &cp); err != nil || cp.Records != breakAt || cp.Failed["invalid_argument"] != 1 {
		t.Fatalf("checkpoint after the break: %+v, %v", cp, err)
	}
	if lines := strings.Count(readFile(t, resumed), "\n"); lines != breakAt {
		t.Errorf("the output holds %d lines after the break, want the %d the checkpoint counts", lines, breakAt)
	}
	code, summary2, stderr := rewrap(addr, resumed)
	if code != 2 {
		t.Fatalf("resumed run: exit %d\n%s", code, stderr)
	}
	if summary2 != strings.ReplaceAll(summary, whole, resumed) {
		t.Errorf("the resumed run's summary differs:\n%s\nwant\n%s", summary2, summary)
	}
	if got, want := readFile(t, resumed), readFile(t, whole); got != want {
		t.Fatalf("the resumed output differs from the uninterrupted one (%d and %d bytes)", len(got), len(want))
	}
	if got, want := readFile(t, resumed+".failures.jsonl"), readFile(t, whole+".failures.jsonl"); got != want || strings.Count(got, "\n") != 1 {
		t.Fatalf("failures files differ or hold more than the bad line:\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat(resumed + ".checkpoint"); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is left after the run finished: %v", err)
	}
	if f.streamed < n-breakAt+breakAt || f.calls != 2 {
		t.Errorf("%d items over %d calls reached the fake", f.streamed, f.calls)
	}
}

// TestFPERewrap_killedHalfwayAndResumed_writesWhatAnUninterruptedRunWrites SIGKILLs fpe rewrap
// while its stream hangs after 2,300 lines, past its last checkpoint, so that what it wrote after
// the checkpoint is lost or left behind; the same command then resumes from the checkpoint and the
// output is the uninterrupted run's, byte for byte.
func TestFPERewrap_killedHalfwayAndResumed_writesWhatAnUninterruptedRunWrites(t *testing.T) {
	const n, bad, stallAt = 5000, 1201, 2300
	dir := t.TempDir()
	in := filepath.Join(dir, "pan.tsv")
	if err := os.WriteFile(in, []byte(formattedColumn(n, bad)), 0o600); err != nil {
		t.Fatal(err)
	}
	args := func(out string) []string {
		return []string{"fpe", "rewrap", "pan", "--context", "payments.pan", "--in", in, "--out", out, "--checkpoint-every", "700"}
	}
	_, addr := serveFakeFormatted(t)
	whole := filepath.Join(dir, "whole.tsv")
	if code, _, stderr := cipherctlAt(t, addr, "", args(whole)...); code != 2 {
		t.Fatalf("uninterrupted run: exit %d\n%s", code, stderr)
	}

	f, addr := serveFakeFormatted(t)
	f.stallStreamAfter = stallAt
	killed := filepath.Join(dir, "killed.tsv")
	cmd := exec.Command(binary, args(killed)...)
	cmd.Env = append(os.Environ(), "CIPHERD_ADDR="+addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		f.mu.Lock()
		streamed := f.streamed
		f.mu.Unlock()
		if streamed >= stallAt {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the fake answered %d lines in 20s", streamed)
		}
	}
	time.Sleep(200 * time.Millisecond) // let cipherctl write what it received
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	var cp struct {
		Records int64 `json:"records"`
	}
	if err := json.Unmarshal([]byte(readFile(t, killed+".checkpoint")), &cp); err != nil || cp.Records == 0 || cp.Records >= stallAt {
		t.Fatalf("checkpoint after the kill: %+v, %v; want one short of the %d lines answered", cp, err, stallAt)
	}
	t.Logf("killed after %d lines answered, checkpoint at %d, output %d bytes", stallAt, cp.Records, len(readFile(t, killed)))
	if code, _, stderr := cipherctlAt(t, addr, "", args(killed)...); code != 2 {
		t.Fatalf("resumed run: exit %d\n%s", code, stderr)
	}
	if got, want := readFile(t, killed), readFile(t, whole); got != want {
		t.Fatalf("the resumed output differs from the uninterrupted one (%d and %d bytes)", len(got), len(want))
	}
	if got, want := readFile(t, killed+".failures.jsonl"), readFile(t, whole+".failures.jsonl"); got != want {
		t.Fatalf("failures files differ:\n%s\nwant\n%s", got, want)
	}
}

func TestFPERewrap_aFailedLineIsListedByNumberAndReasonNeverItsValue(t *testing.T) {
	_, addr := serveFakeFormatted(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "ids.tsv"), filepath.Join(dir, "ids.v6.tsv")
	if err := os.WriteFile(in, []byte("123456\t1\n987654\t0\n654321\t2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cipherctlAt(t, addr, "", "fpe", "rewrap", "ids", "--in", in, "--out", out)
	if code != 2 || !strings.Contains(stdout, "failed: 1\n") {
		t.Fatalf("exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	if got := readFile(t, out); got != "654321\t6\n987654\t0\n123456\t6\n" {
		t.Errorf("output %q: want the failed line unchanged between the moved ones", got)
	}
	var failure struct {
		Record  int64  `json:"record"`
		Line    int64  `json:"line"`
		Kind    string `json:"kind"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	failures := readFile(t, out+".failures.jsonl")
	if err := json.Unmarshal([]byte(failures), &failure); err != nil || failure.Record != 2 || failure.Line != 2 || failure.Kind != "invalid_argument" ||
		failure.Reason != "INVALID_ARGUMENT" || !strings.Contains(failure.Message, "key_version 0") {
		t.Errorf("failures file %q: %v", failures, err)
	}
	if strings.Contains(failures, "987654") {
		t.Errorf("the failures file quotes the value: %s", failures)
	}
	if code, _, stderr := cipherctlAt(t, addr, "", "fpe", "rewrap", "ids", "--in", in, "--out", out); code != 1 || !strings.Contains(stderr, "--force") {
		t.Errorf("a second run over a finished output: exit %d, %s; want a refusal naming --force", code, stderr)
	}
}

func TestFPERewrap_toStdoutPrintsALinePerValueAFailedOneEmpty(t *testing.T) {
	f, addr := serveFakeFormatted(t)
	code, stdout, stderr := cipherctlAt(t, addr, "123456\t1\nbad\t1\n654321\t6\n", "fpe", "rewrap", "ids", "--context", "users.id")
	if code != 2 || stdout != "654321\t6\n\n654321\t6\n" || !strings.Contains(stderr, "line 2: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if f.calls != 1 || f.contexts[0] != "users.id" {
		t.Errorf("%d calls, contexts %q: want one stream with the context", f.calls, f.contexts)
	}
	if code, _, stderr := cipherctlAt(t, addr, "", "fpe", "rewrap", "ids", "--key-version", "1", "--out", "x", "123456"); code != 1 || !strings.Contains(stderr, "--out needs --in FILE") {
		t.Errorf("--out with arguments: exit %d, %s", code, stderr)
	}
}
