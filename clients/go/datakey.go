package cipherd

import (
	"context"
	"fmt"
	"strings"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// DataKeyOption sets optional fields of GenerateDataKey.
type DataKeyOption func(*dataKeySettings)

type dataKeySettings struct {
	aad           []byte
	sizeBits      int32
	omitPlaintext bool
	subject       string
	renewErasure  bool
}

// WithDataKeyAAD binds associated data ("context" in the API) to the wrapped key; Decrypt of the
// wrapped key needs the same bytes, given with WithAAD.
func WithDataKeyAAD(aad []byte) DataKeyOption { return func(s *dataKeySettings) { s.aad = aad } }

// WithDataKeyBits asks for a 128- or 256-bit data key (default 256).
func WithDataKeyBits(bits int32) DataKeyOption { return func(s *dataKeySettings) { s.sizeBits = bits } }

// WithoutPlaintextKey returns only the wrapped key, for a caller that stores it now and unwraps it
// later with Decrypt.
func WithoutPlaintextKey() DataKeyOption { return func(s *dataKeySettings) { s.omitPlaintext = true } }

// WithDataKeySubject wraps the data key under the data subject id's own key, as WithSubject: after
// EraseSubject the wrapped key, and everything encrypted with it, is unrecoverable.
func WithDataKeySubject(id string) DataKeyOption { return func(s *dataKeySettings) { s.subject = id } }

// WithDataKeyRenewErasedSubject is WithRenewErasedSubject for GenerateDataKey.
func WithDataKeyRenewErasedSubject() DataKeyOption {
	return func(s *dataKeySettings) { s.renewErasure = true }
}

// DataKey is a fresh data key from GenerateDataKey. Plaintext is secret: encrypt with it, then
// Wipe it, and store only Wrapped, an ordinary ciphertext that Decrypt unwraps and ReEncrypt
// rewraps. Formatting a DataKey with fmt never shows Plaintext.
type DataKey struct {
	Plaintext  []byte // nil WithoutPlaintextKey
	Wrapped    string
	KeyVersion int32
}

// Wipe overwrites Plaintext with zeros and drops it.
func (k *DataKey) Wipe() {
	clear(k.Plaintext)
	k.Plaintext = nil
}

// Format prints the wrapped key's header and the version, never the plaintext key, whatever the
// verb: a DataKey that reaches a log line must not leak it.
func (k DataKey) Format(f fmt.State, _ rune) {
	header := "?"
	if h, _, err := ParseCiphertextHeader(k.Wrapped); err == nil {
		header = strings.Trim(h.String(), "<>")
	}
	fmt.Fprintf(f, "DataKey{wrapped by %s, plaintext %d bytes redacted}", header, len(k.Plaintext))
}

// GenerateDataKey draws a random data key and returns it in plaintext and wrapped by keyName's
// current version.
func (c *Client) GenerateDataKey(ctx context.Context, keyName string, opts ...DataKeyOption) (*DataKey, error) {
	var s dataKeySettings
	for _, opt := range opts {
		opt(&s)
	}
	resp, err := c.crypto.GenerateDataKey(ctx, &cipherdpb.GenerateDataKeyRequest{KeyName: keyName, KeySizeBits: s.sizeBits,
		Context: s.aad, OmitPlaintext: s.omitPlaintext, Subject: s.subject, RenewErasedSubject: s.renewErasure})
	if err != nil {
		return nil, err
	}
	// The response's buffer becomes the DataKey's, so Wipe clears the only copy this package holds.
	key := &DataKey{Plaintext: resp.GetPlaintextKey(), Wrapped: resp.GetWrappedKey(), KeyVersion: resp.GetKeyVersion()}
	if len(key.Plaintext) == 0 {
		key.Plaintext = nil
	}
	return key, nil
}
