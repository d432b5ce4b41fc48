package cipherd

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Ciphertext is a parsed "<NAME/vVERSION:MODE>BASE64", or a subject-bound "<NAME/s:MODE>BASE64"
// (proto/README.md); this file is the only place the Go client knows the format.
type Ciphertext struct {
	KeyName    string
	KeyVersion int32 // 0 when SubjectBound: the header names no version
	Mode       Mode
	// SubjectBound marks a ciphertext sealed under a subject's own key (WithSubject): its Payload
	// starts with the SubjectRefSize-byte reference to that key, then the mode's payload.
	SubjectBound bool
	Payload      []byte
}

// SubjectRefSize is the length of the subject-key reference that starts a subject-bound payload:
// random bytes that name the subject's key in the server's store, never the subject itself.
const SubjectRefSize = 16

// subjectModes are the modes a subject-bound header may name.
var subjectModes = map[Mode]bool{ModeGCM: true, ModeChaCha: true, ModeXGCM: true}

// ErrMalformedCiphertext is what every ParseCiphertext error matches, besides ErrInvalidArgument.
var ErrMalformedCiphertext = errors.New("cipherd: invalid ciphertext")

// CiphertextError says which rule a ciphertext breaks (Reason is a key of envelopes.json "reasons").
// It never contains the ciphertext.
type CiphertextError struct {
	Reason string
	Detail string
}

func (e *CiphertextError) Error() string { return "invalid ciphertext: " + e.Detail }

// Is makes a parse error match ErrMalformedCiphertext and ErrInvalidArgument, as the server's would.
func (e *CiphertextError) Is(target error) bool {
	return target == ErrMalformedCiphertext || target == ErrInvalidArgument
}

// payloadRule is the payload lengths a header mode can produce: len >= minLen and
// (len - offset) % div == 0. Only modes that make ciphertexts have one.
type payloadRule struct {
	minLen, div, offset int
}

var payloadRules = map[Mode]payloadRule{
	ModeGCM:    {28, 1, 0},
	ModeChaCha: {28, 1, 0},
	ModeCBC:    {32, 16, 16},
	ModeCTR:    {16, 1, 0},
	ModeCFB:    {16, 1, 0},
	ModeOFB:    {16, 1, 0},
	ModeECB:    {16, 16, 0},
	ModeXGCM:   {40, 1, 0},
	ModeSIV:    {16, 1, 0},
}

func malformed(reason, detail string) error { return &CiphertextError{Reason: reason, Detail: detail} }

// CiphertextHeader is what a ciphertext's header "<NAME/vVERSION:MODE>" says: which key version
// and mode made it; or, for a subject-bound "<NAME/s:MODE>", which key and mode, with SubjectBound
// set and no version. Reading it needs no key and no server.
type CiphertextHeader struct {
	KeyName      string
	KeyVersion   int32 // 0 when SubjectBound
	Mode         Mode
	SubjectBound bool
}

// ParseCiphertextHeader reads only the header of text, and returns the payload's text after it
// unchecked: what a scan needs to count ciphertexts per key version. A text it accepts may still
// have a malformed payload, which ParseCiphertext rejects.
func ParseCiphertextHeader(text string) (CiphertextHeader, string, error) {
	if text == "" {
		return CiphertextHeader{}, "", malformed("empty", "ciphertext is empty")
	}
	if text[0] != '<' {
		return CiphertextHeader{}, "", malformed("header_missing", "ciphertext must start with '<'")
	}
	end := strings.IndexByte(text, '>')
	if end < 0 {
		return CiphertextHeader{}, "", malformed("header_unterminated", "header has no closing '>'")
	}
	header, payload := text[1:end], text[end+1:]
	slash, colon := strings.IndexByte(header, '/'), strings.LastIndexByte(header, ':')
	if slash < 0 || colon < slash {
		return CiphertextHeader{}, "", malformed("header_malformed", "header must be <name/vVERSION:mode>")
	}
	name, version, modeText := header[:slash], header[slash+1:colon], header[colon+1:]
	if !ValidKeyName(name) {
		return CiphertextHeader{}, "", malformed("key_name_invalid", "key name in header must match [a-z0-9][a-z0-9_-]{0,63}")
	}
	mode, modeOK := ParseMode(modeText)
	if version == "s" {
		if !modeOK || !subjectModes[mode] {
			return CiphertextHeader{}, "", malformed("mode_unknown", "mode in a subject-bound header must be one of gcm, chacha, xgcm")
		}
		return CiphertextHeader{KeyName: name, Mode: mode, SubjectBound: true}, payload, nil
	}
	v, ok := parseVersion(version)
	if !ok {
		return CiphertextHeader{}, "", malformed("version_invalid", "version in header must be v1 to v999999999, without leading zeros, or s for a subject-bound ciphertext")
	}
	if !modeOK || !IsHeaderMode(mode) {
		return CiphertextHeader{}, "", malformed("mode_unknown", "mode in header must be one of gcm, chacha, cbc, ctr, cfb, ofb, ecb, xgcm, siv")
	}
	return CiphertextHeader{KeyName: name, KeyVersion: v, Mode: mode}, payload, nil
}

// ParseCiphertext reads a ciphertext's header and payload without a call to the server.
func ParseCiphertext(text string) (Ciphertext, error) {
	h, payload, err := ParseCiphertextHeader(text)
	if err != nil {
		return Ciphertext{}, err
	}
	if payload == "" {
		return Ciphertext{}, malformed("payload_empty", "payload is empty")
	}
	raw, err := decodeCanonical(payload)
	if err != nil {
		return Ciphertext{}, err
	}
	r := payloadRules[h.Mode]
	if h.SubjectBound {
		r.minLen += SubjectRefSize // the modes a subject may use have div 1: the ref shifts nothing else
	}
	if len(raw) < r.minLen || (len(raw)-r.offset)%r.div != 0 {
		return Ciphertext{}, malformed("payload_length_invalid", fmt.Sprintf("payload length %d is impossible for %s", len(raw), h.describeMode()))
	}
	return Ciphertext{KeyName: h.KeyName, KeyVersion: h.KeyVersion, Mode: h.Mode, SubjectBound: h.SubjectBound, Payload: raw}, nil
}

// describeMode names the header's mode, and whether it is subject-bound, for a message.
func (h CiphertextHeader) describeMode() string {
	if h.SubjectBound {
		return "subject-bound " + ModeName(h.Mode)
	}
	return ModeName(h.Mode)
}

// String formats the header back to its one canonical text, "<NAME/vVERSION:MODE>" or "<NAME/s:MODE>".
func (h CiphertextHeader) String() string {
	version := "s"
	if !h.SubjectBound {
		version = "v" + strconv.Itoa(int(h.KeyVersion))
	}
	return "<" + h.KeyName + "/" + version + ":" + ModeName(h.Mode) + ">"
}

// String formats the ciphertext back to its one canonical text.
func (c Ciphertext) String() string {
	return CiphertextHeader{KeyName: c.KeyName, KeyVersion: c.KeyVersion, Mode: c.Mode, SubjectBound: c.SubjectBound}.String() +
		base64.StdEncoding.EncodeToString(c.Payload)
}

// ValidKeyName reports whether name matches [a-z0-9][a-z0-9_-]{0,63}, the rule for key names.
func ValidKeyName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '_' || c == '-')
		if !ok {
			return false
		}
	}
	return true
}

func parseVersion(text string) (int32, bool) {
	if len(text) < 2 || len(text) > 10 || text[0] != 'v' || text[1] == '0' {
		return 0, false
	}
	for _, c := range []byte(text[1:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(text[1:], 10, 32)
	return int32(v), err == nil
}

// decodeCanonical accepts padded standard base64 whose unused low bits are zero, nothing else.
func decodeCanonical(text string) ([]byte, error) {
	if len(text)%4 != 0 || strings.ContainsAny(text, "\r\n") {
		return nil, malformed("payload_not_base64", "payload must be padded standard base64")
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(text)
	if err == nil {
		return raw, nil
	}
	// Strict reports non-zero unused bits as a corrupt input too: tell the two apart.
	if lenient, lerr := base64.StdEncoding.DecodeString(text); lerr == nil && base64.StdEncoding.EncodeToString(lenient) != text {
		return nil, malformed("payload_not_canonical", "payload's last base64 digit has unused bits set")
	}
	return nil, malformed("payload_not_base64", "payload must be padded standard base64")
}
