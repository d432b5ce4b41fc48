package datafile

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// datakeyFiles is proto/testdata/datakey_files.json, the format vectors every client runs.
type datakeyFiles struct {
	DataKeyHex     string            `json:"data_key_hex"`
	WrappedKey     string            `json:"wrapped_key"`
	NoncePrefixHex string            `json:"nonce_prefix_hex"`
	Reasons        map[string]string `json:"reasons"`
	Valid          []struct {
		Name         string `json:"name"`
		ChunkSize    int    `json:"chunk_size"`
		Chunks       int    `json:"chunks"`
		PlaintextHex string `json:"plaintext_hex"`
		FileHex      string `json:"file_hex"`
	} `json:"valid"`
	Invalid []struct {
		Name    string `json:"name"`
		FileHex string `json:"file_hex"`
		Reason  string `json:"reason"`
	} `json:"invalid"`
	Rewrapped struct {
		WrappedKey string `json:"wrapped_key"`
		FileHex    string `json:"file_hex"`
	} `json:"rewrapped"`
}

func loadVectors(t *testing.T) datakeyFiles {
	t.Helper()
	data, err := os.ReadFile("../../../proto/testdata/datakey_files.json")
	if err != nil {
		t.Fatal(err)
	}
	var v datakeyFiles
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Valid) == 0 || len(v.Invalid) == 0 || v.Rewrapped.FileHex == "" {
		t.Fatal("datakey_files.json has no cases")
	}
	return v
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decryptWithKey is Decrypt with the data key given instead of unwrapped by a server.
func decryptWithKey(file, dataKey []byte) (Header, []byte, error) {
	src := bytes.NewReader(file)
	h, err := ReadHeader(src)
	if err != nil {
		return h, nil, err
	}
	var out bytes.Buffer
	err = openChunks(&out, src, h, dataKey)
	return h, out.Bytes(), err
}

func TestVectors_validFilesDecrypt(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Valid {
		t.Run(c.Name, func(t *testing.T) {
			h, plaintext, err := decryptWithKey(unhex(t, c.FileHex), unhex(t, v.DataKeyHex))
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if h.ChunkSize != c.ChunkSize || h.WrappedKey != v.WrappedKey || hex.EncodeToString(h.NoncePrefix[:]) != v.NoncePrefixHex {
				t.Errorf("header: chunk size %d, wrapped key %q, prefix %x", h.ChunkSize, h.WrappedKey, h.NoncePrefix)
			}
			if hex.EncodeToString(plaintext) != c.PlaintextHex {
				t.Errorf("plaintext %x, want %s", plaintext, c.PlaintextHex)
			}
		})
	}
}

func TestVectors_encryptingReproducesEachValidFile(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Valid {
		t.Run(c.Name, func(t *testing.T) {
			h := Header{ChunkSize: c.ChunkSize, WrappedKey: v.WrappedKey}
			copy(h.NoncePrefix[:], unhex(t, v.NoncePrefixHex))
			var out bytes.Buffer
			if err := encryptWithKey(&out, bytes.NewReader(unhex(t, c.PlaintextHex)), h, unhex(t, v.DataKeyHex)); err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(out.Bytes()); got != c.FileHex {
				t.Errorf("file differs from the vector:\n got %s\nwant %s", got, c.FileHex)
			}
			if chunks := (out.Len() - fixedLen - 2 - len(v.WrappedKey) + c.ChunkSize + tagLen - 1) / (c.ChunkSize + tagLen); chunks != c.Chunks {
				t.Errorf("%d chunks, want %d", chunks, c.Chunks)
			}
		})
	}
}

func TestVectors_invalidFilesAreRejectedWithTheirReason(t *testing.T) {
	v := loadVectors(t)
	sentinel := map[string]error{ReasonHeaderInvalid: ErrHeaderInvalid, ReasonTruncated: ErrTruncated, ReasonChunkInvalid: ErrChunkInvalid}
	for _, c := range v.Invalid {
		t.Run(c.Name, func(t *testing.T) {
			_, _, err := decryptWithKey(unhex(t, c.FileHex), unhex(t, v.DataKeyHex))
			var formatErr *FormatError
			if !errors.As(err, &formatErr) {
				t.Fatalf("accepted or untyped error: %v", err)
			}
			if formatErr.Reason != c.Reason {
				t.Errorf("reason %q (%v), want %q (%s)", formatErr.Reason, err, c.Reason, v.Reasons[c.Reason])
			}
			if !errors.Is(err, sentinel[c.Reason]) || !errors.Is(err, ErrInvalidFile) {
				t.Errorf("%v does not match %v and ErrInvalidFile", err, sentinel[c.Reason])
			}
			for other, s := range sentinel {
				if other != c.Reason && errors.Is(err, s) {
					t.Errorf("%v also matches %v", err, s)
				}
			}
		})
	}
}

func TestVectors_rewrappedFileDecryptsWithTheSameDataKey(t *testing.T) {
	v := loadVectors(t)
	h, plaintext, err := decryptWithKey(unhex(t, v.Rewrapped.FileHex), unhex(t, v.DataKeyHex))
	if err != nil {
		t.Fatalf("rejected: %v", err)
	}
	if h.WrappedKey != v.Rewrapped.WrappedKey {
		t.Errorf("wrapped key %q, want %q", h.WrappedKey, v.Rewrapped.WrappedKey)
	}
	if want := v.Valid[3].PlaintextHex; hex.EncodeToString(plaintext) != want {
		t.Errorf("plaintext %x, want valid[3]'s", plaintext)
	}
}
