package cipherd_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeSubjects is an in-memory SubjectService and the encrypting calls of CryptoService: it
// records what each request carried (the real server cannot be asked), erases subjects by id, and
// answers an encrypt of an erased subject as the server does. The real server's side is in
// subjects_test.go.
type fakeSubjects struct {
	cipherdpb.UnimplementedSubjectServiceServer
	mu       sync.Mutex
	erased   map[string]time.Time
	batches  []int // items per EraseSubjects call
	requests []any // every encrypting request, in order
	drop     bool  // answer one result fewer than asked
}

var eraseTime = time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)

func subjectErasedStatus(key string) error {
	st, _ := status.New(codes.FailedPrecondition, "the subject was erased").WithDetails(&errdetails.ErrorInfo{Domain: "cipherd.io",
		Reason: "SUBJECT_ERASED", Metadata: map[string]string{"key": key, "erase_time": eraseTime.Format(time.RFC3339)}})
	return st.Err()
}

func (f *fakeSubjects) erase(key, subject string) *cipherdpb.SubjectErasure {
	if strings.HasPrefix(subject, "nokey-") {
		return &cipherdpb.SubjectErasure{Outcome: cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_NO_KEY}
	}
	if _, ok := f.erased[subject]; ok {
		return &cipherdpb.SubjectErasure{Outcome: cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED, EraseTime: timestamppb.New(eraseTime)}
	}
	f.erased[subject] = eraseTime
	return &cipherdpb.SubjectErasure{Outcome: cipherdpb.SubjectErasureOutcome_SUBJECT_ERASURE_OUTCOME_ERASED, EraseTime: timestamppb.New(eraseTime),
		Receipt: &cipherdpb.ErasureReceipt{KeyName: key, SubjectHash: "hmac-of-" + fmt.Sprint(len(f.erased)), EraseTime: timestamppb.New(eraseTime),
			Trail: "audit.jsonl", AuditSeq: uint64(len(f.erased)), RecordHash: "ab12"}}
}

func (f *fakeSubjects) EraseSubject(_ context.Context, r *cipherdpb.EraseSubjectRequest) (*cipherdpb.EraseSubjectResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &cipherdpb.EraseSubjectResponse{Erasure: f.erase(r.GetKeyName(), r.GetSubject())}, nil
}

func (f *fakeSubjects) EraseSubjects(_ context.Context, r *cipherdpb.EraseSubjectsRequest) (*cipherdpb.EraseSubjectsResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batches = append(f.batches, len(r.GetItems()))
	resp := &cipherdpb.EraseSubjectsResponse{}
	for _, it := range r.GetItems() {
		res := &cipherdpb.EraseSubjectsResult{Reference: it.GetReference()}
		if it.GetSubject() == "" {
			res.Error = &cipherdpb.ItemError{Code: int32(codes.InvalidArgument), Reason: "INVALID_ARGUMENT", Message: "subject is required"}
		} else {
			res.Erasure = f.erase(r.GetKeyName(), it.GetSubject())
		}
		resp.Results = append(resp.Results, res)
	}
	if f.drop {
		resp.Results = resp.Results[1:]
	}
	return resp, nil
}

func (f *fakeSubjects) GetSubject(_ context.Context, r *cipherdpb.GetSubjectRequest) (*cipherdpb.GetSubjectResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.erased[r.GetSubject()]; ok {
		return &cipherdpb.GetSubjectResponse{State: cipherdpb.SubjectState_SUBJECT_STATE_ERASED, CreateTime: timestamppb.New(eraseTime.Add(-time.Hour)),
			EraseTime: timestamppb.New(eraseTime)}, nil
	}
	return &cipherdpb.GetSubjectResponse{State: cipherdpb.SubjectState_SUBJECT_STATE_ACTIVE, CreateTime: timestamppb.New(eraseTime.Add(-time.Hour)), KeyVersion: 3}, nil
}

// fakeSubjectCrypto is fakeSubjects' CryptoService.
type fakeSubjectCrypto struct {
	cipherdpb.UnimplementedCryptoServiceServer
	f *fakeSubjects
}

func (f *fakeSubjects) record(r any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r)
}

func (c fakeSubjectCrypto) Encrypt(_ context.Context, r *cipherdpb.EncryptRequest) (*cipherdpb.EncryptResponse, error) {
	f := c.f
	f.record(r)
	if _, ok := f.erased[r.GetSubject()]; ok && !r.GetRenewErasedSubject() {
		return nil, subjectErasedStatus(r.GetKeyName())
	}
	return &cipherdpb.EncryptResponse{Ciphertext: "<" + r.GetKeyName() + "/s:gcm>AAAA"}, nil
}

func (c fakeSubjectCrypto) EncryptBatch(_ context.Context, r *cipherdpb.EncryptBatchRequest) (*cipherdpb.EncryptBatchResponse, error) {
	c.f.record(r)
	resp := &cipherdpb.EncryptBatchResponse{}
	for _, it := range r.GetItems() {
		resp.Results = append(resp.Results, &cipherdpb.EncryptBatchResult{Reference: it.GetReference(), Outcome: &cipherdpb.EncryptBatchResult_Ciphertext{Ciphertext: "<k/s:gcm>AAAA"}})
	}
	return resp, nil
}

func (c fakeSubjectCrypto) EncryptStream(stream grpc.BidiStreamingServer[cipherdpb.EncryptStreamRequest, cipherdpb.EncryptStreamResponse]) error {
	for {
		r, err := stream.Recv()
		if err != nil {
			return nil
		}
		c.f.record(r)
		if err := stream.Send(&cipherdpb.EncryptStreamResponse{Result: &cipherdpb.EncryptBatchResult{Reference: r.GetReference(), Outcome: &cipherdpb.EncryptBatchResult_Ciphertext{Ciphertext: "<k/s:gcm>AAAA"}}}); err != nil {
			return err
		}
	}
}

func (c fakeSubjectCrypto) GenerateDataKey(_ context.Context, r *cipherdpb.GenerateDataKeyRequest) (*cipherdpb.GenerateDataKeyResponse, error) {
	c.f.record(r)
	return &cipherdpb.GenerateDataKeyResponse{WrappedKey: "<k/s:gcm>AAAA", PlaintextKey: make([]byte, 32)}, nil
}

func serveFakeSubjects(t *testing.T) (*fakeSubjects, *cipherd.Client) {
	t.Helper()
	f := &fakeSubjects{erased: map[string]time.Time{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterSubjectServiceServer(s, f)
	cipherdpb.RegisterCryptoServiceServer(s, fakeSubjectCrypto{f: f})
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return f, dial(t, l.Addr().String(), cipherd.WithInsecure())
}

func TestSubjectOptions_reachEveryEncryptingRequest(t *testing.T) {
	f, c := serveFakeSubjects(t)
	ctx := context.Background()
	if _, err := c.Encrypt(ctx, "users", []byte("a@example.com"), cipherd.WithSubject("user-8812"), cipherd.WithRenewErasedSubject()); err != nil {
		t.Fatal(err)
	}
	items := []cipherd.PlaintextItem{{Reference: "a", Plaintext: []byte("x")}, {Reference: "b", Plaintext: []byte("y"), Subject: "user-7"}}
	if _, err := c.EncryptBatch(ctx, "users", items, cipherd.WithSubject("user-8812")); err != nil {
		t.Fatal(err)
	}
	err := cipherd.EncryptStream(ctx, c, "users", func(yield func(int, cipherd.PlaintextItem) bool) {
		for i, it := range items {
			if !yield(i, it) {
				return
			}
		}
	}, func(int, cipherd.Result) error { return nil }, cipherd.WithSubject("user-8812"), cipherd.WithRenewErasedSubject())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GenerateDataKey(ctx, "users", cipherd.WithDataKeySubject("user-9"), cipherd.WithDataKeyRenewErasedSubject()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Encrypt(ctx, "users", []byte("plain")); err != nil {
		t.Fatal(err)
	}

	if len(f.requests) != 6 {
		t.Fatalf("%d requests, want 6", len(f.requests))
	}
	if r := f.requests[0].(*cipherdpb.EncryptRequest); r.GetSubject() != "user-8812" || !r.GetRenewErasedSubject() {
		t.Errorf("Encrypt: subject %q renew %t", r.GetSubject(), r.GetRenewErasedSubject())
	}
	batch := f.requests[1].(*cipherdpb.EncryptBatchRequest)
	if batch.GetSubject() != "user-8812" || batch.GetRenewErasedSubject() || batch.GetItems()[0].GetSubject() != "" || batch.GetItems()[1].GetSubject() != "user-7" {
		t.Errorf("EncryptBatch: default %q renew %t, items %q %q", batch.GetSubject(), batch.GetRenewErasedSubject(), batch.GetItems()[0].GetSubject(), batch.GetItems()[1].GetSubject())
	}
	s1, s2 := f.requests[2].(*cipherdpb.EncryptStreamRequest), f.requests[3].(*cipherdpb.EncryptStreamRequest)
	if s1.GetSubject() != "user-8812" || s2.GetSubject() != "user-7" || !s1.GetRenewErasedSubject() || !s2.GetRenewErasedSubject() {
		t.Errorf("EncryptStream: subjects %q %q, renew %t %t", s1.GetSubject(), s2.GetSubject(), s1.GetRenewErasedSubject(), s2.GetRenewErasedSubject())
	}
	if r := f.requests[4].(*cipherdpb.GenerateDataKeyRequest); r.GetSubject() != "user-9" || !r.GetRenewErasedSubject() {
		t.Errorf("GenerateDataKey: subject %q renew %t", r.GetSubject(), r.GetRenewErasedSubject())
	}
	if r := f.requests[5].(*cipherdpb.EncryptRequest); r.GetSubject() != "" || r.GetRenewErasedSubject() {
		t.Errorf("Encrypt without options: subject %q renew %t", r.GetSubject(), r.GetRenewErasedSubject())
	}
}

func TestEraseSubject_outcomesReceiptAndTheErasedError(t *testing.T) {
	_, c := serveFakeSubjects(t)
	ctx := context.Background()
	first, err := c.EraseSubject(ctx, "users", "user-8812")
	if err != nil {
		t.Fatal(err)
	}
	if first.Outcome != cipherd.Erased || !first.EraseTime.Equal(eraseTime) || first.Receipt == nil ||
		first.Receipt.KeyName != "users" || first.Receipt.AuditSeq != 1 || first.Receipt.Trail != "audit.jsonl" || !first.Receipt.EraseTime.Equal(eraseTime) {
		t.Errorf("first erasure: %+v %+v", first, first.Receipt)
	}
	again, err := c.EraseSubject(ctx, "users", "user-8812")
	if err != nil || again.Outcome != cipherd.AlreadyErased || again.Receipt != nil || again.Outcome.String() != "already_erased" {
		t.Errorf("second erasure: %+v, %v", again, err)
	}
	if none, err := c.EraseSubject(ctx, "users", "nokey-1"); err != nil || none.Outcome != cipherd.NoSubjectKey || !none.EraseTime.IsZero() {
		t.Errorf("no key: %+v, %v", none, err)
	}

	_, err = c.Encrypt(ctx, "users", []byte("x"), cipherd.WithSubject("user-8812"))
	if !errors.Is(err, cipherd.ErrSubjectErased) || !errors.Is(err, cipherd.ErrFailedPrecondition) || errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("encrypt of an erased subject: %v", err)
	}
	if strings.Contains(err.Error(), "user-8812") {
		t.Errorf("the error names the subject: %v", err)
	}
	if at, ok := cipherd.ErasedAt(err); !ok || !at.Equal(eraseTime) {
		t.Errorf("ErasedAt = %v, %t", at, ok)
	}
	if _, ok := cipherd.ErasedAt(errors.New("other")); ok {
		t.Error("ErasedAt of another error")
	}
	if _, err := c.Encrypt(ctx, "users", []byte("x"), cipherd.WithSubject("user-8812"), cipherd.WithRenewErasedSubject()); err != nil {
		t.Errorf("renewing an erased subject: %v", err)
	}

	st, err := c.GetSubject(ctx, "users", "user-8812")
	if err != nil || st.State != cipherd.SubjectErased || !st.EraseTime.Equal(eraseTime) || st.State.String() != "erased" {
		t.Errorf("GetSubject of the erased one: %+v, %v", st, err)
	}
	if st, err := c.GetSubject(ctx, "users", "user-1"); err != nil || st.State != cipherd.SubjectActive || st.KeyVersion != 3 {
		t.Errorf("GetSubject of an active one: %+v, %v", st, err)
	}
}

// TestEraseSubjects_chunksThousandsAndAnswersEveryItem checks that 2,500 ids go in calls of at
// most 1000, with one result per id in order, an item's failure its own, and a server that answers
// fewer results than items an error rather than a silent loss.
func TestEraseSubjects_chunksThousandsAndAnswersEveryItem(t *testing.T) {
	f, c := serveFakeSubjects(t)
	items := make([]cipherd.SubjectItem, 2500)
	for i := range items {
		items[i] = cipherd.SubjectItem{Reference: fmt.Sprint(i), Subject: fmt.Sprintf("user-%d", i)}
	}
	items[1234].Subject = ""
	results, err := c.EraseSubjects(context.Background(), "users", items)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.batches, []int{1000, 1000, 500}) {
		t.Errorf("calls of %v items", f.batches)
	}
	if len(results) != len(items) {
		t.Fatalf("%d results for %d items", len(results), len(items))
	}
	for i, r := range results {
		if r.Reference != fmt.Sprint(i) {
			t.Fatalf("result %d is %q", i, r.Reference)
		}
		if i == 1234 {
			if !errors.Is(r.Err, cipherd.ErrInvalidArgument) || r.Erasure != nil {
				t.Errorf("the empty subject: %+v", r)
			}
		} else if r.Err != nil || r.Erasure.Outcome != cipherd.Erased {
			t.Errorf("item %d: %+v", i, r)
		}
	}

	f.drop = true
	got, err := c.EraseSubjects(context.Background(), "users", items[:3])
	if err == nil || len(got) != 0 {
		t.Errorf("a short answer: %d results, %v", len(got), err)
	}
}

func TestSubjectIds_neverFormatted(t *testing.T) {
	const id = "alice@example.com"
	for _, v := range []any{
		cipherd.SubjectItem{Reference: "r1", Subject: id},
		cipherd.PlaintextItem{Reference: "r1", Plaintext: []byte("secret-plaintext"), Subject: id},
	} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			out := fmt.Sprintf(verb, v)
			if strings.Contains(out, id) || strings.Contains(out, "secret-plaintext") || !strings.Contains(out, "r1") {
				t.Errorf("%s of %T: %s", verb, v, out)
			}
		}
	}
}
