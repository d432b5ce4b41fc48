package datafile

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// EncryptFile encrypts the file at src into a data-key file at dst (see Encrypt).
func EncryptFile(ctx context.Context, c Client, keyName, src, dst string, opts ...Option) (Header, error) {
	return fromPathToPath(src, dst, keepMode, func(w io.Writer, r io.Reader) (Header, error) {
		return Encrypt(ctx, c, keyName, w, r, opts...)
	})
}

// DecryptFile decrypts the data-key file at src into dst (see Decrypt). The plaintext goes to a
// temporary file beside dst, renamed to dst only after the last chunk has authenticated, so a
// failure never leaves a plaintext file that looks complete. dst gets mode 0600.
func DecryptFile(ctx context.Context, c Client, src, dst string, opts ...Option) (Header, error) {
	return fromPathToPath(src, dst, ownerOnly, func(w io.Writer, r io.Reader) (Header, error) {
		return Decrypt(ctx, c, w, r, opts...)
	})
}

// RewrapFile rewraps the wrapped key in the header of the data-key file at path (see Rewrap),
// replacing the file atomically. Its chunks are copied unchanged.
func RewrapFile(ctx context.Context, c Client, path string, opts ...Option) (Header, error) {
	return fromPathToPath(path, path, keepMode, func(w io.Writer, r io.Reader) (Header, error) {
		return Rewrap(ctx, c, w, r, opts...)
	})
}

// outputMode is the permission bits a converted file gets.
type outputMode int

const (
	keepMode  outputMode = iota // src's, for ciphertext
	ownerOnly                   // 0600, for plaintext, whatever src's were
)

// fromPathToPath runs convert from the file src into a temporary file beside dst (mode 0600), and
// renames it to dst only once convert, the flush and the sync have succeeded; otherwise it
// removes it.
func fromPathToPath(src, dst string, mode outputMode, convert func(io.Writer, io.Reader) (Header, error)) (h Header, err error) {
	in, err := os.Open(src)
	if err != nil {
		return Header{}, err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return Header{}, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return Header{}, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	out := bufio.NewWriterSize(tmp, 1<<16)
	if h, err = convert(out, bufio.NewReaderSize(in, 1<<16)); err != nil {
		return Header{}, err
	}
	perm := os.FileMode(0o600)
	if mode == keepMode {
		perm = info.Mode().Perm()
	}
	if err = errors.Join(out.Flush(), tmp.Chmod(perm), tmp.Sync()); err != nil {
		return Header{}, err
	}
	if err = tmp.Close(); err != nil {
		return Header{}, err
	}
	if err = os.Rename(tmp.Name(), dst); err != nil {
		return Header{}, err
	}
	syncDir(filepath.Dir(dst))
	return h, nil
}

// syncDir makes a rename durable where the file system can sync a directory; where it cannot,
// the rename has still happened.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
