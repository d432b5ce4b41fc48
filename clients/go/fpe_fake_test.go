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

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeFPE is an in-memory FormatPreservingService and the key calls of KeyAdminService: it
// records every request (the real server cannot be asked what it received), "encrypts" by
// reversing a value at version 3, refuses key_version 0 as the server does for a key without a
// version prefix, and fails an item whose value is "bad". The real server's side is in fpe_test.go.
type fakeFPE struct {
	cipherdpb.UnimplementedFormatPreservingServiceServer
	mu       sync.Mutex
	requests []proto.Message
	batches  []int // items per batch call
	// failStreamAfter ends the next stream call with UNAVAILABLE after it answered that many items
	// (0: never), as a server that went away would (fpe_streams_test.go).
	failStreamAfter int
}

func (f *fakeFPE) record(m proto.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, m)
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

func noVersionStatus() error {
	st, _ := status.New(codes.InvalidArgument, "FF1 values carry no version: pass the key_version EncryptFormatted returned").
		WithDetails(&errdetails.ErrorInfo{Domain: "cipherd.io", Reason: "INVALID_ARGUMENT"})
	return st.Err()
}

func (f *fakeFPE) EncryptFormatted(_ context.Context, r *cipherdpb.EncryptFormattedRequest) (*cipherdpb.EncryptFormattedResponse, error) {
	f.record(r)
	return &cipherdpb.EncryptFormattedResponse{Value: reverse(r.GetValue()), KeyVersion: 3}, nil
}

func (f *fakeFPE) DecryptFormatted(_ context.Context, r *cipherdpb.DecryptFormattedRequest) (*cipherdpb.DecryptFormattedResponse, error) {
	f.record(r)
	if r.GetKeyVersion() == 0 {
		return nil, noVersionStatus()
	}
	return &cipherdpb.DecryptFormattedResponse{Value: reverse(r.GetValue()), KeyVersion: r.GetKeyVersion()}, nil
}

func (f *fakeFPE) ReEncryptFormatted(_ context.Context, r *cipherdpb.ReEncryptFormattedRequest) (*cipherdpb.ReEncryptFormattedResponse, error) {
	f.record(r)
	if r.GetKeyVersion() == 0 {
		return nil, noVersionStatus()
	}
	return &cipherdpb.ReEncryptFormattedResponse{Value: "re-" + r.GetValue(), KeyVersion: 4, SourceKeyVersion: r.GetKeyVersion()}, nil
}

func (f *fakeFPE) MaskFormatted(_ context.Context, r *cipherdpb.MaskFormattedRequest) (*cipherdpb.MaskFormattedResponse, error) {
	f.record(r)
	if r.GetKeyVersion() == 0 {
		return nil, noVersionStatus()
	}
	return &cipherdpb.MaskFormattedResponse{Masked: "•••• 4242", KeyVersion: r.GetKeyVersion()}, nil
}

func itemResult(ref, value string, version, source int32) *cipherdpb.FormattedBatchResult {
	if value == "bad" {
		return &cipherdpb.FormattedBatchResult{Reference: ref, Outcome: &cipherdpb.FormattedBatchResult_Error{Error: &cipherdpb.ItemError{
			Code: int32(codes.InvalidArgument), Reason: "INVALID_ARGUMENT", Message: "character 2 is not in the key's alphabet"}}}
	}
	return &cipherdpb.FormattedBatchResult{Reference: ref, Outcome: &cipherdpb.FormattedBatchResult_Value{Value: value}, KeyVersion: version,
		SourceKeyVersion: source}
}

func (f *fakeFPE) EncryptFormattedBatch(_ context.Context, r *cipherdpb.EncryptFormattedBatchRequest) (*cipherdpb.EncryptFormattedBatchResponse, error) {
	f.record(r)
	f.mu.Lock()
	f.batches = append(f.batches, len(r.GetItems()))
	f.mu.Unlock()
	resp := &cipherdpb.EncryptFormattedBatchResponse{}
	for _, it := range r.GetItems() {
		v := it.GetValue()
		if v != "bad" {
			v = reverse(v)
		}
		resp.Results = append(resp.Results, itemResult(it.GetReference(), v, 3, 0))
	}
	return resp, nil
}

// itemVersion is an item's version, else the batch's, as the server reads them.
func itemVersion(it *cipherdpb.FormattedBatchItem, batch int32) int32 {
	if it.GetKeyVersion() != 0 {
		return it.GetKeyVersion()
	}
	return batch
}

func (f *fakeFPE) DecryptFormattedBatch(_ context.Context, r *cipherdpb.DecryptFormattedBatchRequest) (*cipherdpb.DecryptFormattedBatchResponse, error) {
	f.record(r)
	resp := &cipherdpb.DecryptFormattedBatchResponse{}
	for _, it := range r.GetItems() {
		v := it.GetValue()
		if v != "bad" {
			v = reverse(v)
		}
		resp.Results = append(resp.Results, itemResult(it.GetReference(), v, itemVersion(it, r.GetKeyVersion()), 0))
	}
	return resp, nil
}

func (f *fakeFPE) ReEncryptFormattedBatch(_ context.Context, r *cipherdpb.ReEncryptFormattedBatchRequest) (*cipherdpb.ReEncryptFormattedBatchResponse, error) {
	f.record(r)
	resp := &cipherdpb.ReEncryptFormattedBatchResponse{}
	for _, it := range r.GetItems() {
		resp.Results = append(resp.Results, itemResult(it.GetReference(), it.GetValue(), 4, itemVersion(it, r.GetKeyVersion())))
	}
	return resp, nil
}

// fakeFPEAdmin records CreateKey, ImportKey and RotateKey requests.
type fakeFPEAdmin struct {
	cipherdpb.UnimplementedKeyAdminServiceServer
	f *fakeFPE
}

func (a fakeFPEAdmin) CreateKey(_ context.Context, r *cipherdpb.CreateKeyRequest) (*cipherdpb.CreateKeyResponse, error) {
	a.f.record(r)
	return &cipherdpb.CreateKeyResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), CurrentVersion: 1,
		Versions: []*cipherdpb.KeyVersion{{Version: 1, Mode: r.GetMode(), KeySizeBits: 256, FpeFormat: r.GetFpeFormat()}}}}, nil
}

func (a fakeFPEAdmin) ImportKey(_ context.Context, r *cipherdpb.ImportKeyRequest) (*cipherdpb.ImportKeyResponse, error) {
	a.f.record(r)
	return &cipherdpb.ImportKeyResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), CurrentVersion: 1,
		Versions: []*cipherdpb.KeyVersion{{Version: 1, Mode: r.GetMode(), Imported: true, FpeFormat: r.GetFpeFormat()}}}}, nil
}

func (a fakeFPEAdmin) RotateKey(_ context.Context, r *cipherdpb.RotateKeyRequest) (*cipherdpb.RotateKeyResponse, error) {
	a.f.record(r)
	return &cipherdpb.RotateKeyResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), CurrentVersion: 2}}, nil
}

func serveFakeFPE(t *testing.T) (*fakeFPE, *cipherd.Client) {
	t.Helper()
	f := &fakeFPE{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterFormatPreservingServiceServer(s, f)
	cipherdpb.RegisterKeyAdminServiceServer(s, fakeFPEAdmin{f: f})
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return f, dial(t, l.Addr().String(), cipherd.WithInsecure())
}

func TestFormatted_unaryCallsSendKeyValueContextAndVersion(t *testing.T) {
	f, c := serveFakeFPE(t)
	ctx := context.Background()
	column := cipherd.WithValueContext([]byte("users.card"))
	ct, err := c.EncryptFormatted(ctx, "cards", "1234567890", column)
	if err != nil {
		t.Fatal(err)
	}
	if ct != (cipherd.FormattedValue{Value: "0987654321", KeyVersion: 3}) {
		t.Errorf("EncryptFormatted = %+v", ct)
	}
	plain, err := c.DecryptFormatted(ctx, "cards", ct, column)
	if err != nil || plain != "1234567890" {
		t.Errorf("DecryptFormatted = %q, %v", plain, err)
	}
	moved, err := c.ReEncryptFormatted(ctx, "cards", ct, column)
	if err != nil || moved.Value != "re-0987654321" || moved.KeyVersion != 4 || moved.SourceKeyVersion != 3 {
		t.Errorf("ReEncryptFormatted = %+v, %v", moved, err)
	}
	masked, err := c.MaskFormatted(ctx, "cards", ct, column)
	if err != nil || masked != "•••• 4242" {
		t.Errorf("MaskFormatted = %q, %v", masked, err)
	}

	want := []proto.Message{
		&cipherdpb.EncryptFormattedRequest{KeyName: "cards", Value: "1234567890", Context: []byte("users.card")},
		&cipherdpb.DecryptFormattedRequest{KeyName: "cards", Value: "0987654321", Context: []byte("users.card"), KeyVersion: 3},
		&cipherdpb.ReEncryptFormattedRequest{KeyName: "cards", Value: "0987654321", Context: []byte("users.card"), KeyVersion: 3},
		&cipherdpb.MaskFormattedRequest{KeyName: "cards", Value: "0987654321", Context: []byte("users.card"), KeyVersion: 3},
	}
	if len(f.requests) != len(want) {
		t.Fatalf("%d requests, want %d", len(f.requests), len(want))
	}
	for i := range want {
		if !proto.Equal(f.requests[i], want[i]) {
			t.Errorf("request %d = %v, want %v", i, f.requests[i], want[i])
		}
	}
}

func TestFormatted_aValueWithoutItsVersionIsInvalidArgument(t *testing.T) {
	_, c := serveFakeFPE(t)
	ctx := context.Background()
	bare := cipherd.FormattedValue{Value: "0987654321"}
	if _, err := c.DecryptFormatted(ctx, "cards", bare); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("DecryptFormatted without a version: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.ReEncryptFormatted(ctx, "cards", bare); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Errorf("ReEncryptFormatted without a version: %v, want ErrInvalidArgument", err)
	}
	_, err := c.MaskFormatted(ctx, "cards", bare)
	if !errors.Is(err, cipherd.ErrInvalidArgument) || !strings.Contains(err.Error(), "key_version") {
		t.Errorf("MaskFormatted without a version: %v, want ErrInvalidArgument naming key_version", err)
	}
}

func TestFormattedBatches_oneResultPerItemInOrderInCallsOf1000(t *testing.T) {
	f, c := serveFakeFPE(t)
	ctx := context.Background()
	plain := make([]cipherd.FormattedPlainItem, 2500)
	for i := range plain {
		plain[i] = cipherd.FormattedPlainItem{Reference: fmt.Sprint("r", i), Value: fmt.Sprintf("%06d", i)}
	}
	plain[1700].Value = "bad"
	plain[5].Context = []byte("own")
	enc, err := c.EncryptFormattedBatch(ctx, "ids", plain, cipherd.WithValueContext([]byte("batch")))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.batches, []int{1000, 1000, 500}) {
		t.Errorf("calls of %v items, want 1000, 1000, 500", f.batches)
	}
	first := f.requests[0].(*cipherdpb.EncryptFormattedBatchRequest)
	if string(first.GetContext()) != "batch" || string(first.GetItems()[5].GetContext()) != "own" || first.GetItems()[4].GetContext() != nil {
		t.Errorf("contexts: batch %q, item 5 %q, item 4 %q", first.GetContext(), first.GetItems()[5].GetContext(), first.GetItems()[4].GetContext())
	}
	if len(enc) != len(plain) {
		t.Fatalf("%d results for %d items", len(enc), len(plain))
	}
	for i, r := range enc {
		switch {
		case r.Reference != plain[i].Reference:
			t.Fatalf("result %d is %q, want %q", i, r.Reference, plain[i].Reference)
		case i == 1700:
			var e *cipherd.Error
			if !errors.Is(r.Err, cipherd.ErrInvalidArgument) || !errors.As(r.Err, &e) || r.Value.KeyVersion != 0 {
				t.Errorf("item 1700: %v (version %d), want an *Error matching ErrInvalidArgument, version 0", r.Err, r.Value.KeyVersion)
			}
		case r.Err != nil || r.Value != cipherd.FormattedValue{Value: reverse(plain[i].Value), KeyVersion: 3}:
			t.Errorf("item %d: %+v, %v", i, r.Value, r.Err)
		}
	}

	// Decrypting and rewrapping send each item's own version, never a batch-wide one.
	items := []cipherd.FormattedItem{{Reference: "a", Ciphertext: enc[0].Value}, {Reference: "b", Ciphertext: cipherd.FormattedValue{Value: "bad", KeyVersion: 2}},
		{Reference: "c", Ciphertext: cipherd.FormattedValue{Value: "cba", KeyVersion: 1}, Context: []byte("c-own")}}
	dec, err := c.DecryptFormattedBatch(ctx, "ids", items, cipherd.WithValueContext([]byte("batch")))
	if err != nil {
		t.Fatal(err)
	}
	got := f.requests[len(f.requests)-1].(*cipherdpb.DecryptFormattedBatchRequest)
	if got.GetKeyVersion() != 0 || got.GetItems()[0].GetKeyVersion() != 3 || got.GetItems()[2].GetKeyVersion() != 1 ||
		string(got.GetContext()) != "batch" || string(got.GetItems()[2].GetContext()) != "c-own" {
		t.Errorf("DecryptFormattedBatch request: %v", got)
	}
	if dec[0].Value != (cipherd.FormattedValue{Value: plain[0].Value, KeyVersion: 3}) || !errors.Is(dec[1].Err, cipherd.ErrInvalidArgument) ||
		dec[2].Value != (cipherd.FormattedValue{Value: "abc", KeyVersion: 1}) || dec[2].Reference != "c" {
		t.Errorf("DecryptFormattedBatch: %v", dec)
	}
	moved, err := c.ReEncryptFormattedBatch(ctx, "ids", items)
	if err != nil {
		t.Fatal(err)
	}
	if moved[0].Value.KeyVersion != 4 || moved[0].SourceKeyVersion != 3 || moved[2].SourceKeyVersion != 1 || moved[1].Err == nil {
		t.Errorf("ReEncryptFormattedBatch: %v", moved)
	}
}

func TestFormattedItems_formatWithoutTheirValues(t *testing.T) {
	item := cipherd.FormattedPlainItem{Reference: "r1", Value: "4111111111111111"}
	result := cipherd.FormattedResult{Reference: "r1", Value: cipherd.FormattedValue{Value: "4111111111111111", KeyVersion: 2}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		for _, s := range []string{fmt.Sprintf(verb, item), fmt.Sprintf(verb, result)} {
			if strings.Contains(s, "411111") {
				t.Errorf("%s shows the value: %s", verb, s)
			}
		}
	}
}

func TestCreateKey_sendsTheFPEFormat(t *testing.T) {
	f, c := serveFakeFPE(t)
	ctx := context.Background()
	key, err := c.CreateKey(ctx, "cards", cipherd.WithKeyMode(cipherd.ModeFF1),
		cipherd.WithFPEFormat(cipherd.FPEFormat{Template: cipherd.FPETemplateCardNumber, AcceptSmallDomain: true, MaskVisibleSuffix: 4}))
	if err != nil {
		t.Fatal(err)
	}
	want := &cipherdpb.CreateKeyRequest{KeyName: "cards", Mode: cipherdpb.Mode_MODE_FF1, FpeFormat: &cipherdpb.FpeFormat{
		Shape: &cipherdpb.FpeFormat_Template{Template: cipherdpb.FpeTemplate_FPE_TEMPLATE_CARD_NUMBER}, AcceptSmallDomain: true, MaskVisibleSuffix: 4}}
	if !proto.Equal(f.requests[0], want) {
		t.Errorf("CreateKey request = %v, want %v", f.requests[0], want)
	}
	if v := key.Versions[0]; v.Mode != cipherd.ModeFF1 || v.FPEFormat == nil || v.FPEFormat.Template != cipherd.FPETemplateCardNumber || !v.FPEFormat.AcceptSmallDomain {
		t.Errorf("key version read back: %+v", v)
	}
	hex := cipherd.FPEFormat{Alphabet: "0123456789abcdef", VersionPrefixLength: 1}
	if _, err := c.ImportKey(ctx, "tokens", make([]byte, 32), cipherd.WithKeyMode(cipherd.ModeFF1), cipherd.WithFPEFormat(hex)); err != nil {
		t.Fatal(err)
	}
	imported := f.requests[1].(*cipherdpb.ImportKeyRequest)
	if imported.GetFpeFormat().GetAlphabet() != "0123456789abcdef" || imported.GetFpeFormat().GetVersionPrefixLength() != 1 || imported.GetMode() != cipherdpb.Mode_MODE_FF1 {
		t.Errorf("ImportKey request's format: %v", imported.GetFpeFormat())
	}
}

func TestCreateKey_refusesAnFPEFormatThatCannotBeBeforeSending(t *testing.T) {
	f, c := serveFakeFPE(t)
	ctx := context.Background()
	ff1 := cipherd.WithKeyMode(cipherd.ModeFF1)
	cases := map[string]func() error{
		"FF1 without a format": func() error { _, err := c.CreateKey(ctx, "k", ff1); return err },
		"a format on gcm": func() error {
			_, err := c.CreateKey(ctx, "k", cipherd.WithFPEFormat(cipherd.FPEFormat{Template: cipherd.FPETemplateDigits}))
			return err
		},
		"alphabet and template": func() error {
			_, err := c.CreateKey(ctx, "k", ff1, cipherd.WithFPEFormat(cipherd.FPEFormat{Alphabet: "01", Template: cipherd.FPETemplateDigits}))
			return err
		},
		"neither": func() error {
			_, err := c.CreateKey(ctx, "k", ff1, cipherd.WithFPEFormat(cipherd.FPEFormat{}))
			return err
		},
		"import with a format on siv": func() error {
			_, err := c.ImportKey(ctx, "k", make([]byte, 64), cipherd.WithKeyMode(cipherd.ModeSIV), cipherd.WithFPEFormat(cipherd.FPEFormat{Template: cipherd.FPETemplateDigits}))
			return err
		},
		"rotate with a format": func() error {
			_, err := c.RotateKey(ctx, "k", cipherd.WithFPEFormat(cipherd.FPEFormat{Template: cipherd.FPETemplateDigits}))
			return err
		},
	}
	for name, call := range cases {
		if err := call(); !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
	if len(f.requests) != 0 {
		t.Errorf("%d requests reached the server", len(f.requests))
	}
}

func TestFPETemplates_nameEveryAPIValue(t *testing.T) {
	for value, enumName := range cipherdpb.FpeTemplate_name {
		tpl := cipherd.FPETemplate(value)
		if tpl == cipherd.FPETemplateUnspecified {
			if tpl.String() != "" {
				t.Errorf("FPE_TEMPLATE_UNSPECIFIED has name %q", tpl.String())
			}
			continue
		}
		name := tpl.String()
		if want := strings.ToLower(strings.TrimPrefix(enumName, "FPE_TEMPLATE_")); name != want {
			t.Errorf("%s.String() = %q, want %q", enumName, name, want)
		}
		if back, ok := cipherd.ParseFPETemplate(name); !ok || back != tpl {
			t.Errorf("ParseFPETemplate(%q) = %v, %v", name, back, ok)
		}
	}
	for _, bad := range []string{"", "unspecified", "DIGITS", "card"} {
		if _, ok := cipherd.ParseFPETemplate(bad); ok {
			t.Errorf("ParseFPETemplate(%q) accepted", bad)
		}
	}
}
