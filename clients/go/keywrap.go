package cipherd

import (
	"crypto/aes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
)

// WrapKeyMaterial wraps keyMaterial for an import job's public key (ImportJob.PublicKeyPEM), as
// ImportKeyWrapped sends it: the RSA-OAEP (SHA-256, MGF1 SHA-256, no label) encryption of a fresh
// AES-256 key, followed by the AES key wrap with padding (RFC 5649) of the material under that key
// (CKM_RSA_AES_KEY_WRAP, as AWS KMS and Cloud KMS take keys). The AES key is wiped before it returns.
func WrapKeyMaterial(publicKeyPEM string, keyMaterial []byte) ([]byte, error) {
	block, _ := pem.Decode([]byte(publicKeyPEM))
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, errors.New("cipherd: the import job's public key is not a PEM PUBLIC KEY")
	}
	parsed, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("cipherd: the import job's public key: %w", err)
	}
	public, ok := parsed.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("cipherd: the import job's public key is not RSA")
	}
	ephemeral := make([]byte, 32)
	defer clear(ephemeral)
	if _, err := rand.Read(ephemeral); err != nil {
		return nil, err
	}
	head, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, public, ephemeral, nil)
	if err != nil {
		return nil, fmt.Errorf("cipherd: RSA-OAEP: %w", err)
	}
	tail, err := aesKeyWrapPadded(ephemeral, keyMaterial)
	if err != nil {
		return nil, err
	}
	return append(head, tail...), nil
}

// aesKeyWrapPadded is RFC 5649's AES key wrap with padding of data under kek. Go's standard library
// has no key wrap, and the maintained one (tink-go's kwp/subtle) wraps no less than 16 bytes, where
// cipherd imports legacy keys of 5 (RC4-40) and 8 (DES) bytes; the tests check it against RFC 5649's
// own examples and the server's JDK unwrap.
func aesKeyWrapPadded(kek, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, errors.New("cipherd: no key material to wrap")
	}
	block, err := aes.NewCipher(kek)
	if err != nil {
		return nil, err
	}
	// The alternative initial value: A65959A6 and the data's length in bytes, big-endian.
	var aiv [8]byte
	copy(aiv[:4], []byte{0xA6, 0x59, 0x59, 0xA6})
	binary.BigEndian.PutUint32(aiv[4:], uint32(len(data)))
	padded := make([]byte, (len(data)+7)/8*8)
	defer clear(padded)
	copy(padded, data)
	n := len(padded) / 8
	var buf [16]byte
	defer clear(buf[:])
	if n == 1 {
		out := make([]byte, 16)
		copy(buf[:8], aiv[:])
		copy(buf[8:], padded)
		block.Encrypt(out, buf[:])
		return out, nil
	}
	// RFC 3394's wrap with the alternative initial value: six passes over the semiblocks.
	out := make([]byte, 8+len(padded))
	copy(out[8:], padded)
	a := aiv
	for j := 0; j < 6; j++ {
		for i := 1; i <= n; i++ {
			copy(buf[:8], a[:])
			copy(buf[8:], out[8*i:8*i+8])
			block.Encrypt(buf[:], buf[:])
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(a[:], binary.BigEndian.Uint64(buf[:8])^t)
			copy(out[8*i:8*i+8], buf[8:])
		}
	}
	copy(out[:8], a[:])
	return out, nil
}

// aesKeyUnwrapPadded is RFC 5649's unwrap: data wrapped under kek by aesKeyWrapPadded (or any
// KWP), or an error when the integrity check fails (another key, a tampered blob).
func aesKeyUnwrapPadded(kek, wrapped []byte) ([]byte, error) {
	errUnwrap := errors.New("cipherd: the AES key unwrap (RFC 5649) failed")
	if len(wrapped) < 16 || len(wrapped)%8 != 0 {
		return nil, errUnwrap
	}
	block, err := aes.NewCipher(kek)
	if err != nil {
		return nil, err
	}
	n := len(wrapped)/8 - 1
	var a [8]byte
	var buf [16]byte
	defer clear(buf[:])
	plain := make([]byte, 8*n)
	if n == 1 {
		block.Decrypt(buf[:], wrapped)
		copy(a[:], buf[:8])
		copy(plain, buf[8:])
	} else {
		copy(a[:], wrapped[:8])
		copy(plain, wrapped[8:])
		for j := 5; j >= 0; j-- {
			for i := n; i >= 1; i-- {
				t := uint64(n*j + i)
				binary.BigEndian.PutUint64(buf[:8], binary.BigEndian.Uint64(a[:])^t)
				copy(buf[8:], plain[8*(i-1):8*i])
				block.Decrypt(buf[:], buf[:])
				copy(a[:], buf[:8])
				copy(plain[8*(i-1):8*i], buf[8:])
			}
		}
	}
	// The alternative initial value, its length in range, and zero padding (RFC 5649, 3).
	length := int(binary.BigEndian.Uint32(a[4:]))
	ok := subtle.ConstantTimeCompare(a[:4], []byte{0xA6, 0x59, 0x59, 0xA6}) == 1 && length > 8*(n-1) && length <= 8*n
	if ok {
		for _, b := range plain[length:] {
			ok = ok && b == 0
		}
	}
	if !ok {
		clear(plain)
		return nil, errUnwrap
	}
	return plain[:length], nil
}

// unwrapKeyMaterial undoes WrapKeyMaterial with the RSA private key: RSA-OAEP-SHA-256 of the AES
// key, then the RFC 5649 unwrap of the rest. The AES key is wiped before it returns.
func unwrapKeyMaterial(private *rsa.PrivateKey, wrapped []byte) ([]byte, error) {
	if len(wrapped) <= private.Size() {
		return nil, errors.New("cipherd: the wrapped bytes are shorter than the RSA key's block")
	}
	ephemeral, err := rsa.DecryptOAEP(sha256.New(), nil, private, wrapped[:private.Size()], nil)
	if err != nil {
		return nil, errors.New("cipherd: the RSA-OAEP unwrap failed")
	}
	defer clear(ephemeral)
	return aesKeyUnwrapPadded(ephemeral, wrapped[private.Size():])
}
