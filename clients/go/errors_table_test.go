package cipherd

import (
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestErrorTable_everyCodeMatchesOneSentinel checks the table for the codes the real server
// cannot be made to send, and that batch items map through the same table as calls.
func TestErrorTable_everyCodeMatchesOneSentinel(t *testing.T) {
	sentinels := []error{ErrInvalidArgument, ErrDecryptionFailed, ErrNotFound, ErrAlreadyExists, ErrPermissionDenied,
		ErrUnauthenticated, ErrFailedPrecondition, ErrResourceExhausted, ErrUnavailable, ErrDeadlineExceeded, ErrCanceled, ErrInternal}
	for code := codes.OK + 1; code <= codes.Unauthenticated; code++ {
		want, ok := kindByCode[code]
		if !ok {
			want = ErrInternal
		}
		for name, err := range map[string]error{"call": fromRPC(status.Error(code, "m")), "item": fromItem(int32(code), "m")} {
			matches := 0
			for _, s := range sentinels {
				if errors.Is(err, s) {
					matches++
				}
			}
			if !errors.Is(err, want) || matches != 1 || status.Code(err) != code {
				t.Errorf("%s %s: %v matches %d sentinels, want only %v", name, code, err, matches, want)
			}
		}
	}
	failed := fromItem(int32(codes.InvalidArgument), decryptionFailedMessage)
	if !errors.Is(failed, ErrDecryptionFailed) || !errors.Is(failed, ErrInvalidArgument) || failed.Kind() != "decryption_failed" {
		t.Errorf("a failed decrypt is %v, kind %s", failed, failed.Kind())
	}
	if k := fromItem(int32(codes.PermissionDenied), "m").Kind(); k != "permission_denied" {
		t.Errorf("Kind() = %q", k)
	}
}
