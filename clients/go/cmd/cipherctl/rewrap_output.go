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

// syncedOutput is a file a rewrap writes: buffered, and synced to disk before each checkpoint.
type syncedOutput struct {
	file   *os.File
	buf    *bufio.Writer
	offset int64 // bytes written, buffered or not
}

func newSyncedOutput(file *os.File, offset int64) *syncedOutput {
	return &syncedOutput{file: file, buf: bufio.NewWriterSize(file, 1<<18), offset: offset}
}

func (w *syncedOutput) write(p []byte) error {
	n, err := w.buf.Write(p)
	w.offset += int64(n)
	return err
}

// sync makes everything written durable.
func (w *syncedOutput) sync() error {
	if err := w.buf.Flush(); err != nil {
		return err
	}
	return w.file.Sync()
}

// rewrapOutputs are the two files a rewrap writes: the rewritten input, and the failed records.
type rewrapOutputs struct {
	out, failures *syncedOutput
}

// commit makes both files durable, then records them in the checkpoint.
func (o *rewrapOutputs) commit(cp *checkpoint, path string) error {
	if err := o.out.sync(); err != nil {
		return err
	}
	if err := o.failures.sync(); err != nil {
		return err
	}
	cp.OutputOffset, cp.FailuresOffset = o.out.offset, o.failures.offset
	return cp.save(path)
}

// finish ends a run of a resumable rewrap (rewrap, fpe rewrap) whose stream ended with err: every
// record handled so far is final and checkpointed, whether or not the run went on to the end; a
// run that did goes without its checkpoint (and its failures file, if nothing failed) and prints
// the summary.
func (o *rewrapOutputs) finish(stdout io.Writer, cp *checkpoint, checkpointPath string, prog *progress, err error) error {
	if cerr := o.commit(cp, checkpointPath); cerr != nil {
		return errors.Join(err, cerr)
	}
	if err != nil {
		return fmt.Errorf("rewrap stopped after %d records (run the same command again to resume): %w", cp.Records, err)
	}
	prog.finish()
	if err := errors.Join(o.out.file.Close(), o.failures.file.Close()); err != nil {
		return err
	}
	if cp.FailuresOffset == 0 {
		os.Remove(cp.Failures) // nothing failed: no file to look at
	}
	os.Remove(checkpointPath)
	return printSummary(stdout, cp)
}

// write outputs one record: rewrapped, or unchanged if already current or failed, and counts it;
// a failed one also gets its line in the failures file.
func (j *rewrapJob) write(o *rewrapOutputs, cp *checkpoint, rec record, r cipherd.Result) error {
	replacement := ""
	failure := rec.fieldErr
	if failure == nil {
		failure = r.Err
	}
	switch {
	case failure != nil:
		cp.Failed[failureKind(failure)]++
		line, err := newFailedRecord(cp.Records+1, rec, failure).line()
		if err == nil {
			err = o.failures.write(line)
		}
		if err != nil {
			return err
		}
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
	if err := o.out.write(line); err != nil {
		return err
	}
	cp.Records++
	cp.InputOffset, cp.InputLines = rec.end, rec.endLine
	return nil
}

// printSummary prints the counts, and names the failures file when a record failed.
func printSummary(out io.Writer, cp *checkpoint) error {
	failed := 0
	for _, n := range cp.Failed {
		failed += n
	}
	fmt.Fprintf(out, "records: %d\nrewrapped: %d\nalready current: %d\n", cp.Records, cp.Rewrapped, cp.Current)
	for _, v := range slices.Sorted(maps.Keys(cp.FromVersions)) {
		fmt.Fprintf(out, "  from version %d: %d\n", v, cp.FromVersions[v])
	}
	fmt.Fprintf(out, "failed: %d\n", failed)
	for _, reason := range slices.Sorted(maps.Keys(cp.Failed)) {
		fmt.Fprintf(out, "  %s: %d\n", reason, cp.Failed[reason])
	}
	if hint := decryptionHint(cp); hint != "" {
		fmt.Fprintf(out, "every record failed to decrypt: %s\n", hint)
	}
	if failed > 0 {
		fmt.Fprintf(out, "failed records (line, reason, message): %s\n", cp.Failures)
		return errSomeFailed
	}
	return nil
}

// hintAfter is how many records, all failed to decrypt, make a rewrap say what to check before it ends.
const hintAfter = 100

// decryptionHint says what to check when every record so far failed to decrypt, the sign of a
// setting that is wrong for the whole file rather than of damaged records; "" otherwise. The
// server says only that a decryption failed, never why: the hint comes from the flags alone.
func decryptionHint(cp *checkpoint) string {
	if cp.Records == 0 || int64(cp.Failed["decryption_failed"]) != cp.Records {
		return ""
	}
	switch {
	case cp.LegacyKey != "":
		return "check that --legacy-key " + cp.LegacyKey + " is the key the data was encrypted with (imported with the right --legacy-cipher and --legacy-iv) and that --legacy-encoding " +
			cp.LegacyEncoding + " is how the field writes it; a context plays no part in decrypting legacy data, it binds the new ciphertext"
	case cp.contextFlags == contextFlags{}:
		return "if the data was encrypted with a context, pass the same one (--context, --context-field or --context-hex); " +
			"otherwise check that the field holds intact ciphertexts of this server's keys"
	}
	return "check that " + cp.contextFlags.describe() + " gives exactly the context the data was encrypted with (the same text, fields and bytes), " +
		"and that the field holds intact ciphertexts of this server's keys"
}
