package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The formats scan reads files in: one value per line, or fields of JSON objects (one per line,
// or a file of objects or an array of them), or columns of a CSV file with a header row.
const (
	formatLines = "lines"
	formatJSONL = "jsonl"
	formatJSON  = "json"
	formatCSV   = "csv"
)

// lineHeadBytes is how much of a plain line scan keeps: more than the longest header (84 bytes:
// '<', a 64-character name, "/v" and 9 digits, ':', "chacha", '>'), so a long value's rest is skipped.
const lineHeadBytes = 128

// fileScan is one file argument of scan: a file, a directory (every file under it), a glob, or "-"
// for stdin, with the fields counted in it (none for plain lines), each its own source.
type fileScan struct {
	arg    string
	format string // "" for each file's extension
	fields []string
	stdin  io.Reader
}

// tallies are the scan's sources: "file:ARG#FIELD" per field, or "file:ARG" for plain lines.
func (f *fileScan) tallies() []*tally {
	name := "file:" + f.arg
	if f.arg == "-" {
		name = "stdin"
	}
	if len(f.fields) == 0 {
		return []*tally{newTally(name)}
	}
	var out []*tally
	for _, field := range f.fields {
		out = append(out, newTally(name+"#"+field))
	}
	return out
}

// run counts the values of every file of the argument into tallies (one per field). Stdin is
// plain lines, or JSONL with --field, unless --format says otherwise.
func (f *fileScan) run(ctx context.Context, tallies []*tally) error {
	if f.arg == "-" {
		format := f.format
		if format == "" && len(f.fields) == 0 {
			format = formatLines
		} else if format == "" {
			format = formatJSONL
		}
		return f.read(ctx, "stdin", format, f.stdin, tallies)
	}
	paths, err := expandFileArg(f.arg)
	if err != nil {
		return err
	}
	for _, path := range paths {
		format := f.format
		if format == "" {
			format = formatOf(path)
		}
		if err := f.scanFile(ctx, path, format, tallies); err != nil {
			return err
		}
	}
	return nil
}

func (f *fileScan) scanFile(ctx context.Context, path, format string, tallies []*tally) error {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	return f.read(ctx, path, format, in, tallies)
}

func (f *fileScan) read(ctx context.Context, name, format string, in io.Reader, tallies []*tally) error {
	switch {
	case format == formatLines && len(f.fields) > 0:
		return fmt.Errorf("%s: --field needs a .jsonl, .json or .csv file (or --format jsonl|json|csv); a plain file holds one value per line", name)
	case format != formatLines && len(f.fields) == 0:
		return fmt.Errorf("%s is %s: name the field or column that holds the ciphertexts with --field (--format lines reads it as one value per line)", name, format)
	}
	var err error
	switch format {
	case formatLines:
		err = scanLines(ctx, in, tallies[0])
	case formatJSONL:
		err = scanJSONL(ctx, in, f.fields, tallies)
	case formatJSON:
		err = scanJSON(ctx, in, f.fields, tallies)
	case formatCSV:
		err = scanCSV(ctx, in, f.fields, tallies)
	default:
		err = fmt.Errorf("--format must be lines, jsonl, json or csv, not %q", format)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return err
}

// formatOf is a file's format by its extension: .jsonl and .ndjson, .json, .csv, else plain lines.
func formatOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		return formatJSONL
	case ".json":
		return formatJSON
	case ".csv":
		return formatCSV
	}
	return formatLines
}

// expandFileArg is the files an argument names: itself, every regular file under a directory (in
// lexical order), or the matches of a glob the shell left alone.
func expandFileArg(arg string) ([]string, error) {
	info, err := os.Stat(arg)
	if errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(arg, "*?[") {
		matches, gerr := filepath.Glob(arg)
		if gerr != nil {
			return nil, fmt.Errorf("%s: %w", arg, gerr)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s: no file matches", arg)
		}
		var paths []string
		for _, m := range matches {
			more, err := expandFileArg(m)
			if err != nil {
				return nil, err
			}
			paths = append(paths, more...)
		}
		return paths, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{arg}, nil
	}
	var paths []string
	err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			paths = append(paths, path)
		}
		return nil
	})
	if err == nil && len(paths) == 0 {
		err = fmt.Errorf("%s: no files in the directory", arg)
	}
	return paths, err
}

// every is how many values a scan reads between looks at its context (Ctrl-C).
const every = 4096

func stopped(ctx context.Context, n int64) error {
	if n%every == 0 {
		return ctx.Err()
	}
	return nil
}

// scanLines counts one value per line, reading only each line's head; a line break may be \n or
// \r\n, and the last line needs none.
func scanLines(ctx context.Context, in io.Reader, t *tally) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for n := int64(1); ; n++ {
		head, err := nextLineHead(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		t.addValue(head)
		if err := stopped(ctx, n); err != nil {
			return err
		}
	}
}

// nextLineHead returns the first lineHeadBytes of the next line without its line break, and skips
// the rest of the line; io.EOF when no line is left.
func nextLineHead(r *bufio.Reader) (string, error) {
	var head []byte
	read := 0
	for {
		chunk, err := r.ReadSlice('\n')
		read += len(chunk)
		if room := lineHeadBytes - len(head); room > 0 {
			head = append(head, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		if read == 0 {
			return "", io.EOF
		}
		head = bytes.TrimSuffix(head, []byte("\n"))
		return string(bytes.TrimSuffix(head, []byte("\r"))), nil
	}
}

// scanJSONL counts the fields of one JSON object per line; blank lines are skipped.
func scanJSONL(ctx context.Context, in io.Reader, fields []string, tallies []*tally) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for n := int64(1); ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			countFields(line, fields, tallies)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := stopped(ctx, n); err != nil {
			return err
		}
	}
}

// scanJSON counts the fields of the objects of a JSON file: one array of objects, or objects one
// after another.
func scanJSON(ctx context.Context, in io.Reader, fields []string, tallies []*tally) error {
	r := bufio.NewReaderSize(in, 64<<10)
	dec := json.NewDecoder(r)
	first, err := firstNonSpace(r)
	if err != nil {
		return err
	}
	inArray := first == '['
	if inArray {
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
	for n := int64(1); !inArray || dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if !inArray && errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("value %d: %w", n, err)
		}
		countFields(raw, fields, tallies)
		if err := stopped(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// firstNonSpace peeks at the first byte of r that is not JSON whitespace; io.EOF reads as no value.
func firstNonSpace(r *bufio.Reader) (byte, error) {
	for {
		b, err := r.Peek(1)
		if errors.Is(err, io.EOF) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if !slices.Contains([]byte(" \t\r\n"), b[0]) {
			return b[0], nil
		}
		r.ReadByte()
	}
}

// countFields counts each field of one JSON object into its tally: a string by its header, null or
// a missing field as empty, any other value (or a text that is no JSON object) as not a ciphertext.
func countFields(object []byte, fields []string, tallies []*tally) {
	var values map[string]json.RawMessage
	isObject := json.Unmarshal(object, &values) == nil && values != nil
	for i, field := range fields {
		raw, found := values[field]
		var s string
		switch {
		case !isObject:
			tallies[i].addUnrecognized(1)
		case !found || string(raw) == "null":
			tallies[i].addEmpty(1)
		case json.Unmarshal(raw, &s) == nil:
			tallies[i].addValue(s)
		default:
			tallies[i].addUnrecognized(1)
		}
	}
}

// scanCSV counts the named columns of a CSV file with a header row; a row too short for a
// column is empty there.
func scanCSV(ctx context.Context, in io.Reader, fields []string, tallies []*tally) error {
	r := newCSV(bufio.NewReaderSize(in, 64<<10))
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("reading the CSV header: %w", err)
	}
	columns := make([]int, len(fields))
	for i, field := range fields {
		if columns[i] = slices.Index(header, field); columns[i] < 0 {
			return fmt.Errorf("the CSV header has no column %q", field)
		}
	}
	for n := int64(1); ; n++ {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for i, col := range columns {
			if col < len(row) {
				tallies[i].addValue(row[col])
			} else {
				tallies[i].addEmpty(1)
			}
		}
		if err := stopped(ctx, n); err != nil {
			return err
		}
	}
}
