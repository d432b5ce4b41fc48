package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// importFlags are the flags of keys import: a cipherd mode, or a legacy cipher and where its IV is.
type importFlags struct {
	keyFlags
	in, legacyCipher, legacyIV, fixedIV, passphraseFile string
}

func newImportCommand(conn *connection) *cobra.Command {
	var f importFlags
	cmd := adminCommand(conn, "import NAME", "Add key material as a new version: base64 from stdin (or --in FILE), or a legacy passphrase from --passphrase-file", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherdpb.Key, error) {
			req, err := f.request(cmd, args[0])
			if err != nil {
				return nil, err
			}
			resp, err := c.Admin.ImportKey(cmd.Context(), req)
			clear(req.KeyMaterial)
			clear(req.Passphrase)
			return resp.GetKey(), err
		})
	cmd.Long = `import adds a version made of caller-supplied key bytes, creating the key if needed.

A legacy key (--legacy-cipher) only decrypts data encrypted before cipherd, to rewrap it into a
cipherd key (rewrap --legacy-key). Its ciphers: mysql-aes-ecb (MySQL AES_ENCRYPT; the key is the
passphrase in --passphrase-file, less one trailing line break), aes-cbc, aes-ecb, aes-ctr, aes-cfb,
aes-ofb, aes-gcm, des-cbc, desede-cbc, blowfish-cbc, rc4 (key material from stdin, base64).
Passphrases and key material are read from files or stdin, never from arguments.`
	f.register(cmd)
	cmd.Flags().StringVar(&f.in, "in", "", "file holding the base64 key material instead of stdin")
	cmd.Flags().StringVar(&f.legacyCipher, "legacy-cipher", "", "import a decrypt-only legacy key: mysql-aes-ecb, aes-cbc, aes-ecb, aes-ctr, aes-cfb, aes-ofb, aes-gcm, des-cbc, desede-cbc, blowfish-cbc or rc4")
	cmd.Flags().StringVar(&f.legacyIV, "legacy-iv", "", "where the legacy ciphertexts' IV is: prepended (default), separate (given per item) or fixed (--fixed-iv)")
	cmd.Flags().StringVar(&f.fixedIV, "fixed-iv", "", "the one IV of every legacy ciphertext, in hex (with --legacy-iv fixed)")
	cmd.Flags().StringVar(&f.passphraseFile, "passphrase-file", "", "file holding the passphrase of a mysql-aes-ecb key, - for stdin (one trailing line break is dropped)")
	return cmd
}

// request builds the ImportKeyRequest; its secret fields are the caller's to clear.
func (f *importFlags) request(cmd *cobra.Command, name string) (*cipherdpb.ImportKeyRequest, error) {
	mode, err := f.parsedMode()
	if err != nil {
		return nil, err
	}
	req := &cipherdpb.ImportKeyRequest{KeyName: name, Mode: mode, AllowUnauthenticated: f.allowUnauthenticated}
	if f.legacyCipher == "" && (f.legacyIV != "" || f.fixedIV != "" || f.passphraseFile != "") {
		return nil, fmt.Errorf("--legacy-iv, --fixed-iv and --passphrase-file need --legacy-cipher")
	}
	if f.legacyCipher != "" {
		if err := f.legacy(req); err != nil {
			return nil, err
		}
	}
	if f.passphraseFile != "" {
		if req.Passphrase, err = readPassphrase(cmd, f.passphraseFile); err != nil {
			return nil, err
		}
		return req, nil
	}
	text, err := readInput(cmd, f.in)
	if err != nil {
		return nil, err
	}
	if req.KeyMaterial, err = base64.StdEncoding.DecodeString(strings.TrimSpace(string(text))); err != nil {
		clear(text)
		return nil, fmt.Errorf("key material must be base64") // never echo it
	}
	clear(text)
	return req, nil
}

// legacy sets the legacy fields of req from the flags.
func (f *importFlags) legacy(req *cipherdpb.ImportKeyRequest) error {
	if f.mode != "" {
		return fmt.Errorf("--mode and --legacy-cipher exclude each other: a legacy key has no cipherd mode")
	}
	var ok bool
	if req.LegacyCipher, ok = cipherd.ParseLegacyCipher(f.legacyCipher); !ok {
		return fmt.Errorf("unknown legacy cipher %q", f.legacyCipher)
	}
	if f.legacyIV != "" {
		if req.LegacyIv, ok = cipherd.ParseLegacyIV(f.legacyIV); !ok {
			return fmt.Errorf("--legacy-iv must be prepended, separate or fixed, not %q", f.legacyIV)
		}
	}
	if (f.fixedIV != "") != (req.LegacyIv == cipherdpb.LegacyIv_LEGACY_IV_FIXED) {
		return fmt.Errorf("--fixed-iv goes with --legacy-iv fixed, and only with it")
	}
	if f.fixedIV != "" {
		iv, err := hex.DecodeString(f.fixedIV)
		if err != nil {
			return fmt.Errorf("--fixed-iv must be hex")
		}
		req.LegacyFixedIv = iv
	}
	return nil
}

// readPassphrase reads a passphrase file ("-" for stdin); a line break at its end is the editor's,
// not the passphrase's.
func readPassphrase(cmd *cobra.Command, path string) ([]byte, error) {
	data, err := readInput(cmd, path)
	if err != nil {
		return nil, fmt.Errorf("reading the passphrase file: %w", err)
	}
	passphrase, found := bytes.CutSuffix(data, []byte("\r\n"))
	if !found {
		passphrase = bytes.TrimSuffix(data, []byte("\n"))
	}
	if len(passphrase) == 0 {
		return nil, fmt.Errorf("the passphrase file %s is empty", path)
	}
	return passphrase, nil
}
