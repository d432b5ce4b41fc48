package main_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeEraser is an in-memory SubjectService: it erases ids, fails an id that starts with "bad-"
// alone, and fails whole calls (UNAVAILABLE) once it has answered failAfter of them, so a test can
// interrupt an erase and resume it. The real server's side is in subjects_test.go.
type fakeEraser struct {
	cipherdpb.UnimplementedSubjectServiceServer
	mu        sync.Mutex
	erased    map[string]bool
	calls     int
	failAfter int
	items     []int
}

var fakeEraseTime = time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)

func (f *fakeEraser) EraseSubjects(_ context.Context, r *cipherdpb.EraseSubjectsRequest) (*cipherdpb.EraseSubjectsResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls >= f.failAfter {
		return nil, status.Error(codes.Unavailable, "the subject store is down")
	}
	f.calls++
	f.items = append(f.items, len(r.GetItems()))
	resp := &cipherdpb.EraseSubjectsResponse{}
	for _, it := range r.GetItems() {
		res := &cipherdpb.EraseSubjectsResult{Reference: it.GetReference()}
		switch {
		case strings.HasPrefix(it.GetSubject(), "bad-"):
			res.Error = &cipherdpb.ItemError{Code: int32(codes.InvalidArgument), Reason: "INVALID_ARGUMENT", Message: "subject is longer than 256 bytes"}
		case f.erased[it.GetSubject()]:
			res.Erasure = &cipherdpb.SubjectErasure{Outcome: cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED, EraseTime: timestamppb.New(fakeEraseTime)}
		default:
			f.erased[it.GetSubject()] = true
			res.Erasure = &cipherdpb.SubjectErasure{Outcome: cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_ERASED, EraseTime: timestamppb.New(fakeEraseTime),
				Receipt: &cipherdpb.ErasureReceipt{KeyName: r.GetKeyName(), SubjectHash: fmt.Sprintf("%064x", len(f.erased)), EraseTime: timestamppb.New(fakeEraseTime),
					Trail: "audit.jsonl", AuditSeq: uint64(len(f.erased)), RecordHash: "ab"}}
		}
		resp.Results = append(resp.Results, res)
	}
	return resp, nil
}

func (f *fakeEraser) GetSubject(_ context.Context, r *cipherdpb.GetSubjectRequest) (*cipherdpb.GetSubjectResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.erased[r.GetSubject()] {
		return &cipherdpb.GetSubjectResponse{State: cipherdpb.SubjectState_SUBJECT_STATE_ERASED, CreateTime: timestamppb.New(fakeEraseTime.Add(-time.Hour)), EraseTime: timestamppb.New(fakeEraseTime)}, nil
	}
	return &cipherdpb.GetSubjectResponse{State: cipherdpb.SubjectState_SUBJECT_STATE_NO_KEY}, nil
}

func serveFakeEraser(t *testing.T, f *fakeEraser) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterSubjectServiceServer(s, f)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String()
}

// cipherctlAt runs the binary against addr and returns its exit status, stdout and stderr.
func cipherctlAt(t *testing.T, addr, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "CIPHERD_ADDR="+addr, "CIPHERD_TIMEOUT=5s")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

type receiptLine struct {
	Line      int64      `json:"line"`
	Outcome   string     `json:"outcome"`
	EraseTime *time.Time `json:"erase_time"`
	Receipt   *struct {
		KeyName  string `json:"key_name"`
		AuditSeq uint64 `json:"audit_seq"`
		Trail    string `json:"trail"`
	} `json:"receipt"`
}

func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		out = append(out, v)
	}
	return out
}

// TestSubjectsErase_batchesReportsFailuresAndResumes erases 25 ids (one bad, a blank line) in
// batches of 10 with the server going down after the first batch: the run stops with exit 3 and a
// checkpoint, the same command resumes, and in the end every id has exactly one answer (a receipt
// line or a failure line naming its line), no file names an id, and the summary counts them.
func TestSubjectsErase_batchesReportsFailuresAndResumes(t *testing.T) {
	f := &fakeEraser{erased: map[string]bool{}, failAfter: 1}
	addr := serveFakeEraser(t, f)
	dir := t.TempDir()
	var ids strings.Builder
	for i := 1; i <= 25; i++ {
		switch i {
		case 7:
			ids.WriteString("bad-person-7@example.com\n")
		case 12:
			ids.WriteString("\n")
		default:
			fmt.Fprintf(&ids, "person-%d@example.com\r\n", i)
		}
	}
	idsPath, receipts := filepath.Join(dir, "ids.txt"), filepath.Join(dir, "receipts.jsonl")
	if err := os.WriteFile(idsPath, []byte(ids.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"subjects", "erase", "users", "--from-file", idsPath, "--receipts", receipts, "--batch-size", "10"}

	code, _, stderr := cipherctlAt(t, addr, "", args...)
	if code != 3 || !strings.Contains(stderr, "run the same command again to resume") || !strings.Contains(stderr, "after 10 ids") {
		t.Fatalf("interrupted run: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(idsPath + ".checkpoint"); err != nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	f.mu.Lock()
	f.failAfter = 100
	f.mu.Unlock()
	code, stdout, stderr := cipherctlAt(t, addr, "", args...)
	if code != 2 {
		t.Fatalf("resumed run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"ids: 24\n", "erased: 23\n", "failed: 1\n", "  invalid_argument: 1\n", "blank lines skipped: 1\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	got := readJSONLines[receiptLine](t, receipts)
	lines := map[int64]bool{}
	for _, r := range got {
		if lines[r.Line] || r.Outcome != "erased" || r.Receipt == nil || r.Receipt.KeyName != "users" || r.EraseTime == nil || !r.EraseTime.Equal(fakeEraseTime) {
			t.Errorf("receipt line %+v", r)
		}
		lines[r.Line] = true
	}
	failed := readJSONLines[failedLine](t, idsPath+".failures.jsonl")
	if len(failed) != 1 || failed[0].Line != 7 || failed[0].Kind != "invalid_argument" || failed[0].Reason != "INVALID_ARGUMENT" {
		t.Errorf("failures: %+v", failed)
	}
	for i := int64(1); i <= 25; i++ {
		if answered := lines[i] || i == 7; answered == (i == 12) {
			t.Errorf("line %d: answered %t", i, answered)
		}
	}
	if !equalInts(f.items, []int{10, 10, 4}) {
		t.Errorf("calls of %v ids", f.items)
	}
	for _, path := range []string{receipts, idsPath + ".failures.jsonl"} {
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), "example.com") {
			t.Errorf("%s names a subject:\n%s", path, data)
		}
	}
	if strings.Contains(stdout+stderr, "example.com") {
		t.Errorf("the output names a subject")
	}
	if _, err := os.Stat(idsPath + ".checkpoint"); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is left: %v", err)
	}
}

func equalInts(a, b []int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestSubjectsShow_printsTheStateNotTheSubject(t *testing.T) {
	f := &fakeEraser{erased: map[string]bool{"alice@example.com": true}, failAfter: 100}
	addr := serveFakeEraser(t, f)
	code, stdout, stderr := cipherctlAt(t, addr, "alice@example.com\n", "subjects", "show", "users", "-")
	if code != 0 || stdout != "state: erased\ncreated: 2026-11-26T19:00:00Z\nerased: 2026-11-26T20:00:00Z\n" {
		t.Errorf("exit %d:\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := cipherctlAt(t, addr, "", "subjects", "show", "users", "bob"); code != 0 || stdout != "state: no_key\n" {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

// TestSubjectsVerifyReceipt_againstTheAuditVectors checks receipts offline against
// proto/testdata/audit/intact.log: one naming a record as it is holds; one whose hash, key or seq
// is not the record's fails naming its line; and an altered trail fails before any receipt.
func TestSubjectsVerifyReceipt_againstTheAuditVectors(t *testing.T) {
	trail := "../../../../proto/testdata/audit/intact.log"
	data, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	record := strings.Split(string(data), "\n")[2] // seq 2, key "orders", covered by the checkpoint at seq 3
	sum := sha256.Sum256([]byte(record))
	subjectHash := "963750867620ad77c076d91a423aa246e94750d1de9cbb0d4d1dcb84b63566e2"
	receipt := func(seq int, key, hash string) string {
		return fmt.Sprintf(`{"line":1,"outcome":"erased","receipt":{"key_name":%q,"subject_hash":%q,"erase_time":"2026-11-24T08:00:00.010Z","trail":"","audit_seq":%d,"record_hash":%q}}`,
			key, subjectHash, seq, hash)
	}
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.jsonl", `{"line":2,"outcome":"no_key"}`, receipt(2, "orders", hex.EncodeToString(sum[:])))
	code, stdout, stderr := cipherctlAt(t, "127.0.0.1:1", "", "subjects", "verify-receipt", "--offline", "--receipts", good, trail)
	if code != 0 || !strings.Contains(stdout, "receipts: 1, verified: 1, failed: 0") {
		t.Fatalf("a receipt as the record is: exit %d\n%s%s", code, stdout, stderr)
	}
	bad := write("bad.jsonl", receipt(2, "orders", strings.Repeat("0", 64)), receipt(2, "users", hex.EncodeToString(sum[:])), receipt(42, "orders", hex.EncodeToString(sum[:])))
	code, stdout, _ = cipherctlAt(t, "127.0.0.1:1", "", "subjects", "verify-receipt", "--offline", "--receipts", bad, trail)
	for _, want := range []string{"line 1 (audit seq 2): the record at its seq is not the one it names", `line 2 (audit seq 2): its record does not name key "users"`,
		"line 3 (audit seq 42): its record is not in the files", "receipts: 3, verified: 0, failed: 3"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("lacks %q:\n%s", want, stdout)
		}
	}
	if code != 1 {
		t.Errorf("exit %d for receipts that do not hold", code)
	}
	code, _, stderr = cipherctlAt(t, "127.0.0.1:1", "", "subjects", "verify-receipt", "--offline", "--receipts", good, "../../../../proto/testdata/audit/edited.log")
	if code != 1 || !strings.Contains(stderr, "NOT intact") {
		t.Errorf("an altered trail: exit %d, %s", code, stderr)
	}
}
