package cipherd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// ImportWrappingAlgorithm is how key material is wrapped for an import job: CKM_RSA_AES_KEY_WRAP
// with an RSA job key of 3072 (the default) or 4096 bits.
type ImportWrappingAlgorithm int32

const (
	// ImportWrappingDefault lets the server choose: RSA-3072.
	ImportWrappingDefault ImportWrappingAlgorithm = ImportWrappingAlgorithm(cipherdpb.ImportWrappingAlgorithm_IMPORT_WRAPPING_ALGORITHM_UNSPECIFIED)
	// ImportWrappingRSA3072 wraps for an RSA-3072 job key.
	ImportWrappingRSA3072 ImportWrappingAlgorithm = ImportWrappingAlgorithm(cipherdpb.ImportWrappingAlgorithm_IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072)
	// ImportWrappingRSA4096 wraps for an RSA-4096 job key.
	ImportWrappingRSA4096 ImportWrappingAlgorithm = ImportWrappingAlgorithm(cipherdpb.ImportWrappingAlgorithm_IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_4096)
)

// ImportJob is a one-time permission to import one version of KeyName, wrapped for PublicKeyPEM
// (WrapKeyMaterial), until ExpireTime. It lives on the server replica that made it: import through
// the same Client (one connection).
type ImportJob struct {
	ID                string
	KeyName           string
	WrappingAlgorithm ImportWrappingAlgorithm
	PublicKeyPEM      string
	ExpireTime        time.Time
}

// CreateImportJob asks for an import job for keyName (which need not exist yet). Needs the import
// operation.
func (c *Client) CreateImportJob(ctx context.Context, keyName string, algorithm ImportWrappingAlgorithm) (*ImportJob, error) {
	resp, err := c.admin.CreateImportJob(ctx, &cipherdpb.CreateImportJobRequest{KeyName: keyName,
		WrappingAlgorithm: cipherdpb.ImportWrappingAlgorithm(algorithm)})
	if err != nil {
		return nil, err
	}
	job := resp.GetImportJob()
	if job == nil {
		return nil, errors.New("cipherd: the server answered without the import job")
	}
	return &ImportJob{ID: job.GetImportJobId(), KeyName: job.GetKeyName(),
		WrappingAlgorithm: ImportWrappingAlgorithm(job.GetWrappingAlgorithm()), PublicKeyPEM: job.GetPublicKeyPem(),
		ExpireTime: job.GetExpireTime().AsTime()}, nil
}

// ImportKeyWrapped is ImportKey without the material ever crossing the wire in the clear: it creates
// an import job for keyName, wraps keyMaterial for the job's public key here (WrapKeyMaterial) and
// imports the result, with the options ImportKey takes. A LegacyMySQLAESECB key's passphrase
// (WithLegacyPassphrase) is folded into its 16-byte key here, as MySQL does, and that is wrapped.
// It is the way in on a server without --allow-plaintext-key-import. It does not keep or clear
// keyMaterial: wipe it when done.
func (c *Client) ImportKeyWrapped(ctx context.Context, keyName string, keyMaterial []byte, opts ...KeyOption) (*Key, error) {
	s := keyOptions(opts)
	if err := s.checkImport("ImportKeyWrapped"); err != nil {
		return nil, err
	}
	material := keyMaterial
	if s.passphrase != nil {
		if s.legacyCipher != LegacyMySQLAESECB || keyMaterial != nil {
			return nil, fmt.Errorf("%w: a passphrase is for LegacyMySQLAESECB, instead of key material", ErrInvalidArgument)
		}
		material = make([]byte, 16)
		defer clear(material)
		for i, b := range s.passphrase {
			material[i%16] ^= b
		}
	}
	job, err := c.CreateImportJob(ctx, keyName, ImportWrappingDefault)
	if err != nil {
		return nil, err
	}
	wrapped, err := WrapKeyMaterial(job.PublicKeyPEM, material)
	if err != nil {
		return nil, err
	}
	return c.importWrapped(ctx, keyName, job.ID, wrapped, s)
}

// ImportWrappedKeyMaterial imports material wrapped elsewhere (by openssl, an HSM, another KMS's
// tooling) for import job jobID, as CKM_RSA_AES_KEY_WRAP (see WrapKeyMaterial), with the options
// ImportKey takes. The job must have been made on the server this Client reaches (one connection).
func (c *Client) ImportWrappedKeyMaterial(ctx context.Context, keyName, jobID string, wrapped []byte, opts ...KeyOption) (*Key, error) {
	s := keyOptions(opts)
	if err := s.checkImport("ImportWrappedKeyMaterial"); err != nil {
		return nil, err
	}
	if s.passphrase != nil {
		return nil, fmt.Errorf("%w: a wrapped import carries no passphrase: wrap MySQL's folded key", ErrInvalidArgument)
	}
	return c.importWrapped(ctx, keyName, jobID, wrapped, s)
}

func (c *Client) importWrapped(ctx context.Context, keyName, jobID string, wrapped []byte, s keySettings) (*Key, error) {
	resp, err := c.admin.ImportKey(ctx, &cipherdpb.ImportKeyRequest{KeyName: keyName, Mode: cipherdpb.Mode(s.mode),
		WrappedKeyMaterial: wrapped, ImportJobId: jobID, AllowUnauthenticated: s.allowUnauthenticated,
		LegacyCipher: cipherdpb.LegacyCipher(s.legacyCipher), LegacyIv: cipherdpb.LegacyIv(s.legacyIV),
		LegacyFixedIv: s.legacyFixedIV, FpeFormat: s.fpeFormat.proto(), TransitKdf: cipherdpb.TransitKdf(s.transitKDF)})
	return keyOf(resp, err)
}
