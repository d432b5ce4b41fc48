package datafile

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"fmt"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
	"google.golang.org/grpc"
)

// fakeKeys stands in for a server in unit tests: it wraps data keys with AES-GCM under one master
// key per version of the key "files", binding the header and the AAD as the server does.
type fakeKeys struct {
	masters [][]byte // masters[v-1] is version v
}

func newFakeKeys() *fakeKeys {
	f := &fakeKeys{}
	f.rotate()
	return f
}

func (f *fakeKeys) rotate() { f.masters = append(f.masters, randomBytes(32)) }

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func (f *fakeKeys) aead(version int32) cipher.AEAD {
	block, _ := aes.NewCipher(f.masters[version-1])
	aead, _ := cipher.NewGCM(block)
	return aead
}

func (f *fakeKeys) wrap(plaintext, aad []byte) string {
	v := int32(len(f.masters))
	header := fmt.Sprintf("<files/v%d:gcm>", v)
	nonce := randomBytes(12)
	return header + base64.StdEncoding.EncodeToString(f.aead(v).Seal(nonce, nonce, plaintext, append([]byte(header), aad...)))
}

func (f *fakeKeys) GenerateDataKey(_ context.Context, keyName string, opts ...cipherd.DataKeyOption) (*cipherd.DataKey, error) {
	if keyName != "files" {
		return nil, cipherd.ErrNotFound
	}
	key := randomBytes(32)
	return &cipherd.DataKey{Plaintext: key, Wrapped: f.wrap(key, dataKeyAAD(opts)), KeyVersion: int32(len(f.masters))}, nil
}

// dataKeyAAD reads the AAD back out of the options through a real request, the way the client sends it.
func dataKeyAAD(opts []cipherd.DataKeyOption) []byte {
	var captured []byte
	c := &cipherd.Client{Crypto: captureCrypto{onDataKey: func(r *cipherdpb.GenerateDataKeyRequest) { captured = r.GetContext() }}}
	c.GenerateDataKey(context.Background(), "files", opts...)
	return captured
}

func (f *fakeKeys) unwrap(ciphertext string, aad []byte) ([]byte, int32, error) {
	ct, err := cipherd.ParseCiphertext(ciphertext)
	if err != nil {
		return nil, 0, err
	}
	if ct.KeyName != "files" || int(ct.KeyVersion) > len(f.masters) {
		return nil, 0, cipherd.ErrNotFound
	}
	header := fmt.Sprintf("<files/v%d:gcm>", ct.KeyVersion)
	pt, err := f.aead(ct.KeyVersion).Open(nil, ct.Payload[:12], ct.Payload[12:], append([]byte(header), aad...))
	if err != nil {
		return nil, 0, cipherd.ErrDecryptionFailed
	}
	return pt, ct.KeyVersion, nil
}

func (f *fakeKeys) Decrypt(_ context.Context, ciphertext string, opts ...cipherd.CallOption) ([]byte, error) {
	pt, _, err := f.unwrap(ciphertext, callAAD(opts))
	return pt, err
}

func (f *fakeKeys) ReEncrypt(_ context.Context, ciphertext string, opts ...cipherd.CallOption) (*cipherdpb.ReEncryptResponse, error) {
	aad := callAAD(opts)
	pt, source, err := f.unwrap(ciphertext, aad)
	if err != nil {
		return nil, err
	}
	return &cipherdpb.ReEncryptResponse{Ciphertext: f.wrap(pt, aad), KeyVersion: int32(len(f.masters)), SourceKeyVersion: source}, nil
}

func callAAD(opts []cipherd.CallOption) []byte {
	var captured []byte
	c := &cipherd.Client{Crypto: captureCrypto{onDecrypt: func(r *cipherdpb.DecryptRequest) { captured = r.GetContext() }}}
	c.Decrypt(context.Background(), "", opts...)
	return captured
}

// captureCrypto is a CryptoServiceClient that only records the requests the fake needs to read
// options from; any other method panics on the nil embedded interface.
type captureCrypto struct {
	cipherdpb.CryptoServiceClient
	onDataKey func(*cipherdpb.GenerateDataKeyRequest)
	onDecrypt func(*cipherdpb.DecryptRequest)
}

func (c captureCrypto) GenerateDataKey(_ context.Context, r *cipherdpb.GenerateDataKeyRequest, _ ...grpc.CallOption) (*cipherdpb.GenerateDataKeyResponse, error) {
	c.onDataKey(r)
	return &cipherdpb.GenerateDataKeyResponse{}, nil
}

func (c captureCrypto) Decrypt(_ context.Context, r *cipherdpb.DecryptRequest, _ ...grpc.CallOption) (*cipherdpb.DecryptResponse, error) {
	c.onDecrypt(r)
	return &cipherdpb.DecryptResponse{}, nil
}
