package audit

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// vectors is proto/testdata/audit/audit.json, the cases every audit verifier runs.
type vectors struct {
	AuditKeyHex string `json:"audit_key_hex"`
	Cases       []struct {
		Name         string   `json:"name"`
		Files        []string `json:"files"`
		Head         string   `json:"head"`
		Intact       bool     `json:"intact"`
		FirstBadLine string   `json:"first_bad_line"`
		Calls        *int     `json:"calls"`
		Checkpoints  *int     `json:"checkpoints"`
		Torn         *int     `json:"torn"`
	} `json:"cases"`
}

const dir = "../../../proto/testdata/audit"

func load(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "audit.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVerify_vectors(t *testing.T) {
	v := load(t)
	key, err := hex.DecodeString(v.AuditKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var files []string
			for _, f := range c.Files {
				files = append(files, filepath.Join(dir, f))
			}
			head := readHead(t, c.Head)
			got, err := Verify(files, CheckpointsUnder(key), head)
			if err != nil {
				t.Fatal(err)
			}
			if got.CompletenessChecked != (head != nil) {
				t.Errorf("CompletenessChecked = %v with head %q", got.CompletenessChecked, c.Head)
			}
			if got.Intact() != c.Intact {
				t.Fatalf("intact = %v (%q), want %v", got.Intact(), got.Problem, c.Intact)
			}
			if c.FirstBadLine != "" && !strings.HasPrefix(got.Problem, c.FirstBadLine+":") {
				t.Errorf("problem = %q, want it at %s", got.Problem, c.FirstBadLine)
			}
			for name, want := range map[string]*int{"calls": c.Calls, "checkpoints": c.Checkpoints, "torn": c.Torn} {
				have := map[string]int{"calls": got.Calls, "checkpoints": got.Checkpoints, "torn": got.Torn}[name]
				if want != nil && have != *want {
					t.Errorf("%s = %d, want %d", name, have, *want)
				}
			}
		})
	}
}

// readHead reads a case's head file (protojson AuditHead); nil for none.
func readHead(t *testing.T, name string) *Head {
	t.Helper()
	if name == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	head, err := ParseHead(data)
	if err != nil {
		t.Fatal(err)
	}
	return head
}

// TestVerify_namesWhatTheHeadMisses checks the problem texts of the completeness checks.
func TestVerify_namesWhatTheHeadMisses(t *testing.T) {
	intactHead, rotatedHead := readHead(t, "intact.head.json"), readHead(t, "rotated.head.json")
	for _, c := range []struct {
		files []string
		head  *Head
		want  string
	}{
		{[]string{"head-cut.log"}, intactHead, "head-cut.log:1: the trail's first line, seq 1, is a call line, not a start line: lines before it were removed"},
		{[]string{"tail-cut.log"}, intactHead, "tail-cut.log:7: the trail ends at seq 6, before the anchored head at seq 8: lines were removed from its end"},
		{[]string{"rechained.log"}, intactHead, "rechained.log:6: the trail ends at seq 5, before the anchored head at seq 8: lines were removed from its end"},
		{[]string{"rechained-padded.log"}, intactHead, "rechained-padded.log:9: the line at seq 8 is not the anchored head (its hash is not the anchor's): the tail was rewritten"},
		{[]string{"cut-recorded.log"}, nil, "cut-recorded.log:5: the server found the trail cut at restart: its anchor was at seq 8, the files ended at seq 3"},
		{[]string{"rotated.log.20261124T080000.050Z", "rotated.log"}, rotatedHead, "rotated.log.20261124T080000.050Z:1: the trail starts at seq 5, but its anchor starts it at seq 0: lines before were removed (missing: rotated.log.20261124T080000.020Z, seqs 0-4)"},
		{[]string{"rotated.log.20261124T080000.020Z", "rotated.log"}, rotatedHead, "rotated.log:1: seq 10 follows seq 4 (lines removed or reordered) (missing: rotated.log.20261124T080000.050Z, seqs 5-9)"},
		{[]string{"rotated.log.20261124T080000.020Z", "rotated.log.20261124T080000.050Z", "wrong-from.log"}, nil, `wrong-from.log:1: the rotation line says the trail went on from "rotated.log.20261124T080000.040Z", but the file before it is "rotated.log.20261124T080000.050Z": files were removed, renamed or reordered`},
		{nil, intactHead, "the files hold no lines, but the trail's anchor reaches seq 8"},
	} {
		var paths []string
		for _, f := range c.files {
			paths = append(paths, filepath.Join(dir, f))
		}
		got, err := Verify(paths, nil, c.head)
		if err != nil {
			t.Fatal(err)
		}
		if got.Problem != c.want {
			t.Errorf("%v:\n got %q\nwant %q", c.files, got.Problem, c.want)
		}
	}
}

func TestVerify_withoutTheKey_checksTheChainOnly(t *testing.T) {
	forged, err := Verify([]string{filepath.Join(dir, "forged.log")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	edited, err := Verify([]string{filepath.Join(dir, "edited.log")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !forged.Intact() || forged.MACsChecked {
		t.Errorf("forged without a key: %+v", forged)
	}
	if edited.Intact() {
		t.Errorf("edited.log verified intact without a key")
	}
}

func TestVerify_namesTheAlteredLinesSeq(t *testing.T) {
	got, err := Verify([]string{filepath.Join(dir, "edited.log")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "edited.log:3: seq 2 altered (its hash is not the prev of the line after it)"; got.Problem != want {
		t.Errorf("problem = %q, want %q", got.Problem, want)
	}
}

// TestParseHead_readsEveryField: a head file in protojson reads into every field of Head.
func TestParseHead_readsEveryField(t *testing.T) {
	head, err := ParseHead([]byte(`{"trail": "t", "seq": "8", "hash": "ab", "time": "2026-11-24T08:00:00Z", "firstSeq": "2",
		"firstHash": "cd", "files": [{"name": "a.log", "firstSeq": "2", "lastSeq": "8"}], "anchoredAt": "2026-11-24T08:00:01Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Head{Trail: "t", Seq: 8, Hash: "ab", Time: "2026-11-24T08:00:00Z", FirstSeq: 2, FirstHash: "cd",
		Files: []HeadFile{{Name: "a.log", FirstSeq: 2, LastSeq: 8}}, AnchoredAt: time.Date(2026, 11, 24, 8, 0, 1, 0, time.UTC)}
	if !reflect.DeepEqual(*head, want) {
		t.Errorf("ParseHead = %+v, want %+v", *head, want)
	}
	if _, err := ParseHead([]byte(`{"seq": "x"}`)); err == nil {
		t.Error("ParseHead accepted a malformed head")
	}
	if HeadFromProto(nil) != nil {
		t.Error("HeadFromProto(nil) is not nil")
	}
}
