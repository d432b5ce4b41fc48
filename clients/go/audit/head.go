package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// genesisPrev is the prev of a trail's first line, before which there was nothing.
var genesisPrev = strings.Repeat("0", 64)

// isGenesis reports whether l is a trail's very first line: seq 0, a new start, chained to nothing.
func isGenesis(l line) bool {
	return l.Type == "start" && l.Why == "new" && *l.Seq == 0 && *l.Prev == genesisPrev
}

// checkStart judges the trail's first line: every trail, and every part retention keeps, starts
// with a start line (genesis, or a rotation's); against the head, the trail must start at genesis
// or at (or before) the anchored first line. "" when it does.
func checkStart(head *Head, first line) string {
	if first.Type != "start" {
		return fmt.Sprintf("the trail's first line, seq %d, is a %s line, not a start line: lines before it were removed", *first.Seq, first.Type)
	}
	// At the anchored first seq, its hash is judged by anchorCheck with the rest.
	if head == nil || isGenesis(first) || *first.Seq <= head.FirstSeq {
		return ""
	}
	return fmt.Sprintf("the trail starts at seq %d, but its anchor starts it at seq %d: lines before were removed%s",
		*first.Seq, head.FirstSeq, missingFiles(head, head.FirstSeq, *first.Seq-1))
}

// checkStartLine judges a start line met in the chain: a cut the server recorded at a restart, or a
// rotation line whose "from" does not name the file read before it ("" when neither).
func checkStartLine(l line, lineIndex int, prevFile string) string {
	if l.Cut != nil {
		return fmt.Sprintf("the server found the trail cut at restart: its anchor was at seq %d, the files ended at seq %d",
			l.Cut.AnchoredSeq, l.Cut.FoundSeq)
	}
	if l.Why == "rotation" && lineIndex == 0 && prevFile != "" && l.From != prevFile {
		return fmt.Sprintf("the rotation line says the trail went on from %q, but the file before it is %q: files were removed, renamed or reordered",
			l.From, prevFile)
	}
	return ""
}

// missingFiles names the files of head that hold seqs from..to, which the files given lack.
func missingFiles(head *Head, from, to int64) string {
	if head == nil {
		return ""
	}
	var missing []string
	for _, f := range head.Files {
		if f.FirstSeq <= to && f.LastSeq >= from {
			missing = append(missing, fmt.Sprintf("%s, seqs %d-%d", f.Name, f.FirstSeq, f.LastSeq))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return " (missing: " + strings.Join(missing, "; ") + ")"
}

// anchorCheck watches the chain for the lines the head names: the anchored first line (when the
// files start before it) and the anchored checkpoint, which the files must reach.
type anchorCheck struct {
	head                *Head
	lastWhere           string
	firstSeen, headSeen bool
	firstBad, headBad   string // where the line at the anchored seq is, when its hash is not the anchor's
}

func newAnchorCheck(head *Head) *anchorCheck { return &anchorCheck{head: head} }

func (a *anchorCheck) saw(seq int64, lineHash, where string) {
	a.lastWhere = where
	if a.head == nil {
		return
	}
	if seq == a.head.FirstSeq && !a.firstSeen {
		a.firstSeen = true
		if lineHash != a.head.FirstHash {
			a.firstBad = where
		}
	}
	if seq == a.head.Seq && !a.headSeen {
		a.headSeen = true
		if lineHash != a.head.Hash {
			a.headBad = where
		}
	}
}

// problem is the head's verdict once every line was seen; lastSeq is the last seq the files hold.
func (a *anchorCheck) problem(lastSeq int64) string {
	switch {
	case a.head == nil:
		return ""
	case a.firstBad != "":
		return fmt.Sprintf("%s: seq %d is not the anchored first line (its hash is not the anchor's): the trail's start was rewritten", a.firstBad, a.head.FirstSeq)
	case a.lastWhere == "":
		return fmt.Sprintf("the files hold no lines, but the trail's anchor reaches seq %d", a.head.Seq)
	case !a.headSeen:
		return fmt.Sprintf("%s: the trail ends at seq %d, before the anchored head at seq %d: lines were removed from its end",
			a.lastWhere, lastSeq, a.head.Seq)
	case a.headBad != "":
		return fmt.Sprintf("%s: the line at seq %d is not the anchored head (its hash is not the anchor's): the tail was rewritten",
			a.headBad, a.head.Seq)
	}
	return ""
}

// TrailName is the trail name the files' start lines carry (the first "trail" field found), ""
// when none carries one: the name to ask the server's head for.
func TrailName(paths []string) (string, error) {
	for _, path := range paths {
		name, err := trailNameIn(path)
		if name != "" || err != nil {
			return name, err
		}
	}
	return "", nil
}

func trailNameIn(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	lines.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for lines.Scan() {
		if !bytes.HasPrefix(lines.Bytes(), []byte(`{"type":"start"`)) {
			continue
		}
		var l line
		if json.Unmarshal(lines.Bytes(), &l) == nil && l.Trail != "" {
			return l.Trail, nil
		}
	}
	return "", nil // a line longer than the scanner's limit is no start line
}
