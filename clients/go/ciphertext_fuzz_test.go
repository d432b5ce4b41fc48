package cipherd_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// FuzzParseCiphertext checks the parser on any text: it parses into a ciphertext that formats back
// to the same text, or is refused with a *CiphertextError whose message does not echo a long input.
// The seeds are every case of the shared vectors, key-bound (envelopes.json) and subject-bound
// (subject_envelopes.json, "<NAME/s:MODE>"), valid and invalid; plain `go test` runs them, `go test
// -fuzz FuzzParseCiphertext` explores from them.
func FuzzParseCiphertext(f *testing.F) {
	for _, file := range []string{"envelopes.json", "subject_envelopes.json"} {
		data, err := os.ReadFile("../../proto/testdata/" + file)
		if err != nil {
			f.Fatal(err)
		}
		var vectors struct {
			Valid, Invalid []struct {
				Ciphertext string `json:"ciphertext"`
			}
		}
		if err := json.Unmarshal(data, &vectors); err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		if len(vectors.Valid) == 0 || len(vectors.Invalid) == 0 {
			f.Fatalf("%s has no valid or no invalid cases", file)
		}
		for _, v := range append(vectors.Valid, vectors.Invalid...) {
			f.Add(v.Ciphertext)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		ct, err := cipherd.ParseCiphertext(text)
		if err != nil {
			var parseErr *cipherd.CiphertextError
			if !errors.As(err, &parseErr) || !strings.HasPrefix(err.Error(), "invalid ciphertext: ") {
				t.Fatalf("refused with %T %v, want a *CiphertextError", err, err)
			}
			if len(text) >= 16 && strings.Contains(err.Error(), text) {
				t.Fatalf("the refusal echoes its input: %v", err)
			}
			return
		}
		if ct.String() != text {
			t.Fatalf("parsed %q, formats back as %q", text, ct.String())
		}
		if ct.SubjectBound != (ct.KeyVersion == 0) || ct.SubjectBound && len(ct.Payload) <= cipherd.SubjectRefSize {
			t.Fatalf("parsed %q as %+v", text, ct)
		}
	})
}
