package main

import (
	"bytes"
	"errors"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// failedRecord is one line of the failures file: where a failed record is in the input and why it
// failed. It holds no ciphertext, whole or in part, and no plaintext: a record is found again by
// its line, and the server's messages name keys, never data.
type failedRecord struct {
	Record int64 `json:"record"` // its place among the input's records, from 1; a CSV header is not one
	Line   int64 `json:"line"`   // the input line it starts on, from 1
	// Kind is how the summary counts it, e.g. "decryption_failed" or "field_missing".
	Kind string `json:"kind"`
	// Reason is the server's name for the error (ItemError.reason, proto/README.md "Errors");
	// absent when the record failed here, before reaching the server.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
}

// newFailedRecord describes the failure of the record numbered n (from 1); err is the record's
// field error or its result's error.
func newFailedRecord(n int64, rec record, err error) failedRecord {
	f := failedRecord{Record: n, Line: rec.line}
	f.Kind, f.Reason, f.Message = describeFailure(err, rec.ciphertext, "<the record's ciphertext>")
	return f
}

// failureKind names an item's failure for the summary, from the client's one error table.
func failureKind(err error) string {
	var parseErr *cipherd.CiphertextError
	var callErr *cipherd.Error
	switch {
	case errors.Is(err, errFieldMissing):
		return "field_missing"
	case errors.Is(err, errContextField):
		return "context_field_missing"
	case errors.As(err, &parseErr):
		return "malformed_ciphertext"
	case errors.As(err, &callErr):
		return callErr.Kind()
	default:
		return "error"
	}
}

// line is the record's line of the failures file.
func (f failedRecord) line() ([]byte, error) {
	var b bytes.Buffer
	err := encodeLine(&b, f)
	return b.Bytes(), err
}
