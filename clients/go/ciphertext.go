package cipherd

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Ciphertext is a parsed "<NAME/vVERSION:MODE>BASE64" (proto/README.md); this file is the only
// place the Go client knows the format.
type Ciphertext struct {
	KeyName    string
	KeyVersion int32
	Mode       Mode
	Payload    []byte
}

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
// and mode made it. Reading it needs no key and no server.
type CiphertextHeader struct {
	KeyName    string
	KeyVersion int32
	Mode       Mode
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
	v, ok := parseVersion(version)
	if !ok {
		return CiphertextHeader{}, "", malformed("version_invalid", "version in header must be v1 to v999999999, without leading zeros")
	}
	mode, ok := ParseMode(modeText)
	if !ok || !IsHeaderMode(mode) {
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
	if r := payloadRules[h.Mode]; len(raw) < r.minLen || (len(raw)-r.offset)%r.div != 0 {
		return Ciphertext{}, malformed("payload_length_invalid", fmt.Sprintf("payload length %d is impossible for %s", len(raw), ModeName(h.Mode)))
	}
	return Ciphertext{KeyName: h.KeyName, KeyVersion: h.KeyVersion, Mode: h.Mode, Payload: raw}, nil
}

// String formats the ciphertext back to its one canonical text.
func (c Ciphertext) String() string {
	return "<" + c.KeyName + "/v" + strconv.Itoa(int(c.KeyVersion)) + ":" + ModeName(c.Mode) + ">" +
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
