package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// fpeRewrapJob is fpe rewrap: VALUE<TAB>KEY_VERSION lines moved to the key's current version
// through one ReEncryptFormattedStream. With --out it is resumable as rewrap is, with the same
// checkpoint, failures file, summary and resume; without, it prints the lines as the other fpe
// commands do.
type fpeRewrapJob struct {
	lines                             fpeLineFlags
	out, checkpointPath, failuresPath string
	force                             bool
	every                             int64 // lines between checkpoints
}

func newFPERewrapCommand(conn *connection) *cobra.Command {
	job := &fpeRewrapJob{}
	cmd := &cobra.Command{
		Use:   "rewrap KEY [VALUE...] [--in FILE --out FILE]",
		Short: "Move each value to the key's current version, the plaintext never leaving the server; print VALUE<TAB>KEY_VERSION (resumable with --out)",
		Long: `rewrap streams VALUE<TAB>KEY_VERSION lines (or VALUE arguments with --key-version) through
ReEncryptFormattedStream, which moves each value to the key's current version under the same
--context, the plaintext never leaving the server, and prints each as VALUE<TAB>KEY_VERSION.

With --in FILE --out FILE it writes the moved lines to FILE and is resumable, as cipherctl rewrap
is: a checkpoint (--checkpoint, default OUT.checkpoint) counts what is written and synced, and the
same command run again after an interruption goes on after it, writing nothing twice. A line that
fails is written unchanged (its value and old version) and listed in the failures file (--failures,
default OUT.failures.jsonl: its number, kind, the server's reason and message, never its value).
Progress and the summary count the values by the version they were under.
Exit status: 0 all done, 2 some lines failed, 1 or 3 the run stopped (resume to go on).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if job.out == "" {
				source, err := job.lines.source(cmd, args[1:])
				if err != nil {
					return err
				}
				return withClient(cmd, conn, func(c *cipherd.Client) error { return job.toStdout(cmd, c, args[0], source) })
			}
			if len(args) > 1 || job.lines.in == "" || job.lines.in == "-" {
				return errors.New("--out needs --in FILE: a checkpoint resumes a file, not arguments or stdin")
			}
			if job.every < 1 {
				return errors.New("--checkpoint-every must be at least 1")
			}
			return withClient(cmd, conn, func(c *cipherd.Client) error { return job.resumable(cmd, c, args[0]) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&job.lines.in, "in", "", "file of VALUE<TAB>KEY_VERSION lines instead of stdin")
	f.StringVar(&job.lines.context, "context", "", "where the values live (e.g. users.card_number), as they were encrypted; the moved values keep it")
	f.Int32Var(&job.lines.keyVersion, "key-version", -1, "the version of values given without one (as arguments, or lines without a tab); 0 for a key whose values carry a version prefix")
	f.StringVar(&job.out, "out", "", "output file, written resumably (with --in FILE); default: stdout, not resumable")
	f.StringVar(&job.checkpointPath, "checkpoint", "", "checkpoint file (default: OUT.checkpoint)")
	f.StringVar(&job.failuresPath, "failures", "", "file listing the failed lines' numbers and reasons, JSONL (default: OUT.failures.jsonl)")
	f.BoolVar(&job.force, "force", false, "overwrite an output that has no checkpoint")
	f.Int64Var(&job.every, "checkpoint-every", 1000, "lines between checkpoints")
	return cmd
}

// formattedItem is the stream item of a line, referenced by its number.
func formattedItem(l fpeLine) cipherd.FormattedItem {
	return cipherd.FormattedItem{Reference: strconv.Itoa(l.number), Ciphertext: cipherd.FormattedValue{Value: l.value, KeyVersion: l.version}}
}

// toStdout prints one line per input line, as the other fpe commands: a failed one empty, with its
// reason on stderr. A line without a version stops the run there, as it does for them.
func (j *fpeRewrapJob) toStdout(cmd *cobra.Command, c *cipherd.Client, key string, source io.Reader) error {
	if closer, ok := source.(io.Closer); ok {
		defer closer.Close()
	}
	scanner := bufio.NewScanner(source)
	scanner.Buffer(make([]byte, 64*1024), 1024*1024)
	var readErr error
	items := func(yield func(fpeLine, cipherd.FormattedItem) bool) {
		for number := 1; scanner.Scan(); number++ {
			line := fpeLine{number: number, value: strings.TrimSuffix(scanner.Text(), "\r")}
			if readErr = j.lines.readVersion(&line); readErr != nil || !yield(line, formattedItem(line)) {
				return
			}
		}
		readErr = scanner.Err()
	}
	out := bufio.NewWriter(cmd.OutOrStdout())
	defer out.Flush()
	failed := 0
	err := cipherd.ReEncryptFormattedStream(cmd.Context(), c, key, items, func(l fpeLine, r cipherd.FormattedResult) error {
		if r.Err != nil {
			failed++
			fmt.Fprintf(cmd.ErrOrStderr(), "line %d: %v\n", l.number, r.Err)
			_, err := fmt.Fprintln(out)
			return err
		}
		_, err := fmt.Fprintln(out, versioned(r.Value))
		return err
	}, cipherd.WithValueContext([]byte(j.lines.context)))
	if err := errors.Join(err, readErr); err != nil {
		return err
	}
	if failed > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d values failed\n", failed)
		return errSomeFailed
	}
	return nil
}

// fpeRecord is a line of a resumable fpe rewrap and where it ends in the input.
type fpeRecord struct {
	fpeLine
	end int64
}

// fpeLineReader reads lines from an input positioned at offset, after line lines.
type fpeLineReader struct {
	in           *bufio.Reader
	offset, line int64
}

func (r *fpeLineReader) next() (fpeRecord, error) {
	raw, err := r.in.ReadBytes('\n')
	if len(raw) == 0 {
		return fpeRecord{}, err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fpeRecord{}, err
	}
	r.offset += int64(len(raw))
	r.line++
	text := strings.TrimSuffix(strings.TrimSuffix(string(raw), "\n"), "\r")
	return fpeRecord{fpeLine: fpeLine{number: int(r.line), value: text}, end: r.offset}, nil
}

func (j *fpeRewrapJob) resumable(cmd *cobra.Command, c *cipherd.Client, key string) error {
	if j.checkpointPath == "" {
		j.checkpointPath = j.out + ".checkpoint"
	}
	if j.failuresPath == "" {
		j.failuresPath = j.out + ".failures.jsonl"
	}
	input, err := os.Open(j.lines.in)
	if err != nil {
		return err
	}
	defer input.Close()
	w, cp, lines, err := j.open(input, key)
	if err != nil {
		return err
	}
	defer w.out.file.Close()
	defer w.failures.file.Close()
	prog := newProgress(cmd.ErrOrStderr(), cp.InputSize)
	prog.detail = func() string { return describeVersions(cp.FromVersions) }
	var readErr error
	items := func(yield func(fpeRecord, cipherd.FormattedItem) bool) {
		for {
			rec, err := lines.next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					readErr = err
				}
				return
			}
			if readErr = j.lines.readVersion(&rec.fpeLine); readErr != nil || !yield(rec, formattedItem(rec.fpeLine)) {
				return
			}
		}
	}
	last := time.Now()
	handle := func(rec fpeRecord, r cipherd.FormattedResult) error {
		if err := writeFormatted(w, cp, rec, r); err != nil {
			return err
		}
		prog.update(cp.InputOffset, cp.Records)
		if cp.Records%j.every == 0 || time.Since(last) > time.Second {
			last = time.Now()
			return w.commit(cp, j.checkpointPath)
		}
		return nil
	}
	err = cipherd.ReEncryptFormattedStream(cmd.Context(), c, key, items, handle, cipherd.WithValueContext([]byte(j.lines.context)))
	return w.finish(cmd.OutOrStdout(), cp, j.checkpointPath, prog, errors.Join(err, readErr))
}

// open starts a fresh output and failures file (with an immediate checkpoint) or resumes the
// checkpointed ones, cut back to what the checkpoint counts.
func (j *fpeRewrapJob) open(input *os.File, key string) (*rewrapOutputs, *checkpoint, *fpeLineReader, error) {
	info, err := input.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	abs, _ := filepath.Abs(j.lines.in)
	failuresAbs, _ := filepath.Abs(j.failuresPath)
	context := contextFlags{Template: j.lines.context}
	cp, err := loadCheckpoint(j.checkpointPath)
	if err != nil {
		return nil, nil, nil, err
	}
	fresh := cp == nil
	if fresh {
		cp = &checkpoint{Input: abs, InputSize: info.Size(), To: key, contextFlags: context, Failures: failuresAbs,
			Failed: map[string]int{}, FromVersions: map[int32]int64{}}
	}
	switch {
	case cp.Input != abs || cp.InputSize != info.Size() || cp.Field != "":
		return nil, nil, nil, fmt.Errorf("checkpoint %s is for another input; remove it to start over", j.checkpointPath)
	case cp.To != key || cp.Failures != failuresAbs:
		return nil, nil, nil, fmt.Errorf("checkpoint %s was made for another key or --failures; run with the same, or remove it to start over", j.checkpointPath)
	case cp.contextFlags != context:
		return nil, nil, nil, fmt.Errorf("checkpoint %s was made with %s, this run has %s: the lines before it were moved with that context; run with the same, or remove the checkpoint to start over",
			j.checkpointPath, cp.contextFlags.describe(), context.describe())
	}
	if cp.FromVersions == nil {
		cp.FromVersions = map[int32]int64{}
	}
	var out *os.File
	if fresh {
		out, err = openJobFile(j.out, "output", true, j.force)
	} else {
		out, err = os.OpenFile(j.out, os.O_WRONLY, 0) // a resume needs the output its checkpoint counts
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if err := truncateAt(out, cp.OutputOffset); err != nil {
		return nil, nil, nil, err
	}
	failures, err := openFailures(cp.Failures, cp.FailuresOffset, fresh, j.force)
	if err != nil {
		return nil, nil, nil, errors.Join(err, out.Close())
	}
	w := &rewrapOutputs{out: newSyncedOutput(out, cp.OutputOffset), failures: newSyncedOutput(failures, cp.FailuresOffset)}
	if fresh {
		err = cp.save(j.checkpointPath)
	}
	if err == nil {
		_, err = input.Seek(cp.InputOffset, io.SeekStart)
	}
	if err != nil {
		return nil, nil, nil, errors.Join(err, out.Close(), failures.Close())
	}
	return w, cp, &fpeLineReader{in: bufio.NewReaderSize(input, 1<<18), offset: cp.InputOffset, line: cp.InputLines}, nil
}

// writeFormatted outputs one line: moved, or unchanged with its version if already current or
// failed, and counts it; a failed one also gets its line in the failures file.
func writeFormatted(o *rewrapOutputs, cp *checkpoint, rec fpeRecord, r cipherd.FormattedResult) error {
	value := cipherd.FormattedValue{Value: rec.value, KeyVersion: rec.version}
	switch {
	case r.Err != nil:
		cp.Failed[failureKind(r.Err)]++
		line, err := newFailedRecord(cp.Records+1, record{line: int64(rec.number), ciphertext: rec.value}, r.Err).line()
		if err == nil {
			err = o.failures.write(line)
		}
		if err != nil {
			return err
		}
	case r.SourceKeyVersion == r.Value.KeyVersion:
		cp.Current++ // FF1 is deterministic: the same version gives the same value
		cp.FromVersions[r.SourceKeyVersion]++
		value.KeyVersion = r.Value.KeyVersion // a prefixed value's line may have said 0
	default:
		cp.Rewrapped++
		cp.FromVersions[r.SourceKeyVersion]++
		value = r.Value
	}
	if err := o.out.write([]byte(versioned(value) + "\n")); err != nil {
		return err
	}
	cp.Records++
	cp.InputOffset, cp.InputLines = rec.end, int64(rec.number)
	return nil
}

// describeVersions is the counts by version, for progress lines: "from version 1: 900, 2: 100".
func describeVersions(counts map[int32]int64) string {
	parts := make([]string, 0, len(counts))
	for _, v := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d: %d", v, counts[v]))
	}
	if len(parts) == 0 {
		return "none moved yet"
	}
	return "from version " + strings.Join(parts, ", ")
}
