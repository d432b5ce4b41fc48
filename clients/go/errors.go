package cipherd

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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

	// The lifecycle refusals (FAILED_PRECONDITION, so they match ErrFailedPrecondition too): a
	// disabled or deleted key, a version pending destruction or destroyed (its ciphertexts are gone
	// for good: never ErrDecryptionFailed), and a retirement refused because versions below it are
	// still in use (VersionsInUse lists them).
	ErrKeyDisabled                    = errors.New("cipherd: key disabled")
	ErrKeyVersionDestructionScheduled = errors.New("cipherd: key version scheduled for destruction")
	ErrKeyVersionDestroyed            = errors.New("cipherd: key version destroyed")
	ErrKeyVersionsInUse               = errors.New("cipherd: key versions in use")
	// ErrAuditUnavailable (UNAVAILABLE, so ErrUnavailable too): the server requires an audit record
	// and could not write it, so it did not serve the call.
	ErrAuditUnavailable = errors.New("cipherd: audit unavailable")
	// ErrUnexpectedKey (INVALID_ARGUMENT, so ErrInvalidArgument too): the ciphertext's header names a
	// key other than the call's WithExpectedKey, so it was refused before anything was decrypted (a
	// value planted under another key); Metadata names both ("key", "expected_key").
	ErrUnexpectedKey = errors.New("cipherd: unexpected key")
	// ErrSubjectErased (FAILED_PRECONDITION, so ErrFailedPrecondition too): the ciphertext's subject
	// was erased (EraseSubject), so its data can never be decrypted again (never ErrDecryptionFailed);
	// or an encrypt named an erased subject without WithRenewErasedSubject. Metadata names the key
	// and the erase_time (RFC 3339), never the subject.
	ErrSubjectErased = errors.New("cipherd: subject erased")
	// ErrSubjectQuotaExceeded (RESOURCE_EXHAUSTED, so ErrResourceExhausted too): this caller made new
	// subject keys faster than the server allows; subjects that already have a key still work; retry
	// later.
	ErrSubjectQuotaExceeded = errors.New("cipherd: subject quota exceeded")
	// ErrSubjectStoreNotConfigured (FAILED_PRECONDITION, so ErrFailedPrecondition too): a call with a
	// subject (or a subject-bound ciphertext, or EraseSubject) reached a server whose keys are in
	// Vault and that has no --subject-store-url, so it has no store every replica shares; the
	// operator must configure one (docs/subject-store.md). Plain calls still work.
	ErrSubjectStoreNotConfigured = errors.New("cipherd: subject store not configured")
	// ErrPlaintextImportDisabled (FAILED_PRECONDITION, so ErrFailedPrecondition too): ImportKey
	// carried key material in the clear and the server takes only material wrapped for an import
	// job (CreateImportJob), unless its operator allows plaintext import.
	ErrPlaintextImportDisabled = errors.New("cipherd: plaintext key import disabled")
	// ErrImportJobUnusable (FAILED_PRECONDITION, so ErrFailedPrecondition too): the import job named
	// is unknown, expired, already used, or made for another key; create a new one.
	ErrImportJobUnusable = errors.New("cipherd: import job unusable")
	// ErrKeyNotExportable (FAILED_PRECONDITION, so ErrFailedPrecondition too): BackupKey named a key
	// that was not made exportable (WithExportable at CreateKey, or SetKeyExportable).
	ErrKeyNotExportable = errors.New("cipherd: key not exportable")
	// ErrKeyMaterialUnusable (FAILED_PRECONDITION, so ErrFailedPrecondition too): the key version's
	// stored material did not unwrap with the server's key-encryption key; retrying does not help,
	// the server's operator must (its log says why). Metadata: key, version.
	ErrKeyMaterialUnusable = errors.New("cipherd: key material unusable")
)

// errorDomain is the ErrorInfo domain of the server's errors; an ErrorInfo of another domain is not its.
const errorDomain = "cipherd.io"

// reasonKind is what a reason of the schema maps to: the status it comes with, its sentinel, and,
// when it picks out a kind finer than its status code, that kind's name.
type reasonKind struct {
	code codes.Code // the status the reason belongs to; under another status it refines nothing
	kind error
	name string // Kind()'s name for a kind finer than the code's; "" when the code's kind is the reason's
}

// kindByReason is every reason of the schema, cipherdpb.ErrorReason (the values of ErrorInfo.reason;
// proto/README.md, "Errors"), with its status and sentinel; TestKindByReason_everyReasonOfTheSchema
// fails on a value added to the proto without a row here. A reason under another status, one this
// client's cipherdpb does not have yet, and a status without one map by the code.
var kindByReason = map[cipherdpb.ErrorReason]reasonKind{
	cipherdpb.ErrorReason_INVALID_ARGUMENT:                  {codes.InvalidArgument, ErrInvalidArgument, ""},
	cipherdpb.ErrorReason_INVALID_CIPHERTEXT:                {codes.InvalidArgument, ErrMalformedCiphertext, "malformed_ciphertext"}, // as cipherctl names a ciphertext that fails to parse locally
	cipherdpb.ErrorReason_UNEXPECTED_KEY:                    {codes.InvalidArgument, ErrUnexpectedKey, "unexpected_key"},
	cipherdpb.ErrorReason_DECRYPTION_FAILED:                 {codes.InvalidArgument, ErrDecryptionFailed, "decryption_failed"},
	cipherdpb.ErrorReason_KEY_NOT_FOUND:                     {codes.NotFound, ErrNotFound, ""},
	cipherdpb.ErrorReason_KEY_ALREADY_EXISTS:                {codes.AlreadyExists, ErrAlreadyExists, ""},
	cipherdpb.ErrorReason_POLICY_DENIED:                     {codes.FailedPrecondition, ErrFailedPrecondition, ""},
	cipherdpb.ErrorReason_KEY_DISABLED:                      {codes.FailedPrecondition, ErrKeyDisabled, "key_disabled"},
	cipherdpb.ErrorReason_KEY_VERSION_DESTRUCTION_SCHEDULED: {codes.FailedPrecondition, ErrKeyVersionDestructionScheduled, "key_version_destruction_scheduled"},
	cipherdpb.ErrorReason_KEY_VERSION_DESTROYED:             {codes.FailedPrecondition, ErrKeyVersionDestroyed, "key_version_destroyed"},
	cipherdpb.ErrorReason_KEY_VERSIONS_IN_USE:               {codes.FailedPrecondition, ErrKeyVersionsInUse, "key_versions_in_use"},
	cipherdpb.ErrorReason_CONCURRENT_UPDATE:                 {codes.Aborted, ErrAborted, ""},
	cipherdpb.ErrorReason_STORE_UNAVAILABLE:                 {codes.Unavailable, ErrUnavailable, ""},
	cipherdpb.ErrorReason_AUDIT_UNAVAILABLE:                 {codes.Unavailable, ErrAuditUnavailable, "audit_unavailable"},
	cipherdpb.ErrorReason_STORE_ACCESS_DENIED:               {codes.PermissionDenied, ErrPermissionDenied, ""},
	cipherdpb.ErrorReason_POOL_EXHAUSTED:                    {codes.ResourceExhausted, ErrResourceExhausted, ""},
	cipherdpb.ErrorReason_SERVER_BUSY:                       {codes.ResourceExhausted, ErrResourceExhausted, ""},
	cipherdpb.ErrorReason_ACCESS_DENIED:                     {codes.PermissionDenied, ErrPermissionDenied, ""},
	cipherdpb.ErrorReason_UNAUTHENTICATED:                   {codes.Unauthenticated, ErrUnauthenticated, ""},
	cipherdpb.ErrorReason_STREAM_IDLE:                       {codes.Canceled, ErrCanceled, ""},
	cipherdpb.ErrorReason_INTERNAL:                          {codes.Internal, ErrInternal, ""},
	cipherdpb.ErrorReason_SUBJECT_ERASED:                    {codes.FailedPrecondition, ErrSubjectErased, "subject_erased"},
	cipherdpb.ErrorReason_SUBJECT_QUOTA_EXCEEDED:            {codes.ResourceExhausted, ErrSubjectQuotaExceeded, "subject_quota_exceeded"},
	cipherdpb.ErrorReason_SUBJECT_STORE_NOT_CONFIGURED:      {codes.FailedPrecondition, ErrSubjectStoreNotConfigured, "subject_store_not_configured"},
	cipherdpb.ErrorReason_PLAINTEXT_IMPORT_DISABLED:         {codes.FailedPrecondition, ErrPlaintextImportDisabled, "plaintext_import_disabled"},
	cipherdpb.ErrorReason_IMPORT_JOB_UNUSABLE:               {codes.FailedPrecondition, ErrImportJobUnusable, "import_job_unusable"},
	cipherdpb.ErrorReason_KEY_NOT_EXPORTABLE:                {codes.FailedPrecondition, ErrKeyNotExportable, "key_not_exportable"},
	cipherdpb.ErrorReason_KEY_MATERIAL_UNUSABLE:             {codes.FailedPrecondition, ErrKeyMaterialUnusable, "key_material_unusable"},
}

// reasonValue is the schema's value that reason names; ERROR_REASON_UNSPECIFIED for "" and for a
// reason this client's cipherdpb does not have yet.
func reasonValue(reason string) cipherdpb.ErrorReason {
	return cipherdpb.ErrorReason(cipherdpb.ErrorReason_value[reason])
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
	// Reason is the server's name for the error, a value name of cipherdpb.ErrorReason
	// (proto/README.md, "Errors"), e.g. "KEY_NOT_FOUND" (cipherdpb.ErrorReason_KEY_NOT_FOUND.String());
	// empty when gRPC itself failed the call (a deadline, a broken connection).
	Reason  string
	Message string
	// Metadata is the ErrorInfo's metadata (proto/README.md, "Errors"): the key, version or
	// versions the error is about; nil for an item's error and when the server sent none.
	Metadata map[string]string
	kind     error
	refined  *reasonKind    // the reason's own kind; nil when the code alone decides
	status   *status.Status // the call's own status, details included; nil for an item
}

// ReasonValue is Reason as the schema's enum, for a switch the compiler checks against
// cipherdpb.ErrorReason: ERROR_REASON_UNSPECIFIED when Reason is empty or names a reason this
// client's cipherdpb does not have yet (a newer server's).
func (e *Error) ReasonValue() cipherdpb.ErrorReason { return reasonValue(e.Reason) }

func newError(code codes.Code, reason, message string) *Error {
	e := &Error{Code: code, Reason: reason, Message: message, kind: codeKind(code)}
	if r, ok := kindByReason[reasonValue(reason)]; ok && r.code == code && r.name != "" {
		e.kind, e.refined = r.kind, &r
	}
	return e
}

// codeKind is the sentinel of a status code alone; ErrInternal for a code without one of its own.
func codeKind(code codes.Code) error {
	if kind, ok := kindByCode[code]; ok {
		return kind
	}
	return ErrInternal
}

// decryptionFailedHint is what a failed decryption adds to the server's message, in every client:
// the server never says which of these it was, so a caller learns only what to check.
const decryptionFailedHint = "check that the context is the one given at encryption, byte for byte (none if none was), " +
	"that the ciphertext is intact, and that its key is this server's"

func (e *Error) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("cipherd: %s: %s", e.Code, e.Message)
	}
	if e.kind == ErrDecryptionFailed {
		return fmt.Sprintf("cipherd: %s (%s): %s (%s)", e.Code, e.Reason, e.Message, decryptionFailedHint)
	}
	return fmt.Sprintf("cipherd: %s (%s): %s", e.Code, e.Reason, e.Message)
}

// Is matches the sentinel of the error's kind; a kind its reason refines also matches the sentinel
// of its gRPC code (a failed decrypt is ErrInvalidArgument too, a disabled key ErrFailedPrecondition).
func (e *Error) Is(target error) bool {
	return target == e.kind || (e.refined != nil && target == kindByCode[e.Code])
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
	if e.refined != nil {
		return e.refined.name
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
		info := errorInfoOf(st)
		e := newError(st.Code(), info.GetReason(), st.Message())
		e.Metadata = info.GetMetadata()
		e.status = st
		return e
	}
	return err
}

// errorInfoOf is the status's cipherd ErrorInfo, or nil when it has none.
func errorInfoOf(st *status.Status) *errdetails.ErrorInfo {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == errorDomain {
			return info
		}
	}
	return nil
}

// reasonOf is the reason of the status's cipherd ErrorInfo, or "" when it has none.
func reasonOf(st *status.Status) string { return errorInfoOf(st).GetReason() }

// InventorySource is the source of the data inventory that refused a retirement (ErrKeyVersionsInUse),
// e.g. "postgres:users.email"; "" when traffic refused it, or for any other error.
func InventorySource(err error) string {
	var e *Error
	if !errors.As(err, &e) || !errors.Is(e, ErrKeyVersionsInUse) {
		return ""
	}
	return e.Metadata["source"]
}

// VersionsInUse is the versions that refused a retirement (ErrKeyVersionsInUse), ascending, from
// the error's metadata; nil for any other error.
func VersionsInUse(err error) []int32 {
	var e *Error
	if !errors.As(err, &e) || !errors.Is(e, ErrKeyVersionsInUse) || e.Metadata["versions"] == "" {
		return nil
	}
	var versions []int32
	for _, field := range strings.Split(e.Metadata["versions"], ",") {
		v, parseErr := strconv.ParseInt(strings.TrimSpace(field), 10, 32)
		if parseErr != nil {
			return nil // not the server's list: say nothing rather than something wrong
		}
		versions = append(versions, int32(v))
	}
	return versions
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
