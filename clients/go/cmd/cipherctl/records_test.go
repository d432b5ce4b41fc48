package main

import (
	"bufio"
	"strings"
	"testing"
)

// csvLines is a CSV whose header, a middle field and a last field each break a line, with a blank
// line between two records: record and line numbers part ways at every turn.
const csvLines = "id,\"se\ncret\"\n" + // lines 1-2
	"1,a\n" + // line 3
	"\"2\n\",b\n" + // lines 4-5
	"3,\"c\r\nc\"\n" + // lines 6-7, a CRLF inside the quotes
	"\n" + // line 8
	"4,d\n" // line 9

type wantLines struct{ line, endLine int64 }

var csvWant = []wantLines{{3, 3}, {4, 5}, {6, 7}, {9, 9}}

func readLines(t *testing.T, r recordReader, n int) []record {
	t.Helper()
	var recs []record
	for range n {
		rec, err := r.next()
		if err != nil {
			t.Fatalf("record %d: %v", len(recs)+1, err)
		}
		recs = append(recs, rec)
	}
	return recs
}

func checkLines(t *testing.T, recs []record, want []wantLines) {
	t.Helper()
	for i, rec := range recs {
		if rec.line != want[i].line || rec.endLine != want[i].endLine {
			t.Errorf("record %d: lines %d-%d, want %d-%d", i+1, rec.line, rec.endLine, want[i].line, want[i].endLine)
		}
	}
}

func TestCSVReader_linesOfEachRecord_countHeaderBreaksAndBlankLines(t *testing.T) {
	r, err := newCSVReader(strings.NewReader(csvLines), "se\ncret")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.headerLines(); got != 2 {
		t.Errorf("header takes %d lines, want 2", got)
	}
	checkLines(t, readLines(t, r, 4), csvWant)
}

// A resumed reader starts at the checkpoint's offset and line, and counts on from there.
func TestCSVReader_resumedAfterARecord_countsOnFromItsEndLine(t *testing.T) {
	for done := 1; done < len(csvWant); done++ {
		first, err := newCSVReader(strings.NewReader(csvLines), "se\ncret")
		if err != nil {
			t.Fatal(err)
		}
		last := readLines(t, first, done)[done-1]
		r, err := newCSVReader(strings.NewReader(csvLines), "se\ncret")
		if err != nil {
			t.Fatal(err)
		}
		r.resumeAt(strings.NewReader(csvLines[last.end:]), last.end, last.endLine)
		checkLines(t, readLines(t, r, len(csvWant)-done), csvWant[done:])
	}
}

func TestJSONLReader_resumedAfterARecord_countsOnFromItsLine(t *testing.T) {
	text := "{\"ct\": \"a\"}\n\n{\"ct\": \"b\"}\n"
	r := &jsonlReader{in: bufio.NewReader(strings.NewReader(text)), field: "ct"}
	recs := readLines(t, r, 3)
	checkLines(t, recs, []wantLines{{1, 1}, {2, 2}, {3, 3}})
	resumed := &jsonlReader{in: bufio.NewReader(strings.NewReader(text[recs[0].end:])), field: "ct", offset: recs[0].end, line: recs[0].endLine}
	checkLines(t, readLines(t, resumed, 2), []wantLines{{2, 2}, {3, 3}})
}
