// Package datafile encrypts large objects locally with a data key from cipherd, in the data-key
// file format of proto/README.md: a header holding the wrapped key, then AES-256-GCM chunks
// chained by the STREAM construction. Memory use is a few chunks, whatever the object's size.
package datafile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// Format limits (proto/README.md, "Data-key file format").
const (
	DefaultChunkSize = 65536
	MinChunkSize     = 16
	MaxChunkSize     = 16777216
	maxWrappedLen    = 4096
	noncePrefixLen   = 7
	tagLen           = 16
	fixedLen         = len(magic) + 4 + noncePrefixLen // 27: the associated data of every chunk
)

const magic = "cipherd-file-v1\n"

// Header is the start of a data-key file: its chunk size, nonce prefix and wrapped data key.
type Header struct {
	ChunkSize   int
	NoncePrefix [noncePrefixLen]byte
	WrappedKey  string // "<NAME/vN:MODE>BASE64", unwrapped with Decrypt
}

// fixed is the 27 bytes every chunk authenticates: magic, chunk size and nonce prefix. The
// wrapped key is left out so that rewrapping it leaves the chunks valid.
func (h Header) fixed() []byte {
	b := make([]byte, 0, fixedLen)
	b = append(b, magic...)
	b = binary.BigEndian.AppendUint32(b, uint32(h.ChunkSize))
	return append(b, h.NoncePrefix[:]...)
}

// validate checks what ReadHeader checks, so that a writer never makes a file a reader refuses.
func (h Header) validate() error {
	if h.ChunkSize < MinChunkSize || h.ChunkSize > MaxChunkSize {
		return headerInvalid(fmt.Sprintf("chunk size %d is outside %d..%d", h.ChunkSize, MinChunkSize, MaxChunkSize))
	}
	if len(h.WrappedKey) == 0 || len(h.WrappedKey) > maxWrappedLen {
		return headerInvalid(fmt.Sprintf("wrapped key length %d is outside 1..%d", len(h.WrappedKey), maxWrappedLen))
	}
	if _, err := cipherd.ParseCiphertext(h.WrappedKey); err != nil {
		return headerInvalid("wrapped key is not a ciphertext: " + err.Error())
	}
	return nil
}

// WriteTo writes the header: fixed part, wrapped key length, wrapped key.
func (h Header) WriteTo(w io.Writer) (int64, error) {
	if err := h.validate(); err != nil {
		return 0, err
	}
	b := binary.BigEndian.AppendUint16(h.fixed(), uint16(len(h.WrappedKey)))
	n, err := w.Write(append(b, h.WrappedKey...))
	return int64(n), err
}

// ReadHeader reads and checks a file's header, leaving r at its first chunk. It needs no key.
func ReadHeader(r io.Reader) (Header, error) {
	var head [fixedLen + 2]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return Header{}, cutShort(err)
	}
	if !bytes.Equal(head[:len(magic)], []byte(magic)) {
		return Header{}, headerInvalid("not a cipherd-file-v1 file (wrong magic)")
	}
	h := Header{ChunkSize: int(binary.BigEndian.Uint32(head[len(magic):]))}
	copy(h.NoncePrefix[:], head[len(magic)+4:fixedLen])
	wrappedLen := int(binary.BigEndian.Uint16(head[fixedLen:]))
	if wrappedLen == 0 || wrappedLen > maxWrappedLen {
		return Header{}, headerInvalid(fmt.Sprintf("wrapped key length %d is outside 1..%d", wrappedLen, maxWrappedLen))
	}
	wrapped := make([]byte, wrappedLen)
	if _, err := io.ReadFull(r, wrapped); err != nil {
		return Header{}, cutShort(err)
	}
	h.WrappedKey = string(wrapped)
	return h, h.validate()
}

// cutShort reports a header that ends early as header_invalid; read errors pass through.
func cutShort(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return headerInvalid("header is cut short")
	}
	return err
}
