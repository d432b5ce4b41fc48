package audit

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vectors is proto/testdata/audit/audit.json, the cases every audit verifier runs.
type vectors struct {
	AuditKeyHex string `json:"audit_key_hex"`
	Cases       []struct {
		Name         string   `json:"name"`
		Files        []string `json:"files"`
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
			got, err := Verify(files, CheckpointsUnder(key))
			if err != nil {
				t.Fatal(err)
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

func TestVerify_withoutTheKey_checksTheChainOnly(t *testing.T) {
	forged, err := Verify([]string{filepath.Join(dir, "forged.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	edited, err := Verify([]string{filepath.Join(dir, "edited.log")}, nil)
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
	got, err := Verify([]string{filepath.Join(dir, "edited.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "edited.log:3: seq 2 altered (its hash is not the prev of the line after it)"; got.Problem != want {
		t.Errorf("problem = %q, want %q", got.Problem, want)
	}
}
