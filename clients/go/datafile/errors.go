package datafile

import (
	"errors"
	"fmt"
)

// Sentinel errors, one per way a file can be invalid (the reasons of proto/testdata/datakey_files.json);
// test with errors.Is(err, datafile.ErrTruncated). Every *FormatError also matches ErrInvalidFile.
var (
	ErrInvalidFile   = errors.New("datafile: invalid data-key file")
	ErrHeaderInvalid = errors.New("datafile: invalid header")
	ErrTruncated     = errors.New("datafile: file ends before its last chunk")
	ErrChunkInvalid  = errors.New("datafile: chunk failed to authenticate")
)

// Reasons of a FormatError, as named in proto/testdata/datakey_files.json.
const (
	ReasonHeaderInvalid = "header_invalid"
	ReasonTruncated     = "truncated"
	ReasonChunkInvalid  = "chunk_invalid"
)

// FormatError says why a file was refused. Chunk is the index of the chunk at fault (truncated,
// chunk_invalid). It never contains file bytes, keys or plaintext.
type FormatError struct {
	Reason string
	Chunk  uint32
	Detail string
}

func (e *FormatError) Error() string {
	if e.Reason == ReasonHeaderInvalid {
		return "invalid data-key file: " + e.Detail
	}
	return fmt.Sprintf("invalid data-key file: chunk %d: %s", e.Chunk, e.Detail)
}

// Is matches ErrInvalidFile and the sentinel of the error's reason.
func (e *FormatError) Is(target error) bool {
	switch target {
	case ErrInvalidFile:
		return true
	case ErrHeaderInvalid:
		return e.Reason == ReasonHeaderInvalid
	case ErrTruncated:
		return e.Reason == ReasonTruncated
	case ErrChunkInvalid:
		return e.Reason == ReasonChunkInvalid
	}
	return false
}

func headerInvalid(detail string) error {
	return &FormatError{Reason: ReasonHeaderInvalid, Detail: detail}
}

func truncated(chunk uint32, detail string) error {
	return &FormatError{Reason: ReasonTruncated, Chunk: chunk, Detail: detail}
}

func chunkInvalid(chunk uint32) error {
	return &FormatError{Reason: ReasonChunkInvalid, Chunk: chunk, Detail: "failed to authenticate at its position"}
}
