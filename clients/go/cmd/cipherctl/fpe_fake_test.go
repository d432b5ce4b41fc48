package main_test

import (
	"context"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeFormatted is an in-memory FormatPreservingService: it "encrypts" by reversing a value at
// version 5, fails an item whose value is "bad", and records what each call carried. The real
// server's side is in fpe_test.go.
type fakeFormatted struct {
	cipherdpb.UnimplementedFormatPreservingServiceServer
	mu       sync.Mutex
	versions []int32 // every decrypted item's key_version, in order
	contexts []string
	calls    int
	// failStreamAfter ends the next ReEncryptFormattedStream with UNAVAILABLE after that many
	// answers (0: never), as a server that goes away (fpe_rewrap_test.go).
	failStreamAfter int
	// stallStreamAfter makes the next ReEncryptFormattedStream stop answering after that many
	// answers until the caller goes away (0: never), as a server that hangs.
	stallStreamAfter int
	streamed         int // items answered by ReEncryptFormattedStream, across calls
}

func reversed(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

func fakeResult(ref, value string, version int32) *cipherdpb.FormattedBatchResult {
	if value == "bad" {
		return &cipherdpb.FormattedBatchResult{Reference: ref, Outcome: &cipherdpb.FormattedBatchResult_Error{Error: &cipherdpb.ItemError{
			Code: int32(codes.InvalidArgument), Reason: "INVALID_ARGUMENT", Message: "character 1 is not in the key's alphabet"}}}
	}
	return &cipherdpb.FormattedBatchResult{Reference: ref, Outcome: &cipherdpb.FormattedBatchResult_Value{Value: reversed(value)}, KeyVersion: version}
}

func (f *fakeFormatted) EncryptFormattedBatch(_ context.Context, r *cipherdpb.EncryptFormattedBatchRequest) (*cipherdpb.EncryptFormattedBatchResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.contexts = append(f.contexts, string(r.GetContext()))
	resp := &cipherdpb.EncryptFormattedBatchResponse{}
	for _, it := range r.GetItems() {
		resp.Results = append(resp.Results, fakeResult(it.GetReference(), it.GetValue(), 5))
	}
	return resp, nil
}

func (f *fakeFormatted) DecryptFormattedBatch(_ context.Context, r *cipherdpb.DecryptFormattedBatchRequest) (*cipherdpb.DecryptFormattedBatchResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	resp := &cipherdpb.DecryptFormattedBatchResponse{}
	for _, it := range r.GetItems() {
		f.versions = append(f.versions, it.GetKeyVersion())
		resp.Results = append(resp.Results, fakeResult(it.GetReference(), it.GetValue(), it.GetKeyVersion()))
	}
	return resp, nil
}

func (f *fakeFormatted) MaskFormatted(_ context.Context, r *cipherdpb.MaskFormattedRequest) (*cipherdpb.MaskFormattedResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.versions = append(f.versions, r.GetKeyVersion())
	return &cipherdpb.MaskFormattedResponse{Masked: "••••" + r.GetValue()[len(r.GetValue())-2:], KeyVersion: r.GetKeyVersion()}, nil
}

func serveFakeFormatted(t *testing.T) (*fakeFormatted, string) {
	t.Helper()
	f := &fakeFormatted{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterFormatPreservingServiceServer(s, f)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return f, l.Addr().String()
}

func TestFPE_encryptPrintsValueAndVersionPerLineAFailedLineLeftEmpty(t *testing.T) {
	f, addr := serveFakeFormatted(t)
	code, stdout, stderr := cipherctlAt(t, addr, "123456\nbad\n654321\n", "fpe", "encrypt", "ids", "--context", "users.id")
	if code != 2 {
		t.Fatalf("exit %d, want 2 (one line failed); stderr %s", code, stderr)
	}
	if want := "654321\t5\n\n123456\t5\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	if !strings.Contains(stderr, "line 2: ") || !strings.Contains(stderr, "alphabet") || strings.Contains(stderr, "bad\n1") {
		t.Errorf("stderr %q: want line 2's reason", stderr)
	}
	if f.calls != 1 || f.contexts[0] != "users.id" {
		t.Errorf("%d calls, contexts %q", f.calls, f.contexts)
	}
}

func TestFPE_decryptReadsEncryptsLinesBackWithTheirVersions(t *testing.T) {
	f, addr := serveFakeFormatted(t)
	code, stdout, stderr := cipherctlAt(t, addr, "654321\t5\n999888\t3\n", "fpe", "decrypt", "ids")
	if code != 0 || stdout != "123456\t5\n888999\t3\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if !slices.Equal(f.versions, []int32{5, 3}) {
		t.Errorf("versions sent %v, want [5 3]", f.versions)
	}
	code, stdout, _ = cipherctlAt(t, addr, "", "fpe", "mask", "ids", "--key-version", "2", "4111", "4242")
	if code != 0 || stdout != "••••11\t2\n••••42\t2\n" {
		t.Errorf("mask of two arguments: exit %d, stdout %q", code, stdout)
	}
}

func TestFPE_aValueWithoutAVersionIsRefusedBeforeAnyCall(t *testing.T) {
	f, addr := serveFakeFormatted(t)
	code, _, stderr := cipherctlAt(t, addr, "654321\t5\n999888\n", "fpe", "decrypt", "ids")
	if code != 1 || !strings.Contains(stderr, "line 2 has no key version") {
		t.Errorf("exit %d, stderr %q: want 1 and line 2 named", code, stderr)
	}
	if code, _, _ := cipherctlAt(t, addr, "", "fpe", "mask", "ids", "4111"); code != 1 {
		t.Errorf("mask of an argument without --key-version: exit %d, want 1", code)
	}
	if code, _, stderr := cipherctlAt(t, addr, "1\n", "fpe", "encrypt", "ids", "--key-version", "1"); code != 1 || !strings.Contains(stderr, "current version") {
		t.Errorf("encrypt with --key-version: exit %d, %s", code, stderr)
	}
	if f.calls != 0 {
		t.Errorf("%d calls reached the server", f.calls)
	}
}

func TestKeysCreate_fpeFlagsThatCannotBeAreRefused(t *testing.T) {
	_, addr := serveFakeFormatted(t)
	for _, args := range [][]string{
		{"--mode", "ff1", "--fpe-template", "digits", "--fpe-alphabet", "01"},
		{"--mode", "ff1", "--fpe-accept-small-domain"},
		{"--mode", "ff1", "--fpe-template", "card"},
	} {
		code, _, stderr := cipherctlAt(t, addr, "", append([]string{"keys", "create", "k"}, args...)...)
		if code != 1 || !strings.Contains(stderr, "fpe") {
			t.Errorf("keys create %v: exit %d, %s", args, code, stderr)
		}
	}
}
