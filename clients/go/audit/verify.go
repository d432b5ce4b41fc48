// Package audit checks a cipherd audit trail (docs/audit.md): every line's prev is the SHA-256 of
// the line before it, seqs run on by one across files, and each checkpoint's MAC holds under the
// audit key. The audit key never leaves the server, so checkpoint MACs are checked by a
// CheckpointCheck: CheckpointsUnder when the key is at hand (tests, an offline copy from the key
// store), or the server's answer. Without one the chain is still checked, and the verdict says the
// MACs were not.
//
// The chain alone cannot prove the trail complete at either end: lines cut from its end, or from
// its start, leave a chain that holds. The server's head (Head, anchored in its key
// store) says where the trail starts and how far it reached; given one, the files must start at
// genesis or at the anchored first line and reach the anchored checkpoint (see head.go).
package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// CheckpointCheck says whether a checkpoint line's MAC is the audit key's.
type CheckpointCheck func(seq int64, time, prev, mac string) bool

// Verdict is what the files showed.
type Verdict struct {
	// Problem is "FILE:LINE: what" for the first line blamed; empty when the chain is intact.
	Problem string
	// Calls, Checkpoints and Torn count the call records, checkpoints and lines cut short by a crash.
	Calls, Checkpoints, Torn int
	// UncheckedCalls is how many call records follow the last checkpoint (no MAC covers them yet).
	UncheckedCalls int
	// MACsChecked is false when no CheckpointCheck was given.
	MACsChecked bool
	// CompletenessChecked is false when no head was given: then the trail is intact only as far
	// as the chain goes, and lines cut from either end would pass.
	CompletenessChecked bool
	// Trail is the trail name the start lines carry ("" when they carry none).
	Trail string
}

// Intact reports whether no line was blamed.
func (v Verdict) Intact() bool { return v.Problem == "" }

const macPrefix = "hmac-sha256:"

// CheckpointsUnder checks checkpoint MACs with the audit key itself, deriving the subkey the
// server uses for checkpoints.
func CheckpointsUnder(auditKey []byte) CheckpointCheck {
	derive := hmac.New(sha256.New, auditKey)
	derive.Write([]byte("cipherd audit checkpoint v1"))
	subkey := derive.Sum(nil)
	return func(seq int64, time, prev, mac string) bool {
		m := hmac.New(sha256.New, subkey)
		fmt.Fprintf(m, "%d\n%s\n%s", seq, time, prev)
		expected := macPrefix + hex.EncodeToString(m.Sum(nil))
		return hmac.Equal([]byte(expected), []byte(mac))
	}
}

type line struct {
	Type  string  `json:"type"`
	Seq   *int64  `json:"seq"`
	Time  string  `json:"time"`
	Prev  *string `json:"prev"`
	MAC   string  `json:"mac"`
	Why   string  `json:"why"`
	From  string  `json:"from"`
	Trail string  `json:"trail"`
	Cut   *cut    `json:"cut"`
}

// cut is what a restart's start line records when the files did not reach the anchored head.
type cut struct {
	AnchoredSeq  int64  `json:"anchored_seq"`
	AnchoredHash string `json:"anchored_hash"`
	FoundSeq     int64  `json:"found_seq"`
}

// File is an audit file's name (as problems name it) and its bytes, read once.
type File struct {
	Name string
	Data []byte
}

// ReadFiles reads the files at paths, each named by its base name.
func ReadFiles(paths []string) ([]File, error) {
	files := make([]File, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: filepath.Base(p), Data: data})
	}
	return files, nil
}

// Verify checks files as one chain, oldest first (rotated files before the live one). check and
// head may be nil; without a head the trail's completeness is not checked.
func Verify(paths []string, check CheckpointCheck, head *Head) (Verdict, error) {
	files, err := ReadFiles(paths)
	if err != nil {
		return Verdict{MACsChecked: check != nil, CompletenessChecked: head != nil}, err
	}
	return VerifyFiles(files, check, head), nil
}

// VerifyFiles is Verify of files already read: a server's answers about their checkpoints then
// match the very bytes checked, however the live file grew meanwhile. With a head, the files must
// also start where it says the trail starts and reach its checkpoint.
func VerifyFiles(files []File, check CheckpointCheck, head *Head) Verdict {
	v := Verdict{MACsChecked: check != nil, CompletenessChecked: head != nil}
	var prevHash, prevWhere, prevFile string
	var prevSeq int64 = -1
	prevTorn := false // the line before was cut short: it has no seq to name
	anchors := newAnchorCheck(head)
	for _, file := range files {
		data, name := file.Data, file.Name
		if len(data) > 0 && data[len(data)-1] != '\n' {
			v.Problem = name + " does not end with a whole line"
			return v
		}
		lines := bytes.Split(data, []byte{'\n'})
		for i, raw := range lines[:len(lines)-1] {
			where := fmt.Sprintf("%s:%d", name, i+1)
			var l line
			if json.Unmarshal(raw, &l) != nil || l.Seq == nil || l.Prev == nil || l.Type == "" {
				// A line cut short by a crash; the restart's start line chains over it.
				if prevHash == "" && head != nil {
					v.Problem = where + ": the trail's first line is not a whole record: its start was cut"
					return v
				}
				v.Torn++
				prevHash, prevWhere, prevTorn = hash(raw), where, true
				continue
			}
			seq := *l.Seq
			if prevHash == "" {
				if problem := checkStart(head, l); problem != "" {
					v.Problem = where + ": " + problem
					return v
				}
			}
			inSequence := prevHash == "" || seq == prevSeq+1
			if prevHash != "" && *l.Prev != prevHash {
				switch {
				case inSequence && prevTorn:
					v.Problem = prevWhere + ": altered (its hash is not the prev of the line after it)"
				case inSequence:
					v.Problem = fmt.Sprintf("%s: seq %d altered (its hash is not the prev of the line after it)", prevWhere, prevSeq)
				default:
					v.Problem = fmt.Sprintf("%s: seq %d follows seq %d (lines removed or reordered)%s", where, seq, prevSeq, missingFiles(head, prevSeq+1, seq-1))
				}
				return v
			}
			if !inSequence {
				v.Problem = fmt.Sprintf("%s: seq %d follows seq %d%s", where, seq, prevSeq, missingFiles(head, prevSeq+1, seq-1))
				return v
			}
			if l.Type == "start" {
				if problem := checkStartLine(l, i, prevFile); problem != "" {
					v.Problem = where + ": " + problem
					return v
				}
				if v.Trail == "" {
					v.Trail = l.Trail
				}
			}
			anchors.saw(seq, hash(raw), where)
			switch l.Type {
			case "call":
				v.Calls++
				v.UncheckedCalls++
			case "checkpoint":
				if check != nil && !check(seq, l.Time, *l.Prev, l.MAC) {
					v.Problem = fmt.Sprintf("%s: checkpoint seq %d fails its MAC", where, seq)
					return v
				}
				v.Checkpoints++
				v.UncheckedCalls = 0
			}
			prevHash, prevSeq, prevWhere, prevTorn = hash(raw), seq, where, false
		}
		prevFile = name
	}
	if problem := anchors.problem(prevSeq); problem != "" {
		v.Problem = problem
	}
	return v
}

func hash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}
