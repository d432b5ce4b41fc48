package cipherd

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// ErrKeyBackupUnopenable is what OpenKeyBackup answers for a backup file this private key cannot
// open: made for another recipient, tampered with, or not a backup file at all.
var ErrKeyBackupUnopenable = errors.New("cipherd: the key backup does not open with this private key")

// KeyBackupFile is what BackupKey answers: File is a serialized KeyBackupFile (write it to disk as
// it is; only the recipient's private key opens it) and Key is the key as backed up.
type KeyBackupFile struct {
	File []byte
	Key  *Key
}

// SetKeyExportable marks keyName exportable, for good: from then on BackupKey may write it out.
// Needs the admin operation.
func (c *Client) SetKeyExportable(ctx context.Context, keyName string) (*Key, error) {
	resp, err := c.admin.SetKeyExportable(ctx, &cipherdpb.SetKeyExportableRequest{KeyName: keyName})
	return keyOf(resp, err)
}

// BackupKey writes keyName whole (every version's material, state and destruction schedule, its
// policy and state) wrapped for recipientPublicKeyPEM, an RSA-3072 or RSA-4096 PEM PUBLIC KEY
// whose private key lives offline. ErrKeyNotExportable for a key not made exportable. Needs the
// export operation, which admin does not imply.
func (c *Client) BackupKey(ctx context.Context, keyName, recipientPublicKeyPEM string) (*KeyBackupFile, error) {
	resp, err := c.admin.BackupKey(ctx, &cipherdpb.BackupKeyRequest{KeyName: keyName, RecipientPublicKeyPem: recipientPublicKeyPEM})
	if err != nil {
		return nil, err
	}
	key, err := keyOf(resp, nil)
	if err != nil {
		return nil, err
	}
	return &KeyBackupFile{File: resp.GetBackupFile(), Key: key}, nil
}

// RestoreKey creates key keyName from a serialized KeyBackup of that key wrapped (WrapKeyMaterial)
// for import job jobID, made on the server this Client reaches for keyName. ErrAlreadyExists if the
// key exists: a restore never overwrites. RestoreKeyBackup does the whole restore from a file.
// Needs the import operation on keyName.
func (c *Client) RestoreKey(ctx context.Context, keyName, jobID string, wrappedKeyBackup []byte) (*Key, error) {
	resp, err := c.admin.RestoreKey(ctx, &cipherdpb.RestoreKeyRequest{KeyName: keyName, ImportJobId: jobID, WrappedKeyBackup: wrappedKeyBackup})
	return keyOf(resp, err)
}

// RestoreKeyBackup restores a backup file (BackupKey's File) into the server this Client reaches:
// it opens the file with the recipient's private key (OpenKeyBackup), creates an import job for
// the key's name, wraps the backup for the job and calls RestoreKey. The backup's material exists
// in the clear only in this process, and is wiped before it returns.
func (c *Client) RestoreKeyBackup(ctx context.Context, file []byte, identityPEM []byte) (*Key, error) {
	opened, err := OpenKeyBackup(file, identityPEM)
	if err != nil {
		return nil, err
	}
	defer opened.Wipe()
	job, err := c.CreateImportJob(ctx, opened.Key.KeyName, ImportWrappingDefault)
	if err != nil {
		return nil, err
	}
	wrapped, err := WrapKeyMaterial(job.PublicKeyPEM, opened.keyBackup)
	if err != nil {
		return nil, err
	}
	return c.RestoreKey(ctx, opened.Key.KeyName, job.ID, wrapped)
}

// OpenedKeyBackup is a backup file opened with its recipient's private key: Key is the key it
// holds (names, versions, states; no material). It holds the key's material until Wipe.
type OpenedKeyBackup struct {
	Key       *Key
	keyBackup []byte // the serialized KeyBackup, secret
}

// Wipe zeroes the backup's material.
func (o *OpenedKeyBackup) Wipe() { clear(o.keyBackup) }

// OpenKeyBackup opens a backup file with identityPEM, the recipient's RSA private key (PEM "PRIVATE
// KEY", as openssl genpkey writes it, or "RSA PRIVATE KEY"). It refuses a file made for another
// public key, one whose unwrap fails (tampered with), and one whose clear header does not match
// the KeyBackup inside, each with ErrKeyBackupUnopenable. Wipe the answer when done.
func OpenKeyBackup(file []byte, identityPEM []byte) (*OpenedKeyBackup, error) {
	private, err := parseRSAPrivateKey(identityPEM)
	if err != nil {
		return nil, err
	}
	var header cipherdpb.KeyBackupFile
	if err := proto.Unmarshal(file, &header); err != nil || header.GetFormat() != 1 {
		return nil, fmt.Errorf("%w: not a key backup file of format 1", ErrKeyBackupUnopenable)
	}
	spki, err := x509.MarshalPKIXPublicKey(&private.PublicKey)
	if err != nil {
		return nil, err
	}
	recipient := sha256.Sum256(spki)
	if !bytes.Equal(header.GetRecipientKeySha256(), recipient[:]) {
		return nil, fmt.Errorf("%w: the backup of key %q was made for another recipient key (SHA-256 %x, this key's is %x)",
			ErrKeyBackupUnopenable, header.GetKeyName(), header.GetRecipientKeySha256(), recipient[:])
	}
	inner, err := unwrapKeyMaterial(private, header.GetWrappedKeyBackup())
	if err != nil {
		return nil, fmt.Errorf("%w: the backup of key %q does not unwrap: it was tampered with or made for another recipient", ErrKeyBackupUnopenable, header.GetKeyName())
	}
	var backup cipherdpb.KeyBackup
	err = proto.Unmarshal(inner, &backup)
	for _, m := range backup.GetMaterials() {
		clear(m.GetKeyMaterial())
		clear(m.GetLegacyFixedIv())
	}
	switch {
	case err != nil:
		clear(inner)
		return nil, fmt.Errorf("%w: the backup of key %q unwraps to no KeyBackup", ErrKeyBackupUnopenable, header.GetKeyName())
	case backup.GetKey().GetKeyName() != header.GetKeyName() ||
		!bytes.Equal(backup.GetRecipientKeySha256(), header.GetRecipientKeySha256()) ||
		!proto.Equal(backup.GetBackupTime(), header.GetBackupTime()):
		clear(inner)
		return nil, fmt.Errorf("%w: the backup file's header (key %q) does not match the backup inside it", ErrKeyBackupUnopenable, header.GetKeyName())
	}
	return &OpenedKeyBackup{Key: keyFromProto(backup.GetKey()), keyBackup: inner}, nil
}

// parseRSAPrivateKey reads a PEM RSA private key, PKCS#8 or PKCS#1.
func parseRSAPrivateKey(identityPEM []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(identityPEM)
	if block == nil {
		return nil, errors.New("cipherd: the identity is not a PEM private key")
	}
	defer clear(block.Bytes)
	switch block.Type {
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	case "PRIVATE KEY":
		parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("cipherd: the identity: %w", err)
		}
		if private, ok := parsed.(*rsa.PrivateKey); ok {
			return private, nil
		}
		return nil, errors.New("cipherd: the identity is not an RSA private key")
	}
	return nil, fmt.Errorf("cipherd: the identity is a PEM %q, not a PRIVATE KEY", block.Type)
}
