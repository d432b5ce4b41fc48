package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// rewrapJob rewraps every ciphertext of one input file into one output file.
type rewrapJob struct {
	in, out, field, format, checkpointPath string
	failuresPath                           string // where the failed records are listed
	to                                     string // target key; "" for each ciphertext's own
	expectedKey                            string // the key (or prefix*) every ciphertext must be under
	legacyKey, legacyEncoding              string // the field holds legacy ciphertexts of legacyKey
	context                                contextFlags
	contextOf                              contextTemplate // built from context
	force                                  bool
	every                                  int64 // records between checkpoints
}

func newRewrapCommand(conn *connection) *cobra.Command {
	job := &rewrapJob{}
	cmd := &cobra.Command{
		Use:   "rewrap --in FILE --out FILE --field NAME [--to KEY] [--context TEXT | --context-field NAME | --context-hex HEX] [--legacy-key NAME --legacy-encoding hex|base64|raw]",
		Short: "Rewrap every ciphertext of a JSONL or CSV file to its key's current version, or into --to KEY (resumable)",
		Long: `rewrap streams the ciphertexts of one JSON field (JSONL) or column (CSV, with a header row)
through ReEncryptStream and writes the file again with each ciphertext behind its key's current
version, or behind --to KEY's. Plaintexts never reach this machine. Records that fail are copied
unchanged and counted by reason, and listed in the failures file (--failures, one JSON object per
line: the record's number and input line, its kind, the server's reason and message; never a
ciphertext). After an interruption, the same command resumes from the checkpoint file.

Data encrypted with a context is rewrapped with the same context, which the new ciphertext keeps:
--context TEXT gives every record one context, or a template whose {name} is the record's field
name ("users.email/{id}"; {{ and }} are braces); --context-field NAME takes the whole context from
field NAME; --context-hex HEX is one binary context. Text is sent as its UTF-8 bytes, a field as its
text (a JSON string's characters, a JSON number as written, a CSV cell). A record without the field
fails alone (context_field_missing). The checkpoint records the context: a resume needs the same.

With --legacy-key NAME the field holds data encrypted before cipherd (e.g. MySQL's
HEX(AES_ENCRYPT(...))), in --legacy-encoding (hex, base64, or raw: the field's text as bytes); it
is decrypted with the legacy key NAME (keys import --legacy-cipher) and encrypted with --to KEY,
bound to the context if one is given (legacy ciphertexts have none: the context binds the new one).
Exit status: 0 all done, 2 some records failed, 1 or 3 the run stopped (resume to go on).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withClient(cmd, conn, func(c *cipherd.Client) error { return job.run(cmd, c) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&job.in, "in", "", "input file")
	f.StringVar(&job.out, "out", "", "output file")
	f.StringVar(&job.field, "field", "", "JSON field or CSV column holding the ciphertext")
	f.StringVar(&job.format, "format", "", "jsonl or csv (default: from --in's extension)")
	f.StringVar(&job.checkpointPath, "checkpoint", "", "checkpoint file (default: OUT.checkpoint)")
	f.StringVar(&job.failuresPath, "failures", "", "file listing the failed records' lines and reasons, JSONL (default: OUT.failures.jsonl)")
	f.StringVar(&job.to, "to", "", "key to rewrap into (default: each ciphertext's own key); needed with --legacy-key")
	f.StringVar(&job.expectedKey, "expected-key", "", "refuse (as unexpected_key) a ciphertext under any key but this one, or a prefix ending in '*'")
	f.StringVar(&job.legacyKey, "legacy-key", "", "the field holds legacy ciphertexts of this imported legacy key")
	f.StringVar(&job.legacyEncoding, "legacy-encoding", "hex", "how the legacy ciphertexts are written: hex, base64 or raw")
	f.StringVar(&job.context.Template, "context", "", "context of every record: text, or a template whose {name} is the record's field name (e.g. 'users.email/{id}')")
	f.StringVar(&job.context.Field, "context-field", "", "JSON field or CSV column holding each record's context")
	f.StringVar(&job.context.Hex, "context-hex", "", "one binary context for every record, in hex")
	f.BoolVar(&job.force, "force", false, "overwrite an output that has no checkpoint")
	f.Int64Var(&job.every, "checkpoint-every", 1000, "records between checkpoints")
	for _, name := range []string{"in", "out", "field"} {
		cmd.MarkFlagRequired(name)
	}
	return cmd
}

func (j *rewrapJob) run(cmd *cobra.Command, c *cipherd.Client) error {
	if j.checkpointPath == "" {
		j.checkpointPath = j.out + ".checkpoint"
	}
	if j.failuresPath == "" {
		j.failuresPath = j.out + ".failures.jsonl"
	}
	if j.format == "" {
		j.format = strings.TrimPrefix(filepath.Ext(j.in), ".")
	}
	if j.every < 1 {
		return fmt.Errorf("--checkpoint-every must be at least 1")
	}
	if j.format != "jsonl" && j.format != "csv" {
		return fmt.Errorf("--format must be jsonl or csv, not %q", j.format)
	}
	if err := j.checkLegacy(cmd); err != nil {
		return err
	}
	contextOf, err := j.context.template()
	if err != nil {
		return err
	}
	j.contextOf = contextOf
	input, err := os.Open(j.in)
	if err != nil {
		return err
	}
	defer input.Close()
	out, failures, cp, records, err := j.open(input)
	if err != nil {
		return err
	}
	defer out.Close()
	defer failures.Close()
	w := &rewrapOutputs{out: newSyncedOutput(out, cp.OutputOffset), failures: newSyncedOutput(failures, cp.FailuresOffset)}
	prog := newProgress(cmd.ErrOrStderr(), cp.InputSize)
	var readErr error
	items := func(yield func(record, cipherd.CiphertextItem) bool) {
		for n := cp.Records; ; n++ {
			rec, err := records.next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					readErr = err
				}
				return
			}
			it := j.item(strconv.FormatInt(n, 10), &rec)
			if !yield(rec, it) {
				return
			}
		}
	}
	last := time.Now()
	hinted := false
	handle := func(rec record, r cipherd.Result) error {
		if err := j.write(w, cp, rec, r); err != nil {
			return err
		}
		if hint := decryptionHint(cp); !hinted && cp.Records >= hintAfter && hint != "" {
			hinted = true
			fmt.Fprintf(cmd.ErrOrStderr(), "\nthe first %d records all failed to decrypt: %s\n", cp.Records, hint)
		}
		prog.update(cp.InputOffset, cp.Records)
		if cp.Records%j.every == 0 || time.Since(last) > time.Second {
			last = time.Now()
			return w.commit(cp, j.checkpointPath)
		}
		return nil
	}
	err = cipherd.ReEncryptStream(cmd.Context(), c, j.to, iter.Seq2[record, cipherd.CiphertextItem](items), handle,
		cipherd.WithExpectedKey(j.expectedKey))
	return w.finish(cmd.OutOrStdout(), cp, j.checkpointPath, prog, errors.Join(err, readErr))
}

// open starts a fresh output and failures file (with an immediate checkpoint) or resumes the
// checkpointed ones.
func (j *rewrapJob) open(input *os.File) (out, failures *os.File, cp *checkpoint, records recordReader, err error) {
	info, err := input.Stat()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	abs, _ := filepath.Abs(j.in)
	failuresAbs, _ := filepath.Abs(j.failuresPath)
	cp, err = loadCheckpoint(j.checkpointPath)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if cp == nil {
		return j.start(input, &checkpoint{Input: abs, InputSize: info.Size(), Field: j.field, To: j.to,
			LegacyKey: j.legacyKey, LegacyEncoding: j.legacyEncodingIfAny(), contextFlags: j.context, Failures: failuresAbs, Failed: map[string]int{}})
	}
	if cp.Input != abs || cp.InputSize != info.Size() || cp.Field != j.field {
		return nil, nil, nil, nil, fmt.Errorf("checkpoint %s is for another input or field; remove it to start over", j.checkpointPath)
	}
	if cp.To != j.to || cp.LegacyKey != j.legacyKey || cp.LegacyEncoding != j.legacyEncodingIfAny() || cp.Failures != failuresAbs {
		return nil, nil, nil, nil, fmt.Errorf("checkpoint %s was made with other --to, --legacy-* or --failures flags; run with the same flags, or remove it to start over", j.checkpointPath)
	}
	if cp.contextFlags != j.context {
		return nil, nil, nil, nil, fmt.Errorf("checkpoint %s was made with %s, this run has %s: the records before it were rewrapped with that context; run with the same, or remove the checkpoint to start over",
			j.checkpointPath, cp.contextFlags.describe(), j.context.describe())
	}
	out, err = os.OpenFile(j.out, os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	// Bytes after the checkpoint's offset belong to records the checkpoint does not count.
	if err := out.Truncate(cp.OutputOffset); err != nil {
		return nil, nil, nil, nil, errors.Join(err, out.Close())
	}
	if _, err := out.Seek(cp.OutputOffset, io.SeekStart); err != nil {
		return nil, nil, nil, nil, errors.Join(err, out.Close())
	}
	if failures, err = openFailures(cp.Failures, cp.FailuresOffset, false, false); err != nil {
		return nil, nil, nil, nil, errors.Join(err, out.Close())
	}
	records, err = j.reader(input, cp.InputOffset, cp.InputLines)
	return out, failures, cp, records, err
}

func (j *rewrapJob) start(input *os.File, cp *checkpoint) (out, failures *os.File, _ *checkpoint, records recordReader, err error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if j.force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	out, err = os.OpenFile(j.out, flags, 0o600)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w (an output without a checkpoint is overwritten only with --force)", err)
	}
	defer func() {
		if err != nil {
			out.Close()
		}
	}()
	records, err = j.reader(input, 0, 0)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if csvIn, ok := records.(*csvReader); ok {
		// The header row is copied as it is and counted as done.
		header, err := csvLine(csvIn.header)
		if err == nil {
			_, err = out.Write(header)
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
		cp.InputOffset, cp.InputLines, cp.OutputOffset = csvIn.in.InputOffset(), csvIn.headerLines(), int64(len(header))
	}
	if err := out.Sync(); err != nil {
		return nil, nil, nil, nil, err
	}
	if failures, err = openFailures(cp.Failures, 0, true, j.force); err != nil {
		return nil, nil, nil, nil, err
	}
	if err := cp.save(j.checkpointPath); err != nil {
		return nil, nil, nil, nil, errors.Join(err, failures.Close())
	}
	return out, failures, cp, records, nil
}

// reader reads records from the input's offset, which is after line lines; a CSV header is always
// read from the start.
func (j *rewrapJob) reader(input *os.File, offset, line int64) (recordReader, error) {
	if j.format == "csv" {
		r, err := newCSVReader(input, j.field)
		if err != nil || offset == 0 {
			return r, err
		}
		if _, err := input.Seek(offset, io.SeekStart); err != nil {
			return nil, err
		}
		r.resumeAt(input, offset, line)
		return r, nil
	}
	if _, err := input.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	return &jsonlReader{in: bufio.NewReaderSize(input, 1<<18), field: j.field, offset: offset, line: line}, nil
}
