package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// record is one JSONL line or CSV row of a rewrap input.
type record struct {
	ciphertext string
	fieldErr   error // the field, or one its context needs, is missing or not a string: the record is copied unchanged
	end        int64 // input offset just past the record
	line       int64 // the input line the record starts on, from 1
	endLine    int64 // the input lines up to end: where a resume at end counts on from
	// render gives the record with ciphertext in its field ("" keeps the original).
	render func(ciphertext string) ([]byte, error)
	// field gives the text of another field of the record (for a context), false when it has none.
	field func(name string) (string, bool)
}

// lookup is the text of the record's field name: a JSON string's characters or number as written,
// or a CSV cell; false when the record has no such field, or holds another JSON value there.
func (r record) lookup(name string) (string, bool) {
	if r.field == nil {
		return "", false
	}
	return r.field(name)
}

// errFieldMissing is the failure reason of a record without the field.
var errFieldMissing = errors.New("field missing or not a string")

// recordReader reads records from an input positioned at offset.
type recordReader interface {
	next() (record, error) // io.EOF after the last
}

// jsonlReader reads one JSON object per line and replaces one top-level string field.
type jsonlReader struct {
	in     *bufio.Reader
	field  string
	offset int64
	line   int64 // lines read so far, counting from the file's start
}

func (r *jsonlReader) next() (record, error) {
	line, err := r.in.ReadBytes('\n')
	if len(line) == 0 {
		return record{}, err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return record{}, err
	}
	r.offset += int64(len(line))
	r.line++
	rec := record{end: r.offset, line: r.line, endLine: r.line, render: func(string) ([]byte, error) { return line, nil }}
	start, end, value, ok := findStringField(line, r.field)
	if !ok {
		rec.fieldErr = errFieldMissing
		return rec, nil
	}
	rec.ciphertext = value
	rec.field = func(name string) (string, bool) { return jsonField(line, name) }
	rec.render = func(ct string) ([]byte, error) {
		if ct == "" {
			return line, nil
		}
		encoded, err := json.Marshal(ct)
		if err != nil {
			return nil, err
		}
		// Escaping HTML characters is json.Marshal's habit; a header's '<' and '>' read better as they are.
		encoded = bytes.ReplaceAll(bytes.ReplaceAll(encoded, []byte(`\u003c`), []byte("<")), []byte(`\u003e`), []byte(">"))
		return slices.Concat(line[:start], encoded, line[end:]), nil
	}
	return rec, nil
}

// findStringField finds the top-level field name of a JSON object and the byte range of its string value.
func findStringField(line []byte, name string) (start, end int, value string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0, 0, "", false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, 0, "", false
		}
		before := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, "", false
		}
		if key != name {
			continue
		}
		after := int(dec.InputOffset())
		if json.Unmarshal(raw, &value) != nil {
			return 0, 0, "", false
		}
		// The value's text starts at its opening quote, after the ':' and any spaces.
		start = before + bytes.IndexByte(line[before:after], '"')
		return start, after, value, true
	}
	return 0, 0, "", false
}

// jsonField is the text of the top-level field name of a JSON object: a string's characters, or a
// number as it is written.
func jsonField(line []byte, name string) (string, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return "", false
	}
	raw, ok := fields[name]
	if !ok || len(raw) == 0 {
		return "", false
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	case c == '-' || (c >= '0' && c <= '9'):
		return string(raw), true
	}
	return "", false
}

// csvReader reads CSV rows with a header row and replaces one named column.
type csvReader struct {
	in       *csv.Reader
	header   []string
	column   int
	base     int64 // offset of the reader's start in the file
	baseLine int64 // lines before the reader's start
}

// newCSVReader reads the header row of in (at the file's start) and finds column in it.
func newCSVReader(in io.Reader, column string) (*csvReader, error) {
	r := newCSV(in)
	names, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("reading the CSV header: %w", err)
	}
	idx := slices.Index(names, column)
	if idx < 0 {
		return nil, fmt.Errorf("the CSV header has no column %q", column)
	}
	return &csvReader{in: r, header: names, column: idx}, nil
}

// resumeAt continues reading from in, which is positioned at offset, after line lines.
func (r *csvReader) resumeAt(in io.Reader, offset, line int64) {
	r.in, r.base, r.baseLine = newCSV(in), offset, line
}

// headerLines is how many lines the header row takes (a quoted name may hold a line break).
func (r *csvReader) headerLines() int64 { return r.lastLine(r.header) }

// lastLine is the line, counted from the file's start, on which the row just read ends: where its
// last field starts, plus the line breaks inside that field.
func (r *csvReader) lastLine(fields []string) int64 {
	last := len(fields) - 1
	line, _ := r.in.FieldPos(last)
	return r.baseLine + int64(line) + int64(strings.Count(fields[last], "\n"))
}

func newCSV(in io.Reader) *csv.Reader {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1 // rows may differ in length; a short one fails alone
	return r
}

func (r *csvReader) next() (record, error) {
	fields, err := r.in.Read()
	if err != nil {
		return record{}, err
	}
	first, _ := r.in.FieldPos(0)
	rec := record{end: r.base + r.in.InputOffset(), line: r.baseLine + int64(first), endLine: r.lastLine(fields)}
	if r.column >= len(fields) {
		rec.fieldErr = errFieldMissing
	} else {
		rec.ciphertext = fields[r.column]
	}
	rec.field = func(name string) (string, bool) {
		i := slices.Index(r.header, name)
		if i < 0 || i >= len(fields) {
			return "", false
		}
		return fields[i], true
	}
	rec.render = func(ct string) ([]byte, error) {
		if ct != "" {
			fields[r.column] = ct
		}
		return csvLine(fields)
	}
	return rec, nil
}

func csvLine(fields []string) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(fields); err != nil {
		return nil, err
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
