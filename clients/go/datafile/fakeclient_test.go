package datafile

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"sync"

	"google.golang.org/grpc"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeKeys stands in for a server in unit tests: it wraps data keys with AES-GCM under one master
// key per version of the key "files", binding the header and the AAD as the server does.
type fakeKeys struct {
	masters [][]byte // masters[v-1] is version v
}

func newFakeKeys() *fakeKeys {
	echoClient() // connected before a test measures its allocations
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

// dataKeyAAD reads the AAD back out of the options through a real request, the way the client
// sends it: the echo server answers with it as the wrapped key, in hex.
func dataKeyAAD(opts []cipherd.DataKeyOption) []byte {
	key, err := echoClient().GenerateDataKey(context.Background(), "files", opts...)
	if err != nil {
		panic(err)
	}
	aad, _ := hex.DecodeString(key.Wrapped)
	return aad
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

func (f *fakeKeys) ReEncrypt(_ context.Context, ciphertext string, opts ...cipherd.CallOption) (*cipherd.Rewrapped, error) {
	aad := callAAD(opts)
	pt, source, err := f.unwrap(ciphertext, aad)
	if err != nil {
		return nil, err
	}
	return &cipherd.Rewrapped{Ciphertext: f.wrap(pt, aad), KeyVersion: int32(len(f.masters)), SourceKeyVersion: source}, nil
}

// callAAD reads the AAD back out of the options through a real request: the echo server answers
// a Decrypt with its context as the plaintext.
func callAAD(opts []cipherd.CallOption) []byte {
	aad, err := echoClient().Decrypt(context.Background(), "", opts...)
	if err != nil {
		panic(err)
	}
	return aad
}

// echoClient is a client of an in-process server on a loopback port that answers each request
// with what the client put in it, so the fake reads its options as the client sends them.
var echoClient = sync.OnceValue(func() *cipherd.Client {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterCryptoServiceServer(s, echoCrypto{})
	go s.Serve(l)
	c, err := cipherd.Dial(context.Background(), l.Addr().String(), cipherd.WithInsecure())
	if err != nil {
		panic(err)
	}
	return c
})

// echoCrypto answers GenerateDataKey and Decrypt with their requests' context.
type echoCrypto struct {
	cipherdpb.UnimplementedCryptoServiceServer
}

func (echoCrypto) GenerateDataKey(_ context.Context, r *cipherdpb.GenerateDataKeyRequest) (*cipherdpb.GenerateDataKeyResponse, error) {
	return &cipherdpb.GenerateDataKeyResponse{WrappedKey: hex.EncodeToString(r.GetContext())}, nil
}

func (echoCrypto) Decrypt(_ context.Context, r *cipherdpb.DecryptRequest) (*cipherdpb.DecryptResponse, error) {
	return &cipherdpb.DecryptResponse{Plaintext: r.GetContext()}, nil
}
