package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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
	f := failedRecord{Record: n, Line: rec.line, Kind: failureKind(err), Message: err.Error()}
	var callErr *cipherd.Error
	if errors.As(err, &callErr) {
		f.Reason, f.Message = callErr.Reason, callErr.Message
	}
	// No error names the data it failed on; should one ever quote the record's ciphertext, the
	// file still does not.
	if rec.ciphertext != "" && strings.Contains(f.Message, rec.ciphertext) {
		f.Message = strings.ReplaceAll(f.Message, rec.ciphertext, "<the record's ciphertext>")
	}
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

// line is the record's line of the failures file, '<' and '>' as they are (messages quote headers).
func (f failedRecord) line() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(f) // with its '\n'
	return b.Bytes(), err
}

// openFailures opens the failures file: created afresh for a new run (overwriting only with
// --force, as the output), or cut back to what the checkpoint counts for a resumed one.
func openFailures(path string, cp *checkpoint, fresh, force bool) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE
	switch {
	case !fresh:
	case force:
		flags |= os.O_TRUNC
	default:
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		if fresh && errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%w (a failures file without a checkpoint is overwritten only with --force)", err)
		}
		return nil, err
	}
	if err := f.Truncate(cp.FailuresOffset); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(cp.FailuresOffset, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
