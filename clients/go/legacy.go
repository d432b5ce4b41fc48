package cipherd

import (
	"context"
	"strings"

	"google.golang.org/grpc/codes"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Legacy ciphertexts are data encrypted before cipherd, without a header: a key imported with a
// LegacyCipher decrypts them, and only to rewrap them into a cipherd key (proto/README.md,
// "Legacy ciphertexts"). The constructors below name the legacy key and how the bytes are stored;
// set KeyVersion (0: the newest) or IV (LegacyIVSeparate) on the result when needed.

// LegacyCiphertext is one legacy ciphertext, decrypted on the server by the legacy key KeyName and
// rewrapped into a cipherd key; the plaintext never comes back. Make it with LegacyHex,
// LegacyBase64 or LegacyRaw, which set its data exactly one way, as stored.
type LegacyCiphertext struct {
	KeyName    string
	KeyVersion int32  // the legacy key's version; 0 for its newest
	IV         []byte // the item's IV, for a key imported with LegacyIVSeparate only
	raw        []byte
	text       string
	encoding   legacyEncoding
}

// legacyEncoding is how a LegacyCiphertext's data is stored.
type legacyEncoding int

const (
	legacyRaw legacyEncoding = iota
	legacyHex
	legacyBase64
)

// LegacyHex is a legacy ciphertext stored as hexadecimal text, e.g. MySQL's HEX(AES_ENCRYPT(...)).
func LegacyHex(legacyKey, hex string) *LegacyCiphertext {
	return &LegacyCiphertext{KeyName: legacyKey, text: hex, encoding: legacyHex}
}

// LegacyBase64 is a legacy ciphertext stored as standard base64 text, padded or not.
func LegacyBase64(legacyKey, b64 string) *LegacyCiphertext {
	return &LegacyCiphertext{KeyName: legacyKey, text: b64, encoding: legacyBase64}
}

// LegacyRaw is a legacy ciphertext as its bytes.
func LegacyRaw(legacyKey string, raw []byte) *LegacyCiphertext {
	return &LegacyCiphertext{KeyName: legacyKey, raw: raw, encoding: legacyRaw}
}

// proto is the request's LegacyCiphertext; nil for nil.
func (l *LegacyCiphertext) proto() *cipherdpb.LegacyCiphertext {
	if l == nil {
		return nil
	}
	pb := &cipherdpb.LegacyCiphertext{KeyName: l.KeyName, KeyVersion: l.KeyVersion, Iv: l.IV}
	switch l.encoding {
	case legacyHex:
		pb.Data = &cipherdpb.LegacyCiphertext_Hex{Hex: l.text}
	case legacyBase64:
		pb.Data = &cipherdpb.LegacyCiphertext_Base64{Base64: l.text}
	default:
		pb.Data = &cipherdpb.LegacyCiphertext_Raw{Raw: l.raw}
	}
	return pb
}

// ReEncryptLegacy rewraps a legacy ciphertext into targetKey's current version (WithAAD binds the
// new ciphertext to associated data; WithExpectedKey checks the legacy key); the plaintext never
// reaches the client. Its SourceKeyVersion is the legacy key's version.
func (c *Client) ReEncryptLegacy(ctx context.Context, targetKey string, legacy *LegacyCiphertext, opts ...CallOption) (*Rewrapped, error) {
	s := callOptions(opts)
	resp, err := c.crypto.ReEncrypt(ctx, &cipherdpb.ReEncryptRequest{Legacy: legacy.proto(), Context: s.aad, KeyName: targetKey, ExpectedKey: s.expectedKey})
	return rewrappedOf(resp, err)
}

// errLegacyNotDecryptable answers a legacy item given to a decrypt call: legacy data is only rewrapped.
var errLegacyNotDecryptable = newError(codes.InvalidArgument, cipherdpb.ErrorReason_INVALID_ARGUMENT.String(), "a legacy ciphertext can only be rewrapped (ReEncrypt), not decrypted")

// LegacyCipher is how data encrypted before cipherd was encrypted; a key imported with one is
// decrypt-only. The values are the API's LegacyCipher numbers.
type LegacyCipher int32

// The legacy ciphers; LegacyCipherUnspecified is a key that is not a legacy key.
const (
	LegacyCipherUnspecified = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_UNSPECIFIED)
	LegacyMySQLAESECB       = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_MYSQL_AES_ECB) // MySQL AES_ENCRYPT
	LegacyAESCBC            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_CBC)
	LegacyAESECB            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_ECB)
	LegacyAESCTR            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_CTR)
	LegacyAESCFB            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_CFB)
	LegacyAESOFB            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_OFB)
	LegacyAESGCM            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_AES_GCM)
	LegacyDESCBC            = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_DES_CBC)
	LegacyDESedeCBC         = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_DESEDE_CBC)
	LegacyBlowfishCBC       = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_BLOWFISH_CBC)
	LegacyRC4               = LegacyCipher(cipherdpb.LegacyCipher_LEGACY_CIPHER_RC4)
)

// LegacyCiphers are every legacy cipher this client knows, in the API's order.
func LegacyCiphers() []LegacyCipher {
	var all []LegacyCipher
	for v := range len(cipherdpb.LegacyCipher_name) {
		if c := LegacyCipher(v); c != LegacyCipherUnspecified {
			all = append(all, c)
		}
	}
	return all
}

// LegacyIV is where a legacy key's ciphertexts carry their IV.
type LegacyIV int32

// Where the IV is; LegacyIVUnspecified is the server's default for the cipher (prepended, or none).
const (
	LegacyIVUnspecified = LegacyIV(cipherdpb.LegacyIv_LEGACY_IV_UNSPECIFIED)
	LegacyIVPrepended   = LegacyIV(cipherdpb.LegacyIv_LEGACY_IV_PREPENDED) // the data is IV ‖ ciphertext
	LegacyIVSeparate    = LegacyIV(cipherdpb.LegacyIv_LEGACY_IV_SEPARATE)  // each LegacyCiphertext brings its IV
	LegacyIVFixed       = LegacyIV(cipherdpb.LegacyIv_LEGACY_IV_FIXED)     // one IV, WithLegacyFixedIV
)

const legacyCipherPrefix = "LEGACY_CIPHER_"

// String is the cipher's name as cipherctl spells it, e.g. "mysql-aes-ecb", or "" for
// LegacyCipherUnspecified.
func (c LegacyCipher) String() string {
	if c == LegacyCipherUnspecified {
		return ""
	}
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(cipherdpb.LegacyCipher(c).String(), legacyCipherPrefix), "_", "-"))
}

// LegacyCipherName is c.String().
func LegacyCipherName(c LegacyCipher) string { return c.String() }

// ParseLegacyCipher is the inverse of LegacyCipherName, spelt exactly so.
func ParseLegacyCipher(name string) (LegacyCipher, bool) {
	v, ok := cipherdpb.LegacyCipher_value[legacyCipherPrefix+strings.ToUpper(strings.ReplaceAll(name, "-", "_"))]
	if !ok || LegacyCipher(v).String() != name {
		return 0, false
	}
	return LegacyCipher(v), true
}

// String is "prepended", "separate", "fixed", or "" for LegacyIVUnspecified.
func (iv LegacyIV) String() string {
	if iv == LegacyIVUnspecified {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(cipherdpb.LegacyIv(iv).String(), "LEGACY_IV_"))
}

// ParseLegacyIV reads "prepended", "separate" or "fixed".
func ParseLegacyIV(name string) (LegacyIV, bool) {
	v, ok := cipherdpb.LegacyIv_value["LEGACY_IV_"+strings.ToUpper(name)]
	if !ok || v == 0 || strings.ToLower(name) != name {
		return 0, false
	}
	return LegacyIV(v), true
}
