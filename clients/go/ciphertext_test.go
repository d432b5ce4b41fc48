package cipherd_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

type validEnvelope struct {
	Name       string `json:"name"`
	Ciphertext string `json:"ciphertext"`
	KeyName    string `json:"key_name"`
	KeyVersion int32  `json:"key_version"`
	Mode       string `json:"mode"`
	PayloadHex string `json:"payload_hex"`
	// SubjectBound is set for a subject-bound "<name/s:mode>" vector, whose key_version is 0.
	SubjectBound bool `json:"subject_bound"`
}

type invalidEnvelope struct {
	Name       string `json:"name"`
	Ciphertext string `json:"ciphertext"`
	Reason     string `json:"reason"`
}

// envelopes is proto/testdata/envelopes.json, the format vectors every implementation runs.
type envelopes struct {
	Reasons map[string]string `json:"reasons"`
	Valid   []validEnvelope   `json:"valid"`
	Invalid []invalidEnvelope `json:"invalid"`
}

func loadEnvelopes(t *testing.T) envelopes {
	t.Helper()
	data, err := os.ReadFile("../../proto/testdata/envelopes.json")
	if err != nil {
		t.Fatal(err)
	}
	var e envelopes
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	if len(e.Valid) == 0 || len(e.Invalid) == 0 {
		t.Fatal("envelopes.json has no cases")
	}
	return e
}

func TestParseCiphertext_validEnvelopes(t *testing.T) {
	for _, c := range loadEnvelopes(t).Valid {
		t.Run(c.Name, func(t *testing.T) {
			got, err := cipherd.ParseCiphertext(c.Ciphertext)
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if got.KeyName != c.KeyName || got.KeyVersion != c.KeyVersion || cipherd.ModeName(got.Mode) != c.Mode ||
				got.SubjectBound != c.SubjectBound || hex.EncodeToString(got.Payload) != c.PayloadHex {
				t.Errorf("parsed %s/v%d:%s %x", got.KeyName, got.KeyVersion, cipherd.ModeName(got.Mode), got.Payload)
			}
			if got.String() != c.Ciphertext {
				t.Errorf("formatted back differently")
			}
		})
	}
}

func TestParseCiphertext_invalidEnvelopes(t *testing.T) {
	e := loadEnvelopes(t)
	for _, c := range e.Invalid {
		t.Run(c.Name, func(t *testing.T) {
			_, err := cipherd.ParseCiphertext(c.Ciphertext)
			var parseErr *cipherd.CiphertextError
			if !errors.As(err, &parseErr) {
				t.Fatalf("accepted or untyped error: %v", err)
			}
			if parseErr.Reason != c.Reason {
				t.Errorf("reason %q, want %q (%s)", parseErr.Reason, c.Reason, e.Reasons[c.Reason])
			}
			if !errors.Is(err, cipherd.ErrInvalidArgument) || !errors.Is(err, cipherd.ErrMalformedCiphertext) {
				t.Errorf("%v does not match ErrInvalidArgument and ErrMalformedCiphertext", err)
			}
		})
	}
}

// A header alone decides the key version a scan counts a value under: every vector that fails in
// its header fails ParseCiphertextHeader with the same reason, and every other one names its version.
func TestParseCiphertextHeader_agreesWithParseCiphertextOnEveryHeader(t *testing.T) {
	e := loadEnvelopes(t)
	for _, c := range e.Valid {
		h, payload, err := cipherd.ParseCiphertextHeader(c.Ciphertext)
		if err != nil || h.KeyName != c.KeyName || h.KeyVersion != c.KeyVersion || cipherd.ModeName(h.Mode) != c.Mode ||
			!strings.HasSuffix(c.Ciphertext, ">"+payload) {
			t.Errorf("%s: header %+v, payload %q, %v", c.Name, h, payload, err)
		}
	}
	headerFailures := 0
	for _, c := range e.Invalid {
		h, _, err := cipherd.ParseCiphertextHeader(c.Ciphertext)
		if strings.HasPrefix(c.Reason, "payload_") {
			if err != nil || h.KeyVersion < 1 && !h.SubjectBound {
				t.Errorf("%s: a payload defect, yet the header failed: %v", c.Name, err)
			}
			continue
		}
		headerFailures++
		var parseErr *cipherd.CiphertextError
		if !errors.As(err, &parseErr) || parseErr.Reason != c.Reason {
			t.Errorf("%s: %v, want reason %q", c.Name, err, c.Reason)
		}
	}
	if headerFailures == 0 {
		t.Fatal("envelopes.json has no header failures")
	}
}

func TestModeNames_everyEnumValueRoundTripsAndOnlyHmacIsNotAHeaderMode(t *testing.T) {
	for value, enumName := range cipherdpb.Mode_name {
		m := cipherd.Mode(value)
		if m == cipherd.ModeUnspecified {
			if cipherd.ModeName(m) != "" || cipherd.IsHeaderMode(m) {
				t.Errorf("MODE_UNSPECIFIED has name %q", cipherd.ModeName(m))
			}
			continue
		}
		name := cipherd.ModeName(m)
		if want := strings.ToLower(strings.TrimPrefix(enumName, "MODE_")); name != want {
			t.Errorf("ModeName(%s) = %q, want %q", enumName, name, want)
		}
		if back, ok := cipherd.ParseMode(name); !ok || back != m {
			t.Errorf("ParseMode(%q) = %v, %v", name, back, ok)
		}
		if got, want := cipherd.IsHeaderMode(m), m != cipherd.ModeHMAC && m != cipherd.ModeFF1; got != want {
			t.Errorf("IsHeaderMode(%s) = %v, want %v", enumName, got, want)
		}
	}
}
