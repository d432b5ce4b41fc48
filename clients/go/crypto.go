package cipherd

import (
	"context"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// CallOption adds optional fields to Encrypt, Decrypt and ReEncrypt (WithExpectedKey to the
// batch and stream calls that decrypt or rewrap, WithSubject and WithRenewErasedSubject to those
// that encrypt).
type CallOption func(*callSettings)

type callSettings struct {
	aad          []byte
	keyVersion   int32
	targetKey    string
	expectedKey  string
	subject      string
	renewErasure bool
}

// WithAAD binds associated data ("context" in the API) to an AEAD ciphertext; decrypting needs the same bytes.
func WithAAD(aad []byte) CallOption { return func(s *callSettings) { s.aad = aad } }

// WithKeyVersion encrypts with an older key version instead of the current one.
func WithKeyVersion(v int32) CallOption { return func(s *callSettings) { s.keyVersion = v } }

// WithTargetKey rewraps into another key instead of the ciphertext's own.
func WithTargetKey(name string) CallOption { return func(s *callSettings) { s.targetKey = name } }

// WithExpectedKey refuses a ciphertext whose header names a key other than name ("users-email"),
// or, when name ends in '*', a key that does not start with the rest ("users-*"): the server answers
// ErrUnexpectedKey before anything is decrypted. The header names the key that decrypts, so without
// it anyone who may encrypt under some other key with a column's AAD can plant a value the column's
// reader decrypts and trusts; set it wherever a column has one key. Decrypt, ReEncrypt (the key of
// the ciphertext to rewrap), ReEncryptLegacy (the legacy key), and the batch and stream calls, whose
// items may name their own in CiphertextItem.ExpectedKey.
func WithExpectedKey(name string) CallOption { return func(s *callSettings) { s.expectedKey = name } }

// WithSubject seals the data under the key of the data subject id, e.g. "user-8812" (any opaque id
// the application already has, 1 to 256 bytes of UTF-8), made on first use and wrapped under the
// key's current version: EraseSubject then makes all of it undecryptable without touching anyone
// else's data. The key's mode must be gcm, chacha or xgcm. The id is personal data: this package
// never puts it in an error, a log line or a formatted value. Encrypt, EncryptBatch and
// EncryptStream (the subject of every item that names none of its own).
func WithSubject(id string) CallOption { return func(s *callSettings) { s.subject = id } }

// WithRenewErasedSubject starts a new key for a subject that was erased instead of failing with
// ErrSubjectErased; what was sealed before the erasure stays erased.
func WithRenewErasedSubject() CallOption { return func(s *callSettings) { s.renewErasure = true } }

func callOptions(opts []CallOption) callSettings {
	var s callSettings
	for _, opt := range opts {
		opt(&s)
	}
	return s
}

// Encrypt encrypts plaintext with the key's current version (or, WithSubject, with the subject's
// key) and returns the ciphertext. For a subject that was erased it fails with ErrSubjectErased
// unless WithRenewErasedSubject.
func (c *Client) Encrypt(ctx context.Context, keyName string, plaintext []byte, opts ...CallOption) (string, error) {
	s := callOptions(opts)
	resp, err := c.crypto.Encrypt(ctx, &cipherdpb.EncryptRequest{KeyName: keyName, Plaintext: plaintext, Context: s.aad, KeyVersion: s.keyVersion,
		Subject: s.subject, RenewErasedSubject: s.renewErasure})
	if err != nil {
		return "", err
	}
	return resp.GetCiphertext(), nil
}

// Decrypt decrypts a ciphertext; a wrong key, AAD or a tampered ciphertext is ErrDecryptionFailed,
// a key other than WithExpectedKey's ErrUnexpectedKey.
func (c *Client) Decrypt(ctx context.Context, ciphertext string, opts ...CallOption) ([]byte, error) {
	s := callOptions(opts)
	resp, err := c.crypto.Decrypt(ctx, &cipherdpb.DecryptRequest{Ciphertext: ciphertext, Context: s.aad, ExpectedKey: s.expectedKey})
	if err != nil {
		return nil, err
	}
	return resp.GetPlaintext(), nil
}

// Rewrapped is a ciphertext rewrapped by ReEncrypt or ReEncryptLegacy: the new ciphertext, the
// version it is under, and the version it came from.
type Rewrapped struct {
	Ciphertext       string
	KeyVersion       int32
	SourceKeyVersion int32
}

// ReEncrypt rewraps a ciphertext to its key's current version (or WithTargetKey's) without the
// plaintext ever reaching the client.
func (c *Client) ReEncrypt(ctx context.Context, ciphertext string, opts ...CallOption) (*Rewrapped, error) {
	s := callOptions(opts)
	resp, err := c.crypto.ReEncrypt(ctx, &cipherdpb.ReEncryptRequest{Ciphertext: ciphertext, Context: s.aad, KeyName: s.targetKey, ExpectedKey: s.expectedKey})
	return rewrappedOf(resp, err)
}

func rewrappedOf(resp *cipherdpb.ReEncryptResponse, err error) (*Rewrapped, error) {
	if err != nil {
		return nil, err
	}
	return &Rewrapped{Ciphertext: resp.GetCiphertext(), KeyVersion: resp.GetKeyVersion(), SourceKeyVersion: resp.GetSourceKeyVersion()}, nil
}

// Inspection is what the server says of a ciphertext's header: its key, version and mode, and
// the key's current version.
type Inspection struct {
	KeyName        string
	KeyVersion     int32 // 0 when SubjectBound
	Mode           Mode
	CurrentVersion int32
	BehindCurrent  bool // KeyVersion is older than CurrentVersion: ReEncrypt would move it
	// SubjectBound marks a ciphertext sealed under a subject's key: it names no version (the
	// server's sweep moves the subject's key to the current version) and is never BehindCurrent.
	SubjectBound bool
}

// Inspect asks the server about a ciphertext's key, including whether it is behind the current
// version; ParseCiphertext reads the header without a call.
func (c *Client) Inspect(ctx context.Context, ciphertext string) (*Inspection, error) {
	resp, err := c.crypto.Inspect(ctx, &cipherdpb.InspectRequest{Ciphertext: ciphertext})
	if err != nil {
		return nil, err
	}
	return &Inspection{KeyName: resp.GetKeyName(), KeyVersion: resp.GetKeyVersion(), Mode: Mode(resp.GetMode()),
		CurrentVersion: resp.GetCurrentVersion(), BehindCurrent: resp.GetBehindCurrent(), SubjectBound: resp.GetSubjectBound()}, nil
}
