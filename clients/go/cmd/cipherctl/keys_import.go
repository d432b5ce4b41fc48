package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// importFlags are the flags of keys import: a cipherd mode, or a legacy cipher and where its IV is.
type importFlags struct {
	keyFlags
	fpe                                                 fpeFlags
	in, legacyCipher, legacyIV, fixedIV, passphraseFile string
	// wrapped is false (--wrapped=false) to send the material in the clear, for a server with
	// --allow-plaintext-key-import.
	wrapped bool
	// importJob and wrappedIn send material wrapped elsewhere (openssl, an HSM) for a job made by
	// keys import-job.
	importJob, wrappedIn string
}

func newImportCommand(conn *connection) *cobra.Command {
	var f importFlags
	cmd := adminCommand(conn, "import NAME", "Add key material as a new version: base64 from stdin (or --in FILE), or a legacy passphrase from --passphrase-file", cobra.ExactArgs(1),
		func(cmd *cobra.Command, c *cipherd.Client, args []string) (*cipherd.Key, error) {
			if f.importJob != "" || f.wrappedIn != "" {
				return f.importPrewrapped(cmd, c, args[0])
			}
			imp, err := f.request(cmd)
			if err != nil {
				return nil, err
			}
			defer imp.wipe()
			if f.wrapped {
				return c.ImportKeyWrapped(cmd.Context(), args[0], imp.material, imp.options...)
			}
			return c.ImportKey(cmd.Context(), args[0], imp.material, imp.options...)
		})
	cmd.Long = `import adds a version made of caller-supplied key bytes, creating the key if needed.

A legacy key (--legacy-cipher) only decrypts data encrypted before cipherd, to rewrap it into a
cipherd key (rewrap --legacy-key). Its ciphers: mysql-aes-ecb (MySQL AES_ENCRYPT; the key is the
passphrase in --passphrase-file, less one trailing line break), aes-cbc, aes-ecb, aes-ctr, aes-cfb,
aes-ofb, aes-gcm, des-cbc, desede-cbc, blowfish-cbc, rc4 (key material from stdin, base64).
A format-preserving key (--mode ff1, 16, 24 or 32 bytes) takes its format as keys create does
(--fpe-template or --fpe-alphabet, ...), equal to the key's when the key exists.
Passphrases and key material are read from files or stdin, never from arguments, and are sent
wrapped: an import job's RSA public key (CreateImportJob) wraps a fresh AES key that wraps the
material (RSA-OAEP-SHA-256 and RFC 5649), so it never crosses the wire in the clear; a MySQL
passphrase is folded into its key here first. --wrapped=false sends them in the clear, which only a
server with --allow-plaintext-key-import takes.`
	f.register(cmd)
	f.fpe.register(cmd)
	cmd.Flags().BoolVar(&f.wrapped, "wrapped", true, "wrap the material for an import job (CreateImportJob) before sending it; false sends it in the clear")
	cmd.Flags().StringVar(&f.importJob, "import-job", "", "the import job (keys import-job) --wrapped-in was wrapped for")
	cmd.Flags().StringVar(&f.wrappedIn, "wrapped-in", "", "file holding key material wrapped elsewhere for --import-job (RSA-OAEP-SHA-256 block, then RFC 5649), raw bytes")
	cmd.Flags().StringVar(&f.in, "in", "", "file holding the base64 key material instead of stdin")
	cmd.Flags().StringVar(&f.legacyCipher, "legacy-cipher", "", "import a decrypt-only legacy key: mysql-aes-ecb, aes-cbc, aes-ecb, aes-ctr, aes-cfb, aes-ofb, aes-gcm, des-cbc, desede-cbc, blowfish-cbc or rc4")
	cmd.Flags().StringVar(&f.legacyIV, "legacy-iv", "", "where the legacy ciphertexts' IV is: prepended (default), separate (given per item) or fixed (--fixed-iv)")
	cmd.Flags().StringVar(&f.fixedIV, "fixed-iv", "", "the one IV of every legacy ciphertext, in hex (with --legacy-iv fixed)")
	cmd.Flags().StringVar(&f.passphraseFile, "passphrase-file", "", "file holding the passphrase of a mysql-aes-ecb key, - for stdin (one trailing line break is dropped)")
	return cmd
}

// importPrewrapped sends material wrapped elsewhere for a job made by keys import-job.
func (f *importFlags) importPrewrapped(cmd *cobra.Command, c *cipherd.Client, name string) (*cipherd.Key, error) {
	if f.importJob == "" || f.wrappedIn == "" {
		return nil, fmt.Errorf("--import-job and --wrapped-in go together")
	}
	if f.passphraseFile != "" || f.in != "" {
		return nil, fmt.Errorf("--wrapped-in replaces --in and --passphrase-file")
	}
	wrapped, err := os.ReadFile(f.wrappedIn)
	if err != nil {
		return nil, err
	}
	imp := &keyImport{}
	if err := f.addOptions(cmd, imp); err != nil {
		return nil, err
	}
	return c.ImportWrappedKeyMaterial(cmd.Context(), name, f.importJob, wrapped, imp.options...)
}

// keyImport is what keys import sends: the key material (or a legacy passphrase, in options) and
// the options. Its secrets are the caller's to wipe.
type keyImport struct {
	material, passphrase []byte
	options              []cipherd.KeyOption
}

// wipe clears the key material and the passphrase.
func (k *keyImport) wipe() {
	clear(k.material)
	clear(k.passphrase)
}

// request reads the key material or passphrase and turns the flags into options.
func (f *importFlags) request(cmd *cobra.Command) (*keyImport, error) {
	imp := &keyImport{}
	if err := f.addOptions(cmd, imp); err != nil {
		return nil, err
	}
	var err error
	if f.passphraseFile != "" {
		if imp.passphrase, err = readPassphrase(cmd, f.passphraseFile); err != nil {
			return nil, err
		}
		imp.options = append(imp.options, cipherd.WithLegacyPassphrase(imp.passphrase))
		return imp, nil
	}
	text, err := readInput(cmd, f.in)
	if err != nil {
		return nil, err
	}
	if imp.material, err = base64.StdEncoding.DecodeString(strings.TrimSpace(string(text))); err != nil {
		clear(text)
		return nil, fmt.Errorf("key material must be base64") // never echo it
	}
	clear(text)
	return imp, nil
}

// addOptions turns the mode, FPE and legacy flags into imp's options.
func (f *importFlags) addOptions(cmd *cobra.Command, imp *keyImport) error {
	mode, err := f.parsedMode()
	if err != nil {
		return err
	}
	imp.options = append(imp.options, cipherd.WithKeyMode(mode))
	if f.allowUnauthenticated {
		imp.options = append(imp.options, cipherd.WithAllowUnauthenticated())
	}
	format, err := f.fpe.options(cmd)
	if err != nil {
		return err
	}
	imp.options = append(imp.options, format...)
	if f.legacyCipher == "" && (f.legacyIV != "" || f.fixedIV != "" || f.passphraseFile != "") {
		return fmt.Errorf("--legacy-iv, --fixed-iv and --passphrase-file need --legacy-cipher")
	}
	if f.legacyCipher != "" {
		legacy, err := f.legacy()
		if err != nil {
			return err
		}
		imp.options = append(imp.options, legacy...)
	}
	return nil
}

// legacy is the legacy options of the flags.
func (f *importFlags) legacy() ([]cipherd.KeyOption, error) {
	if f.mode != "" {
		return nil, fmt.Errorf("--mode and --legacy-cipher exclude each other: a legacy key has no cipherd mode")
	}
	legacyCipher, ok := cipherd.ParseLegacyCipher(f.legacyCipher)
	if !ok {
		return nil, fmt.Errorf("unknown legacy cipher %q", f.legacyCipher)
	}
	opts := []cipherd.KeyOption{cipherd.WithLegacyCipher(legacyCipher)}
	iv := cipherd.LegacyIVUnspecified
	if f.legacyIV != "" {
		if iv, ok = cipherd.ParseLegacyIV(f.legacyIV); !ok {
			return nil, fmt.Errorf("--legacy-iv must be prepended, separate or fixed, not %q", f.legacyIV)
		}
		opts = append(opts, cipherd.WithLegacyIV(iv))
	}
	if (f.fixedIV != "") != (iv == cipherd.LegacyIVFixed) {
		return nil, fmt.Errorf("--fixed-iv goes with --legacy-iv fixed, and only with it")
	}
	if f.fixedIV != "" {
		fixed, err := hex.DecodeString(f.fixedIV)
		if err != nil {
			return nil, fmt.Errorf("--fixed-iv must be hex")
		}
		opts = append(opts, cipherd.WithLegacyFixedIV(fixed))
	}
	return opts, nil
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
