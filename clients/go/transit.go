package cipherd

import (
	"strings"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// IsTransitCiphertext reports whether text is a Vault Transit ciphertext ("vault:vN:BASE64") rather
// than cipherd's: cipherd decrypts and rewraps it with a key imported from Transit (cipherctl
// import vault-transit), named by the call's expected key (WithExpectedKey), since it names none.
// It is not parsed here: the server says what is wrong with it.
func IsTransitCiphertext(text string) bool {
	return strings.HasPrefix(text, "vault:v")
}

// TransitKDF is how a version imported from a derived Vault Transit key (derived=true) derives
// each context's key (Transit's "kdf"). Such a version only decrypts Transit's ciphertexts, with
// the call's context as Transit's context.
type TransitKDF int32

// The Transit KDFs (proto/README.md, "Vault Transit ciphertexts").
const (
	TransitKDFNone              TransitKDF = TransitKDF(cipherdpb.TransitKdf_TRANSIT_KDF_UNSPECIFIED)
	TransitKDFHMACSHA256Counter TransitKDF = TransitKDF(cipherdpb.TransitKdf_TRANSIT_KDF_HMAC_SHA256_COUNTER) // Transit's "hmac-sha256-counter" (kdf 0)
	TransitKDFHKDFSHA256        TransitKDF = TransitKDF(cipherdpb.TransitKdf_TRANSIT_KDF_HKDF_SHA256)         // Transit's "hkdf_sha256" (kdf 1)
)

// WithTransitKDF makes ImportKey import a version of a derived Vault Transit key (ModeGCM or
// ModeChaCha material, as Transit exports it): it decrypts Transit's vault:vN: ciphertexts only,
// deriving each one's key from the call's context, and never encrypts.
func WithTransitKDF(kdf TransitKDF) KeyOption { return func(s *keySettings) { s.transitKDF = kdf } }
