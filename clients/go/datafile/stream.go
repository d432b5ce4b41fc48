package datafile

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// Client is what the helpers need of a *cipherd.Client: a new data key, unwrapping it, and
// rewrapping it without seeing it.
type Client interface {
	GenerateDataKey(ctx context.Context, keyName string, opts ...cipherd.DataKeyOption) (*cipherd.DataKey, error)
	Decrypt(ctx context.Context, ciphertext string, opts ...cipherd.CallOption) ([]byte, error)
	ReEncrypt(ctx context.Context, ciphertext string, opts ...cipherd.CallOption) (*cipherd.Rewrapped, error)
}

var _ Client = (*cipherd.Client)(nil)

// Option configures Encrypt, Decrypt and Rewrap and their file forms.
type Option func(*settings)

type settings struct {
	aad       []byte
	chunkSize int
}

// WithAAD binds associated data ("context" in the API) to the wrapped data key; decrypting and
// rewrapping the file need the same bytes.
func WithAAD(aad []byte) Option { return func(s *settings) { s.aad = aad } }

// WithChunkSize sets the plaintext bytes per chunk, 16 to 16777216 (default 65536); memory use
// is about three chunks. Encrypt only: readers take it from the header.
func WithChunkSize(n int) Option { return func(s *settings) { s.chunkSize = n } }

func options(opts []Option) settings {
	s := settings{chunkSize: DefaultChunkSize}
	for _, opt := range opts {
		opt(&s)
	}
	return s
}

// Encrypt reads src to its end and writes it to dst as a data-key file under a new data key
// wrapped by keyName. It returns the header it wrote; the data key is wiped before it returns.
func Encrypt(ctx context.Context, c Client, keyName string, dst io.Writer, src io.Reader, opts ...Option) (Header, error) {
	s := options(opts)
	if s.chunkSize < MinChunkSize || s.chunkSize > MaxChunkSize {
		return Header{}, fmt.Errorf("%w: chunk size %d is outside %d..%d", cipherd.ErrInvalidArgument, s.chunkSize, MinChunkSize, MaxChunkSize)
	}
	key, err := c.GenerateDataKey(ctx, keyName, cipherd.WithDataKeyBits(8*dataKeyLen), cipherd.WithDataKeyAAD(s.aad))
	if err != nil {
		return Header{}, err
	}
	defer key.Wipe()
	h := Header{ChunkSize: s.chunkSize, WrappedKey: key.Wrapped}
	if _, err := rand.Read(h.NoncePrefix[:]); err != nil {
		return Header{}, err
	}
	return h, encryptWithKey(dst, ctxReader{ctx, src}, h, key.Plaintext)
}

// encryptWithKey writes the header and the chunks under dataKey: the seam the format vectors
// test, with their own key, wrapped key and nonce prefix.
func encryptWithKey(dst io.Writer, src io.Reader, h Header, dataKey []byte) error {
	if _, err := h.WriteTo(dst); err != nil {
		return err
	}
	return sealChunks(dst, src, h, dataKey)
}

// Decrypt reads a data-key file from src, unwraps its data key with Decrypt(wrapped key, AAD)
// and writes the plaintext to dst, chunk by chunk, each only after it authenticated. On error
// dst may hold a verified prefix of the plaintext, never all of it: discard it (DecryptFile does).
// A bad file is a *FormatError (ErrHeaderInvalid, ErrTruncated or ErrChunkInvalid); a wrapped key
// the server refuses is its *cipherd.Error.
func Decrypt(ctx context.Context, c Client, dst io.Writer, src io.Reader, opts ...Option) (Header, error) {
	s := options(opts)
	h, err := ReadHeader(src)
	if err != nil {
		return Header{}, err
	}
	dataKey, err := c.Decrypt(ctx, h.WrappedKey, cipherd.WithAAD(s.aad))
	if err != nil {
		return h, err
	}
	defer clear(dataKey)
	return h, openChunks(dst, ctxReader{ctx, src}, h, dataKey)
}

// Rewrap copies a data-key file from src to dst with its wrapped key rewrapped to its key's
// current version (ReEncrypt); the chunks are copied as they are, and the data key never
// reaches this process. It returns the new header.
func Rewrap(ctx context.Context, c Client, dst io.Writer, src io.Reader, opts ...Option) (Header, error) {
	s := options(opts)
	h, err := ReadHeader(src)
	if err != nil {
		return Header{}, err
	}
	resp, err := c.ReEncrypt(ctx, h.WrappedKey, cipherd.WithAAD(s.aad))
	if err != nil {
		return Header{}, err
	}
	h.WrappedKey = resp.Ciphertext
	if _, err := h.WriteTo(dst); err != nil {
		return Header{}, err
	}
	_, err = io.Copy(dst, ctxReader{ctx, src})
	return h, err
}

// ctxReader stops a long file at the next read once ctx ends, as the calls it makes would.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
