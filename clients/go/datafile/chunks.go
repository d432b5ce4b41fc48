package datafile

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// dataKeyLen is the only data key size the format uses: AES-256.
const dataKeyLen = 32

// stream is the STREAM construction over AES-256-GCM for one file: chunk i is sealed under the
// nonce prefix ‖ uint32(i) ‖ last flag, with the header's fixed part as associated data. It
// reuses its buffers, so a file of any size costs the same memory.
type stream struct {
	aead  cipher.AEAD
	aad   []byte
	nonce [12]byte
}

// newStream keys a stream; the caller still owns dataKey and wipes it (the AES key schedule
// inside aead cannot be wiped from Go and is left to the garbage collector).
func newStream(h Header, dataKey []byte) (*stream, error) {
	if len(dataKey) != dataKeyLen {
		return nil, fmt.Errorf("datafile: data key is %d bytes, the format needs %d (AES-256)", len(dataKey), dataKeyLen)
	}
	block, err := aes.NewCipher(dataKey)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	s := &stream{aead: aead, aad: h.fixed()}
	copy(s.nonce[:], h.NoncePrefix[:])
	return s, nil
}

func (s *stream) nonceFor(index uint32, last bool) []byte {
	binary.BigEndian.PutUint32(s.nonce[noncePrefixLen:], index)
	s.nonce[11] = 0
	if last {
		s.nonce[11] = 1
	}
	return s.nonce[:]
}

// sealChunks cuts src into chunks of h.ChunkSize bytes and writes each sealed chunk to dst; the
// chunk that ends src is sealed as last (an empty src gives one empty last chunk).
func sealChunks(dst io.Writer, src io.Reader, h Header, dataKey []byte) error {
	s, err := newStream(h, dataKey)
	if err != nil {
		return err
	}
	// Two plaintext buffers: the next chunk is read before the current one is sealed, to know
	// whether the current one is the last.
	cur, next := make([]byte, h.ChunkSize), make([]byte, h.ChunkSize)
	defer func() { clear(cur); clear(next) }()
	sealed := make([]byte, 0, h.ChunkSize+tagLen)
	n, err := readChunk(src, cur)
	if err != nil {
		return err
	}
	for index := uint32(0); ; index++ {
		last := n < len(cur)
		m := 0
		if !last {
			if m, err = readChunk(src, next); err != nil {
				return err
			}
			last = m == 0
		}
		sealed = s.aead.Seal(sealed[:0], s.nonceFor(index, last), cur[:n], s.aad)
		if _, err := dst.Write(sealed); err != nil {
			return err
		}
		if last {
			return nil
		}
		if index == math.MaxUint32 {
			return errors.New("datafile: plaintext needs more than 2^32 chunks; use a larger chunk size")
		}
		cur, next, n = next, cur, m
	}
}

// openChunks reads the chunks after a header from src and writes each one's plaintext to dst
// only once it has authenticated at its position; the chunk that reaches the end of src must be
// sealed as last. On error, dst holds the verified chunks before the bad one, never a complete
// plaintext.
func openChunks(dst io.Writer, src io.Reader, h Header, dataKey []byte) error {
	s, err := newStream(h, dataKey)
	if err != nil {
		return err
	}
	full := h.ChunkSize + tagLen
	cur, next := make([]byte, full), make([]byte, full)
	plain := make([]byte, 0, h.ChunkSize)
	defer clear(plain[:cap(plain)])
	n, err := readChunk(src, cur)
	if err != nil {
		return err
	}
	for index := uint32(0); ; index++ {
		atEnd := n < full
		m := 0
		if !atEnd {
			if m, err = readChunk(src, next); err != nil {
				return err
			}
			atEnd = m == 0
		}
		if atEnd {
			return openLast(dst, s, index, cur[:n], full, plain)
		}
		if plain, err = s.aead.Open(plain[:0], s.nonceFor(index, false), cur, s.aad); err != nil {
			return chunkInvalid(index)
		}
		if _, err := dst.Write(plain); err != nil {
			return err
		}
		if index == math.MaxUint32 {
			return chunkInvalid(index) // a chunk after index 2^32-1 cannot exist
		}
		cur, next, n = next, cur, m
	}
}

// openLast opens the chunk that reaches the end of the file. When it fails as last but
// authenticates as an inner chunk, the file was cut at a chunk boundary: truncated, not tampered.
func openLast(dst io.Writer, s *stream, index uint32, chunk []byte, full int, plain []byte) error {
	if len(chunk) < tagLen {
		return truncated(index, fmt.Sprintf("file ends %d bytes into a chunk, before its tag", len(chunk)))
	}
	plain, err := s.aead.Open(plain[:0], s.nonceFor(index, true), chunk, s.aad)
	if err == nil {
		_, err = dst.Write(plain)
		return err
	}
	if len(chunk) == full {
		if _, err := s.aead.Open(plain[:0], s.nonceFor(index, false), chunk, s.aad); err == nil {
			return truncated(index, "file ends after a chunk not sealed as the last")
		}
	}
	return chunkInvalid(index)
}

// readChunk fills buf from r, or as much as r has left; only read errors are errors.
func readChunk(r io.Reader, buf []byte) (int, error) {
	n, err := io.ReadFull(r, buf)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return n, nil
	}
	return n, err
}
