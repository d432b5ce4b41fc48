package cipherd

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"slices"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// kindsByName are the error kinds of proto/testdata/errors.json as this package's sentinels.
var kindsByName = map[string]error{
	"invalid_argument":    ErrInvalidArgument,
	"decryption_failed":   ErrDecryptionFailed,
	"invalid_ciphertext":  ErrMalformedCiphertext,
	"unexpected_key":      ErrUnexpectedKey,
	"not_found":           ErrNotFound,
	"already_exists":      ErrAlreadyExists,
	"permission_denied":   ErrPermissionDenied,
	"unauthenticated":     ErrUnauthenticated,
	"failed_precondition": ErrFailedPrecondition,
	"aborted":             ErrAborted,
	"resource_exhausted":  ErrResourceExhausted,
	"unavailable":         ErrUnavailable,
	"deadline_exceeded":   ErrDeadlineExceeded,
	"cancelled":           ErrCanceled,
	"internal":            ErrInternal,

	"key_disabled":                      ErrKeyDisabled,
	"key_version_destruction_scheduled": ErrKeyVersionDestructionScheduled,
	"key_version_destroyed":             ErrKeyVersionDestroyed,
	"key_versions_in_use":               ErrKeyVersionsInUse,
	"audit_unavailable":                 ErrAuditUnavailable,
	"subject_erased":                    ErrSubjectErased,
	"subject_quota_exceeded":            ErrSubjectQuotaExceeded,
	"subject_store_not_configured":      ErrSubjectStoreNotConfigured,
	"plaintext_import_disabled":         ErrPlaintextImportDisabled,
	"import_job_unusable":               ErrImportJobUnusable,
	"key_not_exportable":                ErrKeyNotExportable,
	"key_material_unusable":             ErrKeyMaterialUnusable,
}

// TestErrorTable_everyCodeMatchesOneSentinel checks the table for the codes the real server
// cannot be made to send, and that batch items map through the same table as calls.
func TestErrorTable_everyCodeMatchesOneSentinel(t *testing.T) {
	for code := codes.OK + 1; code <= codes.Unauthenticated; code++ {
		want, ok := kindByCode[code]
		if !ok {
			want = ErrInternal
		}
		item := fromItem(&cipherdpb.ItemError{Code: int32(code), Message: "m"})
		for name, err := range map[string]error{"call": fromRPC(status.Error(code, "m")), "item": item} {
			matches := 0
			for _, s := range kindsByName {
				if errors.Is(err, s) {
					matches++
				}
			}
			if !errors.Is(err, want) || matches != 1 || status.Code(err) != code {
				t.Errorf("%s %s: %v matches %d sentinels, want only %v", name, code, err, matches, want)
			}
		}
	}
	if k := fromItem(&cipherdpb.ItemError{Code: int32(codes.PermissionDenied), Message: "m"}).Kind(); k != "permission_denied" {
		t.Errorf("Kind() = %q", k)
	}
}

// errorVector is a case of proto/testdata/errors.json: a status or item error and the kinds it maps to.
type errorVector struct {
	Name    string     `json:"name"`
	Code    codes.Code `json:"code"` // codes.Code decodes "INVALID_ARGUMENT"
	Reason  string     `json:"reason"`
	Message string     `json:"message"`
	Error   string     `json:"error"`
	Also    []string   `json:"also"`
	// Metadata is the call's ErrorInfo metadata; VersionsInUse what VersionsInUse reads from it.
	Metadata      map[string]string `json:"metadata"`
	VersionsInUse []int32           `json:"versions_in_use"`
	// InventorySource is what InventorySource reads from it ("" when absent).
	InventorySource string `json:"inventory_source"`
}

func loadErrorVectors(t *testing.T) []errorVector {
	t.Helper()
	data, err := os.ReadFile("../../proto/testdata/errors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []errorVector `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("errors.json has no cases")
	}
	return file.Cases
}

// TestErrorVectors_reasonDecidesTheKind runs every row of errors.json as a call's status (with an
// ErrorInfo when the row has a reason) and as a batch item's ItemError: the error matches the
// row's kind and its also kinds, no other kind, and keeps the code and reason.
func TestErrorVectors_reasonDecidesTheKind(t *testing.T) {
	for _, v := range loadErrorVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			want := map[error]bool{}
			for _, name := range append([]string{v.Error}, v.Also...) {
				kind, ok := kindsByName[name]
				if !ok {
					t.Fatalf("unknown error kind %q", name)
				}
				want[kind] = true
			}
			st := status.New(v.Code, v.Message)
			if v.Reason != "" {
				var err error
				info := &errdetails.ErrorInfo{Domain: errorDomain, Reason: v.Reason, Metadata: v.Metadata}
				if st, err = st.WithDetails(info); err != nil {
					t.Fatal(err)
				}
			}
			itemErr := &cipherdpb.ItemError{Code: int32(v.Code), Reason: v.Reason, Message: v.Message}
			item := newResult(&cipherdpb.DecryptBatchResult{Reference: "r", Outcome: &cipherdpb.DecryptBatchResult_Error{Error: itemErr}}).Err
			for form, err := range map[string]error{"call": fromRPC(st.Err()), "item": item} {
				for name, kind := range kindsByName {
					if errors.Is(err, kind) != want[kind] {
						t.Errorf("%s: errors.Is(%v, %s) = %t", form, err, name, !want[kind])
					}
				}
				var typed *Error
				if !errors.As(err, &typed) || typed.Code != v.Code || typed.Reason != v.Reason || status.Code(err) != v.Code {
					t.Errorf("%s: %#v, want an *Error with code %s and reason %q", form, err, v.Code, v.Reason)
				} else if got := reasonOf(typed.GRPCStatus()); got != v.Reason {
					t.Errorf("%s: its status has reason %q, want %q", form, got, v.Reason)
				}
			}
			call := fromRPC(st.Err())
			if got := call.(*Error).Metadata; !maps.Equal(got, v.Metadata) {
				t.Errorf("call: metadata %v, want %v", got, v.Metadata)
			}
			if got := VersionsInUse(call); !slices.Equal(got, v.VersionsInUse) {
				t.Errorf("call: VersionsInUse = %v, want %v", got, v.VersionsInUse)
			}
			if got := InventorySource(call); got != v.InventorySource {
				t.Errorf("call: InventorySource = %q, want %q", got, v.InventorySource)
			}
			if got := VersionsInUse(item); got != nil {
				t.Errorf("item: VersionsInUse = %v, want none (an ItemError carries no metadata)", got)
			}
		})
	}
}

// TestVersionsInUse_onlyFromItsReasonAndAWellFormedList checks that another reason's metadata, or
// a list that is not numbers, names no versions.
func TestVersionsInUse_onlyFromItsReasonAndAWellFormedList(t *testing.T) {
	for reason, list := range map[string]string{"KEY_DISABLED": "1,2", "KEY_VERSIONS_IN_USE": "1,two"} {
		st, err := status.New(codes.FailedPrecondition, "m").WithDetails(&errdetails.ErrorInfo{Domain: errorDomain, Reason: reason, Metadata: map[string]string{"versions": list}})
		if err != nil {
			t.Fatal(err)
		}
		if got := VersionsInUse(fromRPC(st.Err())); got != nil {
			t.Errorf("%s with versions %q: VersionsInUse = %v, want nil", reason, list, got)
		}
	}
}

// TestErrorVectors_otherDomainIsNotAReason checks that only cipherd's own ErrorInfo decides the kind.
func TestErrorVectors_otherDomainIsNotAReason(t *testing.T) {
	st, err := status.New(codes.InvalidArgument, "m").WithDetails(&errdetails.ErrorInfo{Domain: "example.com", Reason: "DECRYPTION_FAILED"})
	if err != nil {
		t.Fatal(err)
	}
	got := fromRPC(st.Err())
	var typed *Error
	if errors.Is(got, ErrDecryptionFailed) || !errors.Is(got, ErrInvalidArgument) || !errors.As(got, &typed) || typed.Reason != "" {
		t.Errorf("%v: another domain's reason was taken as cipherd's", got)
	}
}
