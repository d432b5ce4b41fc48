package main

import (
	"bufio"
	"bytes"
	"encoding/json"
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

// eraseCheckpoint is how far an erase got: every id before InputOffset was answered, its line
// written and synced to the receipts or failures file before this checkpoint was saved.
type eraseCheckpoint struct {
	Input          string         `json:"input"`
	InputSize      int64          `json:"input_size"`
	Key            string         `json:"key"`
	Receipts       string         `json:"receipts"` // "-" for stdout
	Failures       string         `json:"failures"`
	InputOffset    int64          `json:"input_offset"`
	Lines          int64          `json:"lines"` // lines before InputOffset
	FailuresOffset int64          `json:"failures_offset"`
	IDs            int64          `json:"ids"`
	Blank          int64          `json:"blank_lines"`
	Outcomes       map[string]int `json:"outcomes"` // erased, already_erased, no_key
	Failed         map[string]int `json:"failed"`   // by kind
}

func loadEraseCheckpoint(path string) (*eraseCheckpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cp eraseCheckpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("checkpoint %s is unreadable: %w", path, err)
	}
	return &cp, nil
}

func (cp *eraseCheckpoint) save(path string) error {
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	return writeFileAtomically(path, data)
}

// erasedLine is an id's line of the receipts file: its outcome, never the id.
type erasedLine struct {
	Line      int64                   `json:"line"` // the id's line in the input, from 1
	Outcome   string                  `json:"outcome"`
	EraseTime *time.Time              `json:"erase_time,omitempty"`
	Receipt   *cipherd.ErasureReceipt `json:"receipt,omitempty"`
}

// failedID is an id's line of the failures file: why it failed, never the id.
type failedID struct {
	Line    int64  `json:"line"`
	Kind    string `json:"kind"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
}

// listedID is an id read from the input, with the line it is on.
type listedID struct {
	line    int64
	subject string
}

func (j *eraseJob) run(cmd *cobra.Command, c *cipherd.Client) error {
	if j.batch < 1 || j.batch > 1000 {
		return fmt.Errorf("--batch-size must be 1 to 1000, not %d", j.batch)
	}
	if j.failuresPath == "" {
		j.failuresPath = j.from + ".failures.jsonl"
	}
	if j.checkpointPath == "" {
		j.checkpointPath = j.from + ".checkpoint"
	}
	input, err := os.Open(j.from)
	if err != nil {
		return err
	}
	defer input.Close()
	cp, receipts, failures, err := j.open(input)
	if err != nil {
		return err
	}
	defer receipts.Close()
	defer failures.Close()
	if _, err := input.Seek(cp.InputOffset, io.SeekStart); err != nil {
		return err
	}
	in := bufio.NewReaderSize(input, 1<<16)
	summary := cmd.OutOrStdout()
	if cp.Receipts == "-" {
		summary = cmd.ErrOrStderr()
	}
	for {
		batch, next, readErr := j.readBatch(in, cp)
		if len(batch) > 0 {
			if err := j.erase(cmd, c, cp, batch, receipts, failures); err != nil {
				return fmt.Errorf("subjects erase stopped after %d ids, at line %d of %s (run the same command again to resume): %w",
					cp.IDs, cp.Lines, j.from, err)
			}
		}
		cp.InputOffset, cp.Lines, cp.Blank = next.offset, next.lines, next.blank
		if err := cp.save(j.checkpointPath); err != nil {
			return err
		}
		if readErr != nil {
			if errors.Is(readErr, io.EOF) {
				break
			}
			return readErr
		}
	}
	if err := errors.Join(receipts.Close(), failures.Close()); err != nil {
		return err
	}
	if cp.FailuresOffset == 0 {
		os.Remove(cp.Failures) // nothing failed: no file to look at
	}
	os.Remove(j.checkpointPath)
	return printEraseSummary(summary, cp)
}

// readPosition is where the input's reading is: its offset, the lines and blank lines before it.
type readPosition struct {
	offset, lines, blank int64
}

// readBatch reads up to --batch-size ids after the checkpoint's position; it returns them, the
// position after them, and io.EOF at the end of the input.
func (j *eraseJob) readBatch(in *bufio.Reader, cp *eraseCheckpoint) ([]listedID, readPosition, error) {
	var batch []listedID
	at := readPosition{offset: cp.InputOffset, lines: cp.Lines, blank: cp.Blank}
	for len(batch) < j.batch {
		text, err := in.ReadString('\n')
		if text == "" && err != nil {
			return batch, at, err
		}
		at.offset += int64(len(text))
		at.lines++
		subject := strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
		if strings.TrimSpace(subject) == "" {
			at.blank++
		} else {
			batch = append(batch, listedID{line: at.lines, subject: subject})
		}
		if err != nil {
			return batch, at, err
		}
	}
	return batch, at, nil
}

// erase sends one batch and writes one line per id, to the receipts or the failures file, synced
// before the caller saves the checkpoint that counts them.
func (j *eraseJob) erase(cmd *cobra.Command, c *cipherd.Client, cp *eraseCheckpoint, batch []listedID, receipts, failures io.Writer) error {
	items := make([]cipherd.SubjectItem, len(batch))
	for i, id := range batch {
		items[i] = cipherd.SubjectItem{Reference: strconv.FormatInt(id.line, 10), Subject: id.subject}
	}
	results, err := c.EraseSubjects(cmd.Context(), j.key, items)
	if err != nil {
		return err
	}
	var receiptLines, failureLines bytes.Buffer
	for i, r := range results {
		id := batch[i]
		if r.Reference != items[i].Reference {
			return fmt.Errorf("the server answered item %q where %q was asked: nothing of this batch is recorded", r.Reference, items[i].Reference)
		}
		if r.Err != nil {
			f := failedID{Line: id.line}
			// No message of the server names a subject; should one ever, the file still does not.
			f.Kind, f.Reason, f.Message = describeFailure(r.Err, id.subject, "<the subject>")
			if err := encodeLine(&failureLines, f); err != nil {
				return err
			}
			cp.Failed[f.Kind]++
			continue
		}
		line := erasedLine{Line: id.line, Outcome: r.Erasure.Outcome.String(), Receipt: r.Erasure.Receipt}
		if !r.Erasure.EraseTime.IsZero() {
			t := r.Erasure.EraseTime.UTC()
			line.EraseTime = &t
		}
		if err := encodeLine(&receiptLines, line); err != nil {
			return err
		}
		cp.Outcomes[line.Outcome]++
	}
	if err := writeSynced(receipts, receiptLines.Bytes()); err != nil {
		return err
	}
	if err := writeSynced(failures, failureLines.Bytes()); err != nil {
		return err
	}
	cp.FailuresOffset += int64(failureLines.Len())
	cp.IDs += int64(len(batch))
	return nil
}

// open starts a fresh run (receipts and failures created, an immediate checkpoint) or resumes the
// checkpointed one: the failures file is cut back to what the checkpoint counts (those ids are sent
// again), the receipts file only to its last whole line (a receipt is never thrown away).
func (j *eraseJob) open(input *os.File) (cp *eraseCheckpoint, receipts, failures *os.File, err error) {
	info, err := input.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	abs, _ := filepath.Abs(j.from)
	receiptsAbs := j.receiptsPath
	if receiptsAbs != "-" {
		receiptsAbs, _ = filepath.Abs(j.receiptsPath)
	}
	failuresAbs, _ := filepath.Abs(j.failuresPath)
	if cp, err = loadEraseCheckpoint(j.checkpointPath); err != nil {
		return nil, nil, nil, err
	}
	fresh := cp == nil
	if fresh {
		cp = &eraseCheckpoint{Input: abs, InputSize: info.Size(), Key: j.key, Receipts: receiptsAbs, Failures: failuresAbs,
			Outcomes: map[string]int{}, Failed: map[string]int{}}
	} else if cp.Input != abs || cp.InputSize != info.Size() || cp.Key != j.key || cp.Receipts != receiptsAbs || cp.Failures != failuresAbs {
		return nil, nil, nil, fmt.Errorf("checkpoint %s was made for another input, key, --receipts or --failures; run with the same, or remove it to start over", j.checkpointPath)
	}
	if receipts, err = openReceipts(cp.Receipts, fresh, j.force); err != nil {
		return nil, nil, nil, err
	}
	if failures, err = openFailures(cp.Failures, cp.FailuresOffset, fresh, j.force); err != nil {
		return nil, nil, nil, errors.Join(err, receipts.Close())
	}
	if fresh {
		if err := cp.save(j.checkpointPath); err != nil {
			return nil, nil, nil, errors.Join(err, receipts.Close(), failures.Close())
		}
	}
	return cp, receipts, failures, nil
}

// openReceipts opens the receipts file for appending: created for a fresh run (overwritten only
// with --force), or, resumed, cut back to its last whole line. "-" is stdout.
func openReceipts(path string, fresh, force bool) (*os.File, error) {
	if path == "-" {
		return os.Stdout, nil
	}
	f, err := openJobFile(path, "receipts", fresh, force)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, truncateAt(f, int64(bytes.LastIndexByte(data, '\n')+1))
}

func printEraseSummary(out io.Writer, cp *eraseCheckpoint) error {
	failed := 0
	for _, n := range cp.Failed {
		failed += n
	}
	fmt.Fprintf(out, "ids: %d\nerased: %d\nalready erased: %d\nno key: %d\nfailed: %d\n",
		cp.IDs, cp.Outcomes["erased"], cp.Outcomes["already_erased"], cp.Outcomes["no_key"], failed)
	for _, kind := range slices.Sorted(maps.Keys(cp.Failed)) {
		fmt.Fprintf(out, "  %s: %d\n", kind, cp.Failed[kind])
	}
	if cp.Blank > 0 {
		fmt.Fprintf(out, "blank lines skipped: %d\n", cp.Blank)
	}
	if failed > 0 {
		fmt.Fprintf(out, "failed ids (line, reason, message): %s\n", cp.Failures)
		return errSomeFailed
	}
	return nil
}
