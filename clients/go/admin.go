package cipherd

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// KeyOption sets optional fields of CreateKey, RotateKey and ImportKey. An option a call does not
// take (WithKeyPolicy on RotateKey, a legacy option on CreateKey) fails the call with
// ErrInvalidArgument before anything is sent.
type KeyOption func(*keySettings)

type keySettings struct {
	mode                 Mode
	sizeBits             int32
	allowUnauthenticated bool
	policy               *KeyPolicy
	legacyCipher         LegacyCipher
	legacyIV             LegacyIV
	legacyFixedIV        []byte
	passphrase           []byte
	fpeFormat            *FPEFormat
	transitKDF           TransitKDF
	exportable           bool
}

// WithKeyMode sets the version's mode (default ModeGCM; RotateKey: the current version's mode).
func WithKeyMode(m Mode) KeyOption { return func(s *keySettings) { s.mode = m } }

// WithKeySizeBits sets the version's key size: 128, 192 or 256 for AES modes (default 256), 512 for siv.
func WithKeySizeBits(bits int32) KeyOption { return func(s *keySettings) { s.sizeBits = bits } }

// WithAllowUnauthenticated allows an unauthenticated mode (cbc, ctr, cfb, ofb, ecb).
func WithAllowUnauthenticated() KeyOption {
	return func(s *keySettings) { s.allowUnauthenticated = true }
}

// WithKeyPolicy gives a new key its policy (CreateKey only; UpdateKeyPolicy changes it later).
func WithKeyPolicy(p KeyPolicy) KeyOption { return func(s *keySettings) { s.policy = &p } }

// WithLegacyCipher makes ImportKey import a decrypt-only legacy key (proto/README.md, "Legacy
// ciphertexts"), whose data ReEncryptLegacy rewraps into a cipherd key.
func WithLegacyCipher(c LegacyCipher) KeyOption { return func(s *keySettings) { s.legacyCipher = c } }

// WithLegacyIV says where a legacy key's ciphertexts carry their IV (default LegacyIVPrepended).
func WithLegacyIV(iv LegacyIV) KeyOption { return func(s *keySettings) { s.legacyIV = iv } }

// WithLegacyFixedIV is the one IV of every ciphertext of a LegacyIVFixed key.
func WithLegacyFixedIV(iv []byte) KeyOption { return func(s *keySettings) { s.legacyFixedIV = iv } }

// WithLegacyPassphrase is the passphrase of a LegacyMySQLAESECB key (AES_ENCRYPT's key string),
// given to ImportKey instead of key material. ImportKey does not keep or clear it.
func WithLegacyPassphrase(passphrase []byte) KeyOption {
	return func(s *keySettings) { s.passphrase = passphrase }
}

// WithFPEFormat is the format of a format-preserving key (WithKeyMode(ModeFF1)): CreateKey needs
// it, and ImportKey of ModeFF1 material takes it (equal to the key's when the key exists). Every
// later version keeps it; RotateKey takes none.
func WithFPEFormat(f FPEFormat) KeyOption { return func(s *keySettings) { s.fpeFormat = &f } }

// WithExportable makes CreateKey create a key that BackupKey may write out; it can never be cleared
// (SetKeyExportable marks an existing key).
func WithExportable() KeyOption { return func(s *keySettings) { s.exportable = true } }

// checkFPEFormat refuses, before anything is sent, a format that is both or neither an alphabet
// and a template, or one given with another mode than ModeFF1.
func (s *keySettings) checkFPEFormat(method string) error {
	f := s.fpeFormat
	switch {
	case f == nil && s.mode == ModeFF1 && method == "CreateKey":
		return fmt.Errorf("%w: %s of a ModeFF1 key needs WithFPEFormat", ErrInvalidArgument, method)
	case f == nil:
		return nil
	case s.mode != ModeFF1:
		return fmt.Errorf("%w: WithFPEFormat is for ModeFF1 keys only (WithKeyMode(ModeFF1))", ErrInvalidArgument)
	case (f.Alphabet == "") == (f.Template == FPETemplateUnspecified):
		return fmt.Errorf("%w: an FPEFormat is an Alphabet or a Template, exactly one of them", ErrInvalidArgument)
	}
	return nil
}

func keyOptions(opts []KeyOption) keySettings {
	var s keySettings
	for _, opt := range opts {
		opt(&s)
	}
	return s
}

func (s *keySettings) hasLegacy() bool {
	return s.legacyCipher != LegacyCipherUnspecified || s.legacyIV != LegacyIVUnspecified || s.legacyFixedIV != nil || s.passphrase != nil
}

// errKeyOption answers an option the call does not take.
func errKeyOption(method, what string) error {
	return fmt.Errorf("%w: %s takes no %s option", ErrInvalidArgument, method, what)
}

// CreateKey creates keyName with version 1 (WithKeyMode, WithKeySizeBits, WithAllowUnauthenticated,
// WithKeyPolicy, WithExportable, and WithFPEFormat for ModeFF1); ErrAlreadyExists if it exists.
func (c *Client) CreateKey(ctx context.Context, keyName string, opts ...KeyOption) (*Key, error) {
	s := keyOptions(opts)
	if s.hasLegacy() {
		return nil, errKeyOption("CreateKey", "legacy")
	}
	if err := s.checkFPEFormat("CreateKey"); err != nil {
		return nil, err
	}
	req := &cipherdpb.CreateKeyRequest{KeyName: keyName, Mode: cipherdpb.Mode(s.mode), KeySizeBits: s.sizeBits,
		AllowUnauthenticated: s.allowUnauthenticated, FpeFormat: s.fpeFormat.proto(), Exportable: s.exportable}
	if s.policy != nil {
		req.Policy = policyToProto(*s.policy)
	}
	resp, err := c.admin.CreateKey(ctx, req)
	return keyOf(resp, err)
}

// GetKey is keyName's versions, each with its usage (merged across replicas, plus the answering
// replica's since), its policy and its state.
func (c *Client) GetKey(ctx context.Context, keyName string) (*Key, error) {
	resp, err := c.admin.GetKey(ctx, &cipherdpb.GetKeyRequest{KeyName: keyName})
	return keyOf(resp, err)
}

// ListKeysOption tunes ListKeys.
type ListKeysOption func(*cipherdpb.ListKeysRequest)

// WithPageSize makes ListKeys fetch n keys per call (the server's default, 100, for 0; it caps
// pages at 1000). Smaller pages answer sooner; larger ones make fewer calls over many keys.
func WithPageSize(n int) ListKeysOption {
	return func(r *cipherdpb.ListKeysRequest) { r.PageSize = int32(min(max(n, 0), 1000)) }
}

// ListKeys lists every key in name order, fetching pages as the loop asks for them; the keys'
// versions carry no usage (GetKey has it). An error ends the sequence.
func (c *Client) ListKeys(ctx context.Context, opts ...ListKeysOption) iter.Seq2[*Key, error] {
	return func(yield func(*Key, error) bool) {
		token := ""
		for {
			req := &cipherdpb.ListKeysRequest{PageToken: token}
			for _, o := range opts {
				o(req)
			}
			resp, err := c.admin.ListKeys(ctx, req)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, k := range resp.GetKeys() {
				if !yield(keyFromProto(k), nil) {
					return
				}
			}
			if token = resp.GetNextPageToken(); token == "" {
				return
			}
		}
	}
}

// RotateKey adds a new current version to keyName (WithKeyMode, WithKeySizeBits,
// WithAllowUnauthenticated; by default the current version's mode and size). Older versions keep
// decrypting. The answer's versions carry no usage; GetKey has it.
func (c *Client) RotateKey(ctx context.Context, keyName string, opts ...KeyOption) (*Key, error) {
	s := keyOptions(opts)
	switch {
	case s.hasLegacy():
		return nil, errKeyOption("RotateKey", "legacy")
	case s.policy != nil:
		return nil, errKeyOption("RotateKey", "policy")
	case s.exportable:
		return nil, errKeyOption("RotateKey", "exportable (SetKeyExportable marks a key)")
	case s.fpeFormat != nil:
		return nil, errKeyOption("RotateKey", "FPE format (a format-preserving key's versions keep the format it was created with)")
	}
	resp, err := c.admin.RotateKey(ctx, &cipherdpb.RotateKeyRequest{KeyName: keyName, Mode: cipherdpb.Mode(s.mode),
		KeySizeBits: s.sizeBits, AllowUnauthenticated: s.allowUnauthenticated})
	return keyOf(resp, err)
}

// UpdateKeyPolicy replaces keyName's whole policy with policy: its zero fields are the defaults.
func (c *Client) UpdateKeyPolicy(ctx context.Context, keyName string, policy KeyPolicy) (*Key, error) {
	resp, err := c.admin.UpdateKeyPolicy(ctx, &cipherdpb.UpdateKeyPolicyRequest{KeyName: keyName, Policy: policyToProto(policy)})
	return keyOf(resp, err)
}

// ImportKey adds keyMaterial as a new version of keyName, creating the key if needed (WithKeyMode,
// WithAllowUnauthenticated; WithFPEFormat for ModeFF1 material of 16, 24 or 32 bytes). With WithLegacyCipher it is a decrypt-only legacy key; a
// LegacyMySQLAESECB key takes WithLegacyPassphrase instead of key material (nil). ImportKey does
// not keep or clear keyMaterial: wipe it when done. The material goes in the clear, which a server
// takes only with --allow-plaintext-key-import (ErrPlaintextImportDisabled otherwise):
// ImportKeyWrapped is the way in.
func (c *Client) ImportKey(ctx context.Context, keyName string, keyMaterial []byte, opts ...KeyOption) (*Key, error) {
	s := keyOptions(opts)
	if err := s.checkImport("ImportKey"); err != nil {
		return nil, err
	}
	resp, err := c.admin.ImportKey(ctx, &cipherdpb.ImportKeyRequest{KeyName: keyName, Mode: cipherdpb.Mode(s.mode), KeyMaterial: keyMaterial,
		AllowUnauthenticated: s.allowUnauthenticated, LegacyCipher: cipherdpb.LegacyCipher(s.legacyCipher),
		LegacyIv: cipherdpb.LegacyIv(s.legacyIV), LegacyFixedIv: s.legacyFixedIV, Passphrase: s.passphrase, FpeFormat: s.fpeFormat.proto(),
		TransitKdf: cipherdpb.TransitKdf(s.transitKDF)})
	return keyOf(resp, err)
}

// checkImport refuses the options an import (call) cannot take.
func (s *keySettings) checkImport(call string) error {
	switch {
	case s.policy != nil:
		return errKeyOption(call, "policy")
	case s.exportable:
		return errKeyOption(call, "exportable (SetKeyExportable marks a key)")
	case s.sizeBits != 0:
		return errKeyOption(call, "key size (the material's length is the size)")
	case s.legacyCipher != LegacyCipherUnspecified && s.mode != ModeUnspecified:
		return fmt.Errorf("%w: a legacy key has no cipherd mode: WithKeyMode and WithLegacyCipher exclude each other", ErrInvalidArgument)
	case s.legacyCipher == LegacyCipherUnspecified && s.hasLegacy():
		return fmt.Errorf("%w: WithLegacyIV, WithLegacyFixedIV and WithLegacyPassphrase need WithLegacyCipher", ErrInvalidArgument)
	}
	return s.checkFPEFormat(call)
}

// keyResponse is every admin response that answers with the key.
type keyResponse interface{ GetKey() *cipherdpb.Key }

// keyOf is the key of an admin call's answer, or its error.
func keyOf(resp keyResponse, err error) (*Key, error) {
	if err != nil {
		return nil, err
	}
	if resp.GetKey() == nil {
		return nil, errors.New("cipherd: the server answered without the key")
	}
	return keyFromProto(resp.GetKey()), nil
}
