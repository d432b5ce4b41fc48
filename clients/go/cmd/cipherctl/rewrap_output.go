package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// syncedOutput is the rewrap output: buffered, and synced to disk before each checkpoint.
type syncedOutput struct {
	file   *os.File
	buf    *bufio.Writer
	offset int64 // bytes written, buffered or not
}

func (w *syncedOutput) write(p []byte) error {
	n, err := w.buf.Write(p)
	w.offset += int64(n)
	return err
}

// commit makes everything written durable, then records it in the checkpoint.
func (w *syncedOutput) commit(cp *checkpoint, path string) error {
	if err := w.buf.Flush(); err != nil {
		return err
	}
	if err := w.file.Sync(); err != nil {
		return err
	}
	cp.OutputOffset = w.offset
	return cp.save(path)
}

// write outputs one record: rewrapped, or unchanged if already current or failed, and counts it.
func (j *rewrapJob) write(w *syncedOutput, cp *checkpoint, rec record, r cipherd.Result) error {
	replacement := ""
	switch {
	case rec.fieldErr != nil:
		cp.Failed["field_missing"]++
	case r.Err != nil:
		cp.Failed[failureReason(r.Err)]++
	case r.SourceKeyVersion == r.KeyVersion && j.staysInItsKey(rec):
		cp.Current++ // keep the text: rewrapping to the same version only changes the IV
	default:
		cp.Rewrapped++
		replacement = r.Ciphertext
	}
	line, err := rec.render(replacement)
	if err != nil {
		return err
	}
	if err := w.write(line); err != nil {
		return err
	}
	cp.Records++
	cp.InputOffset = rec.end
	return nil
}

// failureReason names an item's failure for the summary, from the client's one error table.
func failureReason(err error) string {
	var parseErr *cipherd.CiphertextError
	var callErr *cipherd.Error
	switch {
	case errors.As(err, &parseErr):
		return "malformed_ciphertext"
	case errors.As(err, &callErr):
		return callErr.Kind()
	default:
		return "error"
	}
}

func printSummary(out io.Writer, cp *checkpoint) error {
	failed := 0
	for _, n := range cp.Failed {
		failed += n
	}
	fmt.Fprintf(out, "records: %d\nrewrapped: %d\nalready current: %d\nfailed: %d\n", cp.Records, cp.Rewrapped, cp.Current, failed)
	for _, reason := range slices.Sorted(maps.Keys(cp.Failed)) {
		fmt.Fprintf(out, "  %s: %d\n", reason, cp.Failed[reason])
	}
	if failed > 0 {
		return errSomeFailed
	}
	return nil
}
