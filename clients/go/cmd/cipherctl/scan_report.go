package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
)

// writeInventoryFile writes the inventories of key (every key found when "") to path, atomically.
func writeInventoryFile(path string, tallies []*tally, key string) (int, error) {
	file := inventoryFile{Inventories: []json.RawMessage{}}
	marshal := protojson.MarshalOptions{UseProtoNames: true}
	for _, t := range tallies {
		for _, k := range t.keys(key) {
			raw, err := marshal.Marshal(t.inventory(k))
			if err != nil {
				return 0, err
			}
			file.Inventories = append(file.Inventories, raw)
		}
		file.Sources = append(file.Sources, sourceSummary{Source: t.source, ItemsScanned: t.items,
			Ciphertexts: t.total(), Unrecognized: t.unrecognized, Empty: t.empty})
	}
	// MarshalIndent also re-indents the inventories, whose protojson spacing is deliberately unstable.
	data, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return 0, err
	}
	return len(file.Inventories), writeFileAtomically(path, append(data, '\n'))
}

// printTallies prints, per source, its values by kind and its ciphertexts per key version:
//
//	file:users.jsonl#email: 6 values: 4 ciphertexts, 1 not a ciphertext, 1 empty
//	  users-email  v1: 1  v3: 3  subject-bound: 2
func printTallies(out io.Writer, tallies []*tally, key string) error {
	for _, t := range tallies {
		fmt.Fprintf(out, "%s: %s: %s, %s, %d empty\n", t.source, plural(t.items, "value"),
			plural(t.total(), "ciphertext"), plural(t.unrecognized, "not a ciphertext", "not ciphertexts"), t.empty)
		for _, k := range t.keys(key) {
			var counts []string
			for _, v := range t.versions(k) {
				counts = append(counts, fmt.Sprintf("v%d: %d", v.Version, v.Ciphertexts))
			}
			if n := t.subjectBound[k]; n > 0 {
				counts = append(counts, fmt.Sprintf("subject-bound: %d", n))
			}
			if len(counts) == 0 {
				counts = []string{"no ciphertexts"}
			}
			if _, err := fmt.Fprintf(out, "  %s  %s\n", k, strings.Join(counts, "  ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// plural is "1 value", "2 values"; or with a plural form given, "1 not a ciphertext", "2 not ciphertexts".
func plural(n int64, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return fmt.Sprintf("%d %s", n, many[0])
	}
	return fmt.Sprintf("%d %ss", n, one)
}
