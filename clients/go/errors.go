package cipherd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Sentinel errors, one per kind of failure; test with errors.Is(err, cipherd.ErrNotFound).
var (
	ErrInvalidArgument    = errors.New("cipherd: invalid argument")
	ErrDecryptionFailed   = errors.New("cipherd: decryption failed")
	ErrNotFound           = errors.New("cipherd: not found")
	ErrAlreadyExists      = errors.New("cipherd: already exists")
	ErrPermissionDenied   = errors.New("cipherd: permission denied")
	ErrUnauthenticated    = errors.New("cipherd: unauthenticated")
	ErrFailedPrecondition = errors.New("cipherd: failed precondition")
	ErrAborted            = errors.New("cipherd: aborted")
	ErrResourceExhausted  = errors.New("cipherd: resource exhausted")
	ErrUnavailable        = errors.New("cipherd: unavailable")
	ErrDeadlineExceeded   = errors.New("cipherd: deadline exceeded")
	ErrCanceled           = errors.New("cipherd: canceled")
	ErrInternal           = errors.New("cipherd: internal error")
)

// errorDomain is the ErrorInfo domain of the server's errors; an ErrorInfo of another domain is not its.
const errorDomain = "cipherd.io"

// kindByReason is the kinds a reason picks out more finely than the status code (proto/README.md,
// "Errors"); every other reason, and a status without one, maps by its code.
var kindByReason = map[string]error{
	"DECRYPTION_FAILED":  ErrDecryptionFailed,
	"INVALID_CIPHERTEXT": ErrMalformedCiphertext,
}

// kindByCode is the one table from gRPC codes to this package's errors.
var kindByCode = map[codes.Code]error{
	codes.InvalidArgument:    ErrInvalidArgument,
	codes.OutOfRange:         ErrInvalidArgument,
	codes.NotFound:           ErrNotFound,
	codes.AlreadyExists:      ErrAlreadyExists,
	codes.PermissionDenied:   ErrPermissionDenied,
	codes.Unauthenticated:    ErrUnauthenticated,
	codes.FailedPrecondition: ErrFailedPrecondition,
	codes.Aborted:            ErrAborted,
	codes.ResourceExhausted:  ErrResourceExhausted,
	codes.Unavailable:        ErrUnavailable,
	codes.DeadlineExceeded:   ErrDeadlineExceeded,
	codes.Canceled:           ErrCanceled,
}

// Error is a failed call or batch item: its gRPC code, the server's reason and the message,
// matching one sentinel error. Tell errors apart by errors.Is or by Reason, never by Message.
type Error struct {
	Code codes.Code
	// Reason is the server's name for the error (proto/README.md, "Errors"), e.g. "KEY_NOT_FOUND";
	// empty when gRPC itself failed the call (a deadline, a broken connection).
	Reason  string
	Message string
	kind    error
	status  *status.Status // the call's own status, details included; nil for an item
}

func newError(code codes.Code, reason, message string) *Error {
	kind, ok := kindByReason[reason]
	if !ok {
		kind, ok = kindByCode[code]
	}
	if !ok {
		kind = ErrInternal
	}
	return &Error{Code: code, Reason: reason, Message: message, kind: kind}
}

func (e *Error) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("cipherd: %s: %s", e.Code, e.Message)
	}
	return fmt.Sprintf("cipherd: %s (%s): %s", e.Code, e.Reason, e.Message)
}

// Is matches the sentinel of the error's kind; a failed decrypt or a malformed ciphertext also
// matches ErrInvalidArgument, which is its gRPC code.
func (e *Error) Is(target error) bool {
	return target == e.kind ||
		(target == ErrInvalidArgument && (e.kind == ErrDecryptionFailed || e.kind == ErrMalformedCiphertext))
}

// Unwrap gives the sentinel, so errors.Is works through wrapping too.
func (e *Error) Unwrap() error { return e.kind }

// GRPCStatus lets status.FromError and status.Code see the original status, with its ErrorInfo.
func (e *Error) GRPCStatus() *status.Status {
	if e.status != nil {
		return e.status
	}
	return withReason(status.New(e.Code, e.Message), e.Reason)
}

// Kind names the error's kind for summaries and metrics, e.g. "not_found".
func (e *Error) Kind() string {
	switch e.kind {
	case ErrDecryptionFailed:
		return "decryption_failed"
	case ErrMalformedCiphertext:
		return "malformed_ciphertext" // as cipherctl names a ciphertext that fails to parse locally
	}
	return codeName(e.Code)
}

// fromRPC converts an error of a call into an *Error; nil and non-status errors pass through.
func fromRPC(err error) error {
	if err == nil {
		return nil
	}
	var typed *Error
	if errors.As(err, &typed) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		st := status.FromContextError(err)
		return newError(st.Code(), "", st.Message())
	}
	if st, ok := status.FromError(err); ok {
		e := newError(st.Code(), reasonOf(st), st.Message())
		e.status = st
		return e
	}
	return err
}

// reasonOf is the reason of the status's cipherd ErrorInfo, or "" when it has none.
func reasonOf(st *status.Status) string {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == errorDomain {
			return info.GetReason()
		}
	}
	return ""
}

// withReason adds the ErrorInfo the server would have sent with reason; "" adds none.
func withReason(st *status.Status, reason string) *status.Status {
	if reason == "" {
		return st
	}
	if detailed, err := st.WithDetails(&errdetails.ErrorInfo{Domain: errorDomain, Reason: reason}); err == nil {
		return detailed
	}
	return st
}

// fromItem converts a batch or stream item's error into an *Error (nil for none).
func fromItem(e *cipherdpb.ItemError) *Error {
	if e == nil {
		return nil
	}
	return newError(codes.Code(e.GetCode()), e.GetReason(), e.GetMessage())
}

// codeName turns codes.PermissionDenied into "permission_denied".
func codeName(code codes.Code) string {
	var b strings.Builder
	for i, r := range code.String() {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
