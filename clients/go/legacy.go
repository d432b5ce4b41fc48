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
// set KeyVersion (0: the newest) or Iv (LEGACY_IV_SEPARATE) on the result when needed.

// LegacyHex is a legacy ciphertext stored as hexadecimal text, e.g. MySQL's HEX(AES_ENCRYPT(...)).
func LegacyHex(legacyKey, hex string) *cipherdpb.LegacyCiphertext {
	return &cipherdpb.LegacyCiphertext{KeyName: legacyKey, Data: &cipherdpb.LegacyCiphertext_Hex{Hex: hex}}
}

// LegacyBase64 is a legacy ciphertext stored as standard base64 text, padded or not.
func LegacyBase64(legacyKey, b64 string) *cipherdpb.LegacyCiphertext {
	return &cipherdpb.LegacyCiphertext{KeyName: legacyKey, Data: &cipherdpb.LegacyCiphertext_Base64{Base64: b64}}
}

// LegacyRaw is a legacy ciphertext as its bytes.
func LegacyRaw(legacyKey string, raw []byte) *cipherdpb.LegacyCiphertext {
	return &cipherdpb.LegacyCiphertext{KeyName: legacyKey, Data: &cipherdpb.LegacyCiphertext_Raw{Raw: raw}}
}

// ReEncryptLegacy rewraps a legacy ciphertext into targetKey's current version (WithAAD binds the
// new ciphertext to associated data; WithExpectedKey checks the legacy key); the plaintext never
// reaches the client.
func (c *Client) ReEncryptLegacy(ctx context.Context, targetKey string, legacy *cipherdpb.LegacyCiphertext, opts ...CallOption) (*cipherdpb.ReEncryptResponse, error) {
	s := callOptions(opts)
	return c.Crypto.ReEncrypt(ctx, &cipherdpb.ReEncryptRequest{Legacy: legacy, Context: s.aad, KeyName: targetKey, ExpectedKey: s.expectedKey})
}

// errLegacyNotDecryptable answers a legacy item given to a decrypt call: legacy data is only rewrapped.
var errLegacyNotDecryptable = newError(codes.InvalidArgument, "INVALID_ARGUMENT", "a legacy ciphertext can only be rewrapped (ReEncrypt), not decrypted")

const legacyCipherPrefix = "LEGACY_CIPHER_"

// LegacyCipherName is a legacy cipher's name as cipherctl spells it, e.g. "mysql-aes-ecb", or ""
// for LEGACY_CIPHER_UNSPECIFIED.
func LegacyCipherName(c cipherdpb.LegacyCipher) string {
	if c == cipherdpb.LegacyCipher_LEGACY_CIPHER_UNSPECIFIED {
		return ""
	}
	return strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(c.String(), legacyCipherPrefix), "_", "-"))
}

// ParseLegacyCipher is the inverse of LegacyCipherName, spelt exactly so.
func ParseLegacyCipher(name string) (cipherdpb.LegacyCipher, bool) {
	v, ok := cipherdpb.LegacyCipher_value[legacyCipherPrefix+strings.ToUpper(strings.ReplaceAll(name, "-", "_"))]
	if !ok || LegacyCipherName(cipherdpb.LegacyCipher(v)) != name {
		return 0, false
	}
	return cipherdpb.LegacyCipher(v), true
}

// ParseLegacyIV reads "prepended", "separate" or "fixed".
func ParseLegacyIV(name string) (cipherdpb.LegacyIv, bool) {
	v, ok := cipherdpb.LegacyIv_value["LEGACY_IV_"+strings.ToUpper(name)]
	if !ok || v == 0 || strings.ToLower(name) != name {
		return 0, false
	}
	return cipherdpb.LegacyIv(v), true
}
