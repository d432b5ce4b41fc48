package datafile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// randomReader is n pseudo-random bytes from a random seed, produced as they are read.
func randomReader(n int64) io.Reader {
	var seed [32]byte
	copy(seed[:], randomBytes(32))
	return io.LimitReader(rand.NewChaCha8(seed), n)
}

// allocatedBy is how many heap bytes fn allocates in total (not just at its peak).
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestEncryptDecrypt_megabytesRoundTripInMemoryBoundedByTheChunkSize streams 8 MiB through 4 KiB
// chunks: every byte comes back, and neither direction allocates more than a few chunks in
// total, which an implementation that buffered the object (io.ReadAll) could not do.
func TestEncryptDecrypt_megabytesRoundTripInMemoryBoundedByTheChunkSize(t *testing.T) {
	const size, chunk = 8<<20 + 123, 4096
	// Header, buffers, the fake's wrapping and whatever the runtime allocates meanwhile (TotalAlloc is
	// the process's; 274 KB was seen once under load): an eighth of the object, where buffering it
	// would allocate all of it.
	const budget = 256 * chunk
	keys, ctx := newFakeKeys(), context.Background()
	wantSum := sha256.New()
	file := bytes.NewBuffer(make([]byte, 0, size+size/chunk*tagLen+4096))
	var encErr error
	encAlloc := allocatedBy(func() {
		_, encErr = Encrypt(ctx, keys, "files", file, io.TeeReader(randomReader(size), wantSum), WithChunkSize(chunk), WithAAD([]byte("ctx")))
	})
	if encErr != nil {
		t.Fatal(encErr)
	}
	if chunks := (file.Len() + chunk) / (chunk + tagLen); chunks != size/chunk+1 {
		t.Errorf("file has about %d chunks, want %d", chunks, size/chunk+1)
	}
	gotSum := sha256.New()
	var decErr error
	decAlloc := allocatedBy(func() {
		_, decErr = Decrypt(ctx, keys, gotSum, bytes.NewReader(file.Bytes()), WithAAD([]byte("ctx")))
	})
	if decErr != nil {
		t.Fatal(decErr)
	}
	if !bytes.Equal(gotSum.Sum(nil), wantSum.Sum(nil)) {
		t.Fatal("decrypted plaintext differs from the original")
	}
	t.Logf("allocated %d bytes encrypting, %d decrypting", encAlloc, decAlloc)
	if encAlloc > budget || decAlloc > budget {
		t.Errorf("allocated %d bytes encrypting and %d decrypting %d bytes; want at most %d each", encAlloc, decAlloc, size, budget)
	}
}

func TestDecrypt_wrongAADFailsAtTheWrappedKeyAndWritesNothing(t *testing.T) {
	keys, ctx := newFakeKeys(), context.Background()
	var file, out bytes.Buffer
	if _, err := Encrypt(ctx, keys, "files", &file, bytes.NewReader([]byte("secret")), WithAAD([]byte("a"))); err != nil {
		t.Fatal(err)
	}
	if _, err := Decrypt(ctx, keys, &out, bytes.NewReader(file.Bytes()), WithAAD([]byte("b"))); !errors.Is(err, cipherd.ErrDecryptionFailed) || out.Len() != 0 {
		t.Fatalf("Decrypt with another AAD: %v, %d bytes out", err, out.Len())
	}
}

func TestEncrypt_chunkSizeOutsideTheFormatIsRefused(t *testing.T) {
	for _, n := range []int{0, MinChunkSize - 1, MaxChunkSize + 1} {
		if _, err := Encrypt(context.Background(), newFakeKeys(), "files", io.Discard, bytes.NewReader(nil), WithChunkSize(n)); !errors.Is(err, cipherd.ErrInvalidArgument) {
			t.Errorf("chunk size %d: %v, want ErrInvalidArgument", n, err)
		}
	}
}

func TestRewrap_replacesOnlyTheWrappedKeyAndTheFileStillDecrypts(t *testing.T) {
	keys, ctx := newFakeKeys(), context.Background()
	plaintext := randomBytes(1000)
	var file, rewrapped, out bytes.Buffer
	before, err := Encrypt(ctx, keys, "files", &file, bytes.NewReader(plaintext), WithChunkSize(64))
	if err != nil {
		t.Fatal(err)
	}
	keys.rotate()
	after, err := Rewrap(ctx, keys, &rewrapped, bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if ct, _ := cipherd.ParseCiphertext(after.WrappedKey); ct.KeyVersion != 2 || after.ChunkSize != before.ChunkSize || after.NoncePrefix != before.NoncePrefix {
		t.Fatalf("rewrapped header: version %d, %+v", ct.KeyVersion, after)
	}
	oldChunks := file.Bytes()[fixedLen+2+len(before.WrappedKey):]
	newChunks := rewrapped.Bytes()[fixedLen+2+len(after.WrappedKey):]
	if !bytes.Equal(oldChunks, newChunks) {
		t.Fatal("rewrapping changed the chunks")
	}
	if _, err := Decrypt(ctx, keys, &out, &rewrapped); err != nil || !bytes.Equal(out.Bytes(), plaintext) {
		t.Fatalf("Decrypt after Rewrap: %v", err)
	}
}

func TestDecryptFile_tamperedLastChunkLeavesNoOutputNorTemporaryFile(t *testing.T) {
	keys, ctx, dir := newFakeKeys(), context.Background(), t.TempDir()
	plain, enc, dec := filepath.Join(dir, "plain"), filepath.Join(dir, "plain.cdf"), filepath.Join(dir, "out")
	plaintext := randomBytes(5000)
	if err := os.WriteFile(plain, plaintext, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := EncryptFile(ctx, keys, "files", plain, enc, WithChunkSize(1024)); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(enc); err != nil || info.Mode().Perm() != 0o644 {
		t.Fatalf("encrypted file: %v, %v", info, err)
	}
	if _, err := DecryptFile(ctx, keys, enc, dec); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(dec); err != nil || !bytes.Equal(got, plaintext) {
		t.Fatalf("decrypted file differs: %v", err)
	}
	if info, _ := os.Stat(dec); info.Mode().Perm() != 0o600 {
		t.Errorf("plaintext file mode %v, want 0600", info.Mode().Perm())
	}
	os.Remove(dec)
	raw, _ := os.ReadFile(enc)
	raw[len(raw)-1] ^= 1 // the tag of the last chunk: every chunk before it verifies
	os.WriteFile(enc, raw, 0o644)
	if _, err := DecryptFile(ctx, keys, enc, dec); !errors.Is(err, ErrChunkInvalid) {
		t.Fatalf("DecryptFile of a tampered file: %v, want ErrChunkInvalid", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("after a failed decryption the folder holds %v, want only plain and plain.cdf", entries)
	}
}

func TestRewrapFile_replacesTheFileInPlace(t *testing.T) {
	keys, ctx, dir := newFakeKeys(), context.Background(), t.TempDir()
	plain, enc := filepath.Join(dir, "plain"), filepath.Join(dir, "plain.cdf")
	if err := os.WriteFile(plain, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := EncryptFile(ctx, keys, "files", plain, enc); err != nil {
		t.Fatal(err)
	}
	keys.rotate()
	if h, err := RewrapFile(ctx, keys, enc); err != nil || h.WrappedKey[:10] != "<files/v2:" {
		t.Fatalf("RewrapFile: %v", err)
	}
	f, _ := os.Open(enc)
	defer f.Close()
	var out bytes.Buffer
	if h, err := Decrypt(ctx, keys, &out, f); err != nil || out.String() != "hello" || h.WrappedKey[:10] != "<files/v2:" {
		t.Fatalf("Decrypt after RewrapFile: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("folder holds %v after RewrapFile", entries)
	}
}
