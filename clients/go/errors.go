package cipherd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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
	ErrResourceExhausted  = errors.New("cipherd: resource exhausted")
	ErrUnavailable        = errors.New("cipherd: unavailable")
	ErrDeadlineExceeded   = errors.New("cipherd: deadline exceeded")
	ErrCanceled           = errors.New("cipherd: canceled")
	ErrInternal           = errors.New("cipherd: internal error")
)

// decryptionFailedMessage is the one message the server gives for every failed decrypt (proto/README.md).
const decryptionFailedMessage = "decryption failed"

// kindByCode is the one table from gRPC codes to this package's errors.
var kindByCode = map[codes.Code]error{
	codes.InvalidArgument:    ErrInvalidArgument,
	codes.OutOfRange:         ErrInvalidArgument,
	codes.NotFound:           ErrNotFound,
	codes.AlreadyExists:      ErrAlreadyExists,
	codes.PermissionDenied:   ErrPermissionDenied,
	codes.Unauthenticated:    ErrUnauthenticated,
	codes.FailedPrecondition: ErrFailedPrecondition,
	codes.ResourceExhausted:  ErrResourceExhausted,
	codes.Unavailable:        ErrUnavailable,
	codes.DeadlineExceeded:   ErrDeadlineExceeded,
	codes.Canceled:           ErrCanceled,
}

// Error is a failed call or batch item: its gRPC code and message, matching one sentinel error.
type Error struct {
	Code    codes.Code
	Message string
	kind    error
}

func newError(code codes.Code, message string) *Error {
	kind, ok := kindByCode[code]
	switch {
	case code == codes.InvalidArgument && message == decryptionFailedMessage:
		kind = ErrDecryptionFailed
	case !ok:
		kind = ErrInternal
	}
	return &Error{Code: code, Message: message, kind: kind}
}

func (e *Error) Error() string { return fmt.Sprintf("cipherd: %s: %s", e.Code, e.Message) }

// Is matches the sentinel of the error's kind; a failed decrypt also matches ErrInvalidArgument,
// which is its gRPC code.
func (e *Error) Is(target error) bool {
	return target == e.kind || (e.kind == ErrDecryptionFailed && target == ErrInvalidArgument)
}

// Unwrap gives the sentinel, so errors.Is works through wrapping too.
func (e *Error) Unwrap() error { return e.kind }

// GRPCStatus lets status.FromError and status.Code see the original status.
func (e *Error) GRPCStatus() *status.Status { return status.New(e.Code, e.Message) }

// Kind names the error's kind for summaries and metrics, e.g. "not_found".
func (e *Error) Kind() string {
	if e.kind == ErrDecryptionFailed {
		return "decryption_failed"
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
		return newError(st.Code(), st.Message())
	}
	if st, ok := status.FromError(err); ok {
		return newError(st.Code(), st.Message())
	}
	return err
}

// fromItem converts a batch or stream item's error into an *Error (nil for none).
func fromItem(code int32, message string) *Error {
	return newError(codes.Code(code), message)
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
