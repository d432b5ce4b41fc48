package cipherd

import (
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// TestKindByReason_everyReasonOfTheSchema checks that every value of cipherdpb.ErrorReason but the
// zero one has its row, so a reason added to error_reason.proto fails here until it maps to a kind,
// and that no row names a value the schema does not have.
func TestKindByReason_everyReasonOfTheSchema(t *testing.T) {
	for number, name := range cipherdpb.ErrorReason_name {
		reason := cipherdpb.ErrorReason(number)
		_, ok := kindByReason[reason]
		if reason == cipherdpb.ErrorReason_ERROR_REASON_UNSPECIFIED {
			if ok {
				t.Errorf("%s has a kind, but no server sends it", name)
			}
			continue
		}
		if !ok {
			t.Errorf("reason %s of error_reason.proto maps to no kind: add it to kindByReason", name)
		}
	}
	for reason := range kindByReason {
		if _, ok := cipherdpb.ErrorReason_name[int32(reason)]; !ok {
			t.Errorf("kindByReason has %d, which is no ErrorReason", reason)
		}
	}
}

// TestKindByReason_eachReasonUnderItsStatus_isItsKind checks each reason as the server sends it,
// for a call and a batch item: the error is the reason's sentinel (and its code's, when the reason
// is finer), keeps the reason as its name reads on the wire, and says its kind.
func TestKindByReason_eachReasonUnderItsStatus_isItsKind(t *testing.T) {
	for reason, want := range kindByReason {
		name := reason.String()
		if got := reasonValue(name); got != reason {
			t.Errorf("reasonValue(%q) = %v", name, got)
		}
		refines := want.kind != codeKind(want.code)
		if refines != (want.name != "") {
			t.Errorf("%s: kind %v under %s refines the code: %t, but its name is %q", name, want.kind, want.code, refines, want.name)
		}
		call := fromRPC(withReason(status.New(want.code, "m"), name).Err())
		item := fromItem(&cipherdpb.ItemError{Code: int32(want.code), Reason: name, Message: "m"})
		for form, err := range map[string]error{"call": call, "item": item} {
			var e *Error
			if !errors.As(err, &e) || e.Reason != name || e.ReasonValue() != reason || !errors.Is(err, want.kind) || !errors.Is(err, codeKind(want.code)) {
				t.Errorf("%s %s: %v, want %v (and %v) with reason %s", form, name, err, want.kind, codeKind(want.code), name)
				continue
			}
			if wantKind := want.name; wantKind == "" && e.Kind() != codeName(want.code) || wantKind != "" && e.Kind() != wantKind {
				t.Errorf("%s %s: Kind() = %q", form, name, e.Kind())
			}
		}
	}
}

// TestReasonValue_unknownOrEmpty_isUnspecified checks that a reason from a newer server, or none,
// is the zero value, so the code alone decides the kind.
func TestReasonValue_unknownOrEmpty_isUnspecified(t *testing.T) {
	for _, reason := range []string{"", "SOME_FUTURE_REASON", "decryption_failed"} {
		if got := reasonValue(reason); got != cipherdpb.ErrorReason_ERROR_REASON_UNSPECIFIED {
			t.Errorf("reasonValue(%q) = %v", reason, got)
		}
	}
	if err := newError(codes.FailedPrecondition, "SOME_FUTURE_REASON", "m"); !errors.Is(err, ErrFailedPrecondition) || err.Kind() != "failed_precondition" {
		t.Errorf("%v: an unknown reason did not fall back to the code", err)
	}
}

// TestError_ReasonValue_ofACall checks that a reason this client does not know (a
// newer server's) and a transport failure's empty one read as ERROR_REASON_UNSPECIFIED, not as a
// known reason, while the error still falls back to its code's kind.
func TestError_ReasonValue_ofACall(t *testing.T) {
	for _, reason := range []string{"", "SOME_FUTURE_REASON"} {
		var e *Error
		err := fromRPC(withReason(status.New(codes.FailedPrecondition, "m"), reason).Err())
		if !errors.As(err, &e) || e.ReasonValue() != cipherdpb.ErrorReason_ERROR_REASON_UNSPECIFIED || !errors.Is(err, ErrFailedPrecondition) {
			t.Errorf("reason %q: %v, ReasonValue %v", reason, err, e.ReasonValue())
		}
	}
}
