package cipherd

import "github.com/cipherd/cipherd/clients/go/cipherdpb"

// Mode is a key version's cipher mode, as a ciphertext's header names it (its lowercase name,
// String) or, for ModeHMAC, an index key's. The values are the API's Mode numbers.
type Mode int32

// The modes; ModeUnspecified is the zero value: the server's default when creating a key (gcm),
// and the mode of a legacy key's versions.
const (
	ModeUnspecified = Mode(cipherdpb.Mode_MODE_UNSPECIFIED)
	ModeGCM         = Mode(cipherdpb.Mode_MODE_GCM)
	ModeChaCha      = Mode(cipherdpb.Mode_MODE_CHACHA)
	ModeCBC         = Mode(cipherdpb.Mode_MODE_CBC)
	ModeCTR         = Mode(cipherdpb.Mode_MODE_CTR)
	ModeCFB         = Mode(cipherdpb.Mode_MODE_CFB)
	ModeOFB         = Mode(cipherdpb.Mode_MODE_OFB)
	ModeECB         = Mode(cipherdpb.Mode_MODE_ECB)
	ModeXGCM        = Mode(cipherdpb.Mode_MODE_XGCM)
	ModeSIV         = Mode(cipherdpb.Mode_MODE_SIV)
	ModeHMAC        = Mode(cipherdpb.Mode_MODE_HMAC)
	// ModeFF1 is a format-preserving key (fpe.go): FF1 over AES, for EncryptFormatted and its
	// siblings only; its values carry no header.
	ModeFF1 = Mode(cipherdpb.Mode_MODE_FF1)
)

// modeNames are the lowercase names of every Mode without "MODE_": a header's mode, or for hmac
// and ff1 the mode of an index or format-preserving key, which never appears in a header.
var modeNames = map[Mode]string{
	ModeGCM:    "gcm",
	ModeChaCha: "chacha",
	ModeCBC:    "cbc",
	ModeCTR:    "ctr",
	ModeCFB:    "cfb",
	ModeOFB:    "ofb",
	ModeECB:    "ecb",
	ModeXGCM:   "xgcm",
	ModeSIV:    "siv",
	ModeHMAC:   "hmac",
	ModeFF1:    "ff1",
}

// String is the mode's lowercase name ("gcm", "xgcm", "siv", "hmac"), or "" for ModeUnspecified
// and a number this client does not know.
func (m Mode) String() string { return modeNames[m] }

// ModeName is m.String(): a mode's lowercase name, or "" for ModeUnspecified.
func ModeName(m Mode) string { return m.String() }

// ParseMode is the Mode of a lowercase name ("gcm", "hmac"), or false. Every mode but hmac is
// also a header mode.
func ParseMode(name string) (Mode, bool) {
	for m, n := range modeNames {
		if n == name {
			return m, true
		}
	}
	return ModeUnspecified, false
}

// IsHeaderMode reports whether m can name a ciphertext's mode: every mode but ModeUnspecified,
// ModeHMAC, whose index keys make blind indexes, and ModeFF1, whose values carry no header.
func IsHeaderMode(m Mode) bool {
	_, ok := payloadRules[m]
	return ok
}

// Modes are every mode this client knows, ModeUnspecified left out, in the API's order.
func Modes() []Mode {
	var all []Mode
	for v := range len(cipherdpb.Mode_name) {
		if m := Mode(v); m != ModeUnspecified {
			all = append(all, m)
		}
	}
	return all
}
