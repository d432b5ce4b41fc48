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

// The failures file of a resumable job (rewrap, subjects erase): one JSON line per failed input
// line, saying where it is and why it failed, never what it held. A fresh run creates it, a resumed
// one cuts it back to what its checkpoint counts, so the lines after that are written again.

// describeFailure is how a failures line names err: its kind (as the summary counts it), the
// server's reason when the server answered, and a message in which secret, should it ever appear,
// is replaced by placeholder (no server message quotes data; the file never does either way).
func describeFailure(err error, secret, placeholder string) (kind, reason, message string) {
	kind, message = failureKind(err), err.Error()
	var callErr *cipherd.Error
	if errors.As(err, &callErr) {
		reason, message = callErr.Reason, callErr.Message
	}
	if secret != "" && strings.Contains(message, secret) {
		message = strings.ReplaceAll(message, secret, placeholder)
	}
	return kind, reason, message
}

// encodeLine appends v to b as one JSON line, '<' and '>' as they are (messages quote headers).
func encodeLine(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	return enc.Encode(v) // with its '\n'
}

// openJobFile opens one of a job's output files for writing: created for a fresh run (an existing
// one overwritten only with force), kept as it is for a resumed one; what names it in the refusal.
func openJobFile(path, what string, fresh, force bool) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE
	switch {
	case !fresh:
	case force:
		flags |= os.O_TRUNC
	default:
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil && fresh && errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%w (a %s file without a checkpoint is overwritten only with --force)", err, what)
	}
	return f, err
}

// openFailures opens the failures file, positioned at offset (the bytes the checkpoint counts;
// 0 for a fresh run): what a resumed run wrote after it is cut off and written again.
func openFailures(path string, offset int64, fresh, force bool) (*os.File, error) {
	f, err := openJobFile(path, "failures", fresh, force)
	if err != nil {
		return nil, err
	}
	return f, truncateAt(f, offset)
}

// truncateAt cuts f at offset and positions it there, closing it on failure.
func truncateAt(f *os.File, offset int64) error {
	err := f.Truncate(offset)
	if err == nil {
		_, err = f.Seek(offset, io.SeekStart)
	}
	if err != nil {
		f.Close()
	}
	return err
}

// writeSynced writes data and, for a file, syncs it.
func writeSynced(w io.Writer, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		return f.Sync()
	}
	return nil
}
