package main

import (
	"cmp"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/timestamppb"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// maxSourceLength is the longest DataInventory.source the API takes, in characters.
const maxSourceLength = 256

// tally is what a scan of one source (a column, or a field of some files) found: every value is
// empty, a ciphertext counted under the key version its header names (or, subject-bound, under
// its key alone: it names no version), or not a ciphertext.
type tally struct {
	source       string
	items        int64 // values read, of every kind
	empty        int64 // NULL, a missing field, or ""
	unrecognized int64 // not a cipherd ciphertext: no header, or a malformed one
	ciphertexts  map[string]map[int32]int64
	// subjectBound counts each key's subject-bound ciphertexts ("<NAME/s:MODE>"): under no version
	// of the key (their subject's key is wrapped by whichever the server's sweep keeps it under), so
	// in no inventory's versions and never below a version.
	subjectBound map[string]int64
	finished     time.Time
}

func newTally(source string) *tally {
	if utf8.RuneCountInString(source) > maxSourceLength {
		runes := []rune(source)
		source = string(runes[:maxSourceLength-1]) + "…"
	}
	return &tally{source: source, ciphertexts: map[string]map[int32]int64{}, subjectBound: map[string]int64{}}
}

// addValue counts one value. Only its header is read: a value whose header names a key version is
// counted under it whatever its payload, since retiring that version would make it unreadable.
func (t *tally) addValue(value string) {
	if value == "" {
		t.addEmpty(1)
		return
	}
	h, _, err := cipherd.ParseCiphertextHeader(value)
	if err != nil {
		t.addUnrecognized(1)
		return
	}
	if h.SubjectBound {
		t.addSubjectBound(h.KeyName, 1)
		return
	}
	t.addCiphertexts(h.KeyName, h.KeyVersion, 1)
}

func (t *tally) addSubjectBound(key string, n int64) {
	t.items += n
	t.subjectBound[key] += n
}

func (t *tally) addUnrecognized(n int64) {
	t.items += n
	t.unrecognized += n
}

func (t *tally) addEmpty(n int64) {
	t.items += n
	t.empty += n
}

func (t *tally) addCiphertexts(key string, version int32, n int64) {
	t.items += n
	versions := t.ciphertexts[key]
	if versions == nil {
		versions = map[int32]int64{}
		t.ciphertexts[key] = versions
	}
	versions[version] += n
}

// total is how many ciphertexts of any key the source holds.
func (t *tally) total() int64 { return t.items - t.empty - t.unrecognized }

// keys are the keys to report: only, when a scan is limited to one (found or not: an inventory
// that counts none of its ciphertexts is evidence too), else every key found, in name order.
func (t *tally) keys(only string) []string {
	if only != "" {
		return []string{only}
	}
	keys := maps.Clone(t.subjectBound)
	for k := range t.ciphertexts {
		keys[k] = 0
	}
	return slices.Sorted(maps.Keys(keys))
}

// versions are the key's versions found in the source, oldest first, with their counts.
func (t *tally) versions(key string) []*cipherdpb.VersionCount {
	var out []*cipherdpb.VersionCount
	for v, n := range t.ciphertexts[key] {
		out = append(out, &cipherdpb.VersionCount{Version: v, Ciphertexts: n})
	}
	slices.SortFunc(out, func(a, b *cipherdpb.VersionCount) int { return cmp.Compare(a.Version, b.Version) })
	return out
}

// inventory is the source's DataInventory of one key, as RetireKeyVersions takes it.
func (t *tally) inventory(key string) *cipherdpb.DataInventory {
	return &cipherdpb.DataInventory{KeyName: key, Source: t.source, ScanTime: timestamppb.New(t.finished),
		ItemsScanned: t.items, Versions: t.versions(key)}
}

// below is how many of the key's ciphertexts name a version older than min.
func (t *tally) below(key string, min int32) int64 {
	var n int64
	for v, count := range t.ciphertexts[key] {
		if v < min {
			n += count
		}
	}
	return n
}
