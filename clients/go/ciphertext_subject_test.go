package cipherd_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// subjectPayload is a subject-bound payload of the smallest length mode allows: the 16-byte
// subject-key reference, then the mode's own minimum (proto/README.md, "Subject-bound ciphertexts").
func subjectPayload(modeMin int) []byte {
	return bytes.Repeat([]byte{0x5a}, cipherd.SubjectRefSize+modeMin)
}

func TestParseCiphertext_subjectBound_namesNoVersion(t *testing.T) {
	for mode, min := range map[string]int{"gcm": 28, "chacha": 28, "xgcm": 40} {
		text := "<users/s:" + mode + ">" + base64.StdEncoding.EncodeToString(subjectPayload(min))
		ct, err := cipherd.ParseCiphertext(text)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if !ct.SubjectBound || ct.KeyVersion != 0 || ct.KeyName != "users" || cipherd.ModeName(ct.Mode) != mode || len(ct.Payload) != cipherd.SubjectRefSize+min {
			t.Errorf("%s: %+v", mode, ct)
		}
		if ct.String() != text {
			t.Errorf("%s: formatted back as %s", mode, ct.String())
		}
		h, payload, err := cipherd.ParseCiphertextHeader(text)
		if err != nil || !h.SubjectBound || h.KeyVersion != 0 || h.String() != "<users/s:"+mode+">" || !strings.HasSuffix(text, ">"+payload) {
			t.Errorf("%s: header %+v %v", mode, h, err)
		}
	}
}

func TestParseCiphertext_subjectBound_malformed(t *testing.T) {
	short := base64.StdEncoding.EncodeToString(subjectPayload(27)) // a gcm payload without room for its ref
	ok := base64.StdEncoding.EncodeToString(subjectPayload(28))
	for text, reason := range map[string]string{
		"<users/s:gcm>" + short: "payload_length_invalid",
		"<users/s:cbc>" + ok:    "mode_unknown", // only gcm, chacha and xgcm can be subject-bound
		"<users/s:siv>" + ok:    "mode_unknown",
		"<users/s:ecb>" + ok:    "mode_unknown",
		"<users/s:hmac>" + ok:   "mode_unknown",
		"<users/S:gcm>" + ok:    "version_invalid",
		"<users/s1:gcm>" + ok:   "version_invalid",
		"<users/vs:gcm>" + ok:   "version_invalid",
		"<users/:gcm>" + ok:     "version_invalid",
		"<Users/s:gcm>" + ok:    "key_name_invalid",
		"<users/s:gcm>":         "payload_empty",
		"<users/s-gcm>" + ok:    "header_malformed",
	} {
		_, err := cipherd.ParseCiphertext(text)
		var parseErr *cipherd.CiphertextError
		if !errors.As(err, &parseErr) || parseErr.Reason != reason || !errors.Is(err, cipherd.ErrMalformedCiphertext) {
			t.Errorf("%.20s...: %v, want reason %s", text, err, reason)
		}
	}
}
