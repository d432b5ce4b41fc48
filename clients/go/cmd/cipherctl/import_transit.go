package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// transitModes are the Transit key types cipherd imports, and the cipherd mode of each: their
// ciphertexts (nonce ‖ body ‖ tag, associated_data as the only associated data) are what cipherd's
// gcm and chacha versions open without a header.
var transitModes = map[string]cipherd.Mode{
	"aes256-gcm96":      cipherd.ModeGCM,
	"aes128-gcm96":      cipherd.ModeGCM,
	"chacha20-poly1305": cipherd.ModeChaCha,
}

// transitKDFs are Transit's KDFs of derived keys, by the name its key info gives ("kdf").
var transitKDFs = map[string]cipherd.TransitKDF{
	"hkdf_sha256":         cipherd.TransitKDFHKDFSHA256,
	"hmac-sha256-counter": cipherd.TransitKDFHMACSHA256Counter,
}

// newImportSourcesCommand groups the imports from other key managers.
func newImportSourcesCommand(conn *connection) *cobra.Command {
	group := &cobra.Command{Use: "import", Short: "Bring a key from another key manager into cipherd, its ciphertexts decrypting as they are"}
	group.AddCommand(newImportVaultTransitCommand(conn))
	return group
}

// transitImportFlags are the flags of import vault-transit.
type transitImportFlags struct {
	address, mount, key, into, tokenFile string
}

func newImportVaultTransitCommand(conn *connection) *cobra.Command {
	var f transitImportFlags
	cmd := adminCommand(conn, "vault-transit --key NAME [--into NAME]", "Import a Vault Transit key, every version under its own number, so cipherd decrypts its vault:vN: ciphertexts", cobra.NoArgs,
		func(cmd *cobra.Command, c *cipherd.Client, _ []string) (*cipherd.Key, error) {
			return f.run(cmd, c)
		})
	cmd.Long = `vault-transit reads a Transit key through Transit's export API (the key must be exportable) and
creates a cipherd key with every version under Transit's number and Transit's minimum decryption
(and encryption) version as its policy. Transit exports only the versions from its
min_decryption_version up; the older ones are read from the key's backup, which needs
allow_plaintext_backup on the key, else the import is refused.

Types: aes256-gcm96, aes128-gcm96 (cipherd gcm) and chacha20-poly1305 (chacha), derived
(derived=true, either of Transit's KDFs) and convergent (convergent_encryption=true, its convergent
versions 2 and 3; version 1, whose ciphertexts do not carry their nonce, is refused). The cipherd
key (--into, by default the Transit key's name) must not exist yet. Then Decrypt and ReEncrypt take
the vault:vN: ciphertexts as they are, with the key's name as expected_key and, as context,
Transit's associated_data (or, for a derived key, Transit's context); "cipherctl rewrap
--expected-key NAME" turns a file of them into cipherd ciphertexts. A derived key's versions only
decrypt, so the cipherd key is rotated once after the import: its new current version (gcm, not
convergent) is the one rewraps and encryptions use.

The Vault token comes from VAULT_TOKEN or --token-file, never from an argument.`
	cmd.Flags().StringVar(&f.address, "address", os.Getenv("VAULT_ADDR"), "Vault's address, e.g. https://vault.example:8200 (default $VAULT_ADDR)")
	cmd.Flags().StringVar(&f.mount, "mount", "transit", "the path the Transit engine is mounted at")
	cmd.Flags().StringVar(&f.key, "key", "", "the Transit key to import")
	cmd.Flags().StringVar(&f.into, "into", "", "the cipherd key to create (default: the Transit key's name)")
	cmd.Flags().StringVar(&f.tokenFile, "token-file", "", "file holding the Vault token (default: $VAULT_TOKEN)")
	_ = cmd.MarkFlagRequired("key")
	return cmd
}

// run reads the Transit key and imports it version by version.
func (f *transitImportFlags) run(cmd *cobra.Command, c *cipherd.Client) (*cipherd.Key, error) {
	into := f.into
	if into == "" {
		into = f.key
	}
	vault, err := f.client(cmd)
	if err != nil {
		return nil, err
	}
	ctx := cmd.Context()
	info, err := vault.key(ctx, f.key)
	if err != nil {
		return nil, err
	}
	mode, kdf, err := info.check(f.mount, f.key)
	if err != nil {
		return nil, err
	}
	versions, err := vault.material(ctx, f.key, info)
	defer func() {
		for _, material := range versions {
			clear(material)
		}
	}()
	if err != nil {
		return nil, err
	}
	if _, err := c.GetKey(ctx, into); err == nil {
		return nil, fmt.Errorf("cipherd key %q already exists: import vault-transit creates a new key, so that Transit's version numbers stay (name another with --into)", into)
	} else if !errors.Is(err, cipherd.ErrNotFound) {
		return nil, err
	}
	var key *cipherd.Key
	for version := 1; version <= info.LatestVersion; version++ {
		key, err = c.ImportKeyWrapped(ctx, into, versions[version], cipherd.WithKeyMode(mode), cipherd.WithTransitKDF(kdf))
		if err != nil {
			return nil, fmt.Errorf("importing Transit version %d into %q: %w", version, into, err)
		}
		if int(key.CurrentVersion) != version {
			return nil, fmt.Errorf("Transit version %d became version %d of %q (another import raced this one?): stopped, so that no ciphertext is read with the wrong version", version, key.CurrentVersion, into)
		}
	}
	if info.MinDecryptionVersion > 1 || info.MinEncryptionVersion > 1 {
		policy := cipherd.KeyPolicy{MinDecryptionVersion: int32(info.MinDecryptionVersion), MinEncryptionVersion: int32(info.MinEncryptionVersion)}
		if key, err = c.UpdateKeyPolicy(ctx, into, policy); err != nil {
			return nil, fmt.Errorf("setting %q's minimum decryption version to Transit's %d: %w", into, info.MinDecryptionVersion, err)
		}
	}
	if kdf != cipherd.TransitKDFNone {
		// A derived key's versions only open Transit's ciphertexts: one version that encrypts.
		if key, err = c.RotateKey(ctx, into, cipherd.WithKeyMode(cipherd.ModeGCM)); err != nil {
			return nil, fmt.Errorf("rotating %q so that it has a version that encrypts (its Transit versions only decrypt): %w", into, err)
		}
	}
	return key, nil
}

// client is the Vault to read from, with its token from --token-file or VAULT_TOKEN.
func (f *transitImportFlags) client(cmd *cobra.Command) (*transitClient, error) {
	if f.address == "" {
		return nil, fmt.Errorf("--address (or VAULT_ADDR) is required: Vault's address, e.g. https://vault.example:8200")
	}
	base, err := url.Parse(strings.TrimSuffix(f.address, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("--address must be an http:// or https:// URL, not %q", f.address)
	}
	token := os.Getenv("VAULT_TOKEN")
	if f.tokenFile != "" {
		data, err := readInput(cmd, f.tokenFile)
		if err != nil {
			return nil, fmt.Errorf("reading the token file: %w", err)
		}
		token = strings.TrimSpace(string(data))
	}
	if token == "" {
		return nil, fmt.Errorf("no Vault token: set VAULT_TOKEN or give --token-file")
	}
	mount := strings.Trim(f.mount, "/")
	return &transitClient{base: base.String() + "/v1/" + mount, token: token, http: &http.Client{Timeout: 30 * time.Second}}, nil
}

// transitKey is what Transit says of a key (GET MOUNT/keys/NAME).
type transitKey struct {
	Type                 string `json:"type"`
	Derived              bool   `json:"derived"`
	KDF                  string `json:"kdf"`
	Convergent           bool   `json:"convergent_encryption"`
	ConvergentVersion    int    `json:"convergent_encryption_version"`
	Exportable           bool   `json:"exportable"`
	AllowPlaintextBackup bool   `json:"allow_plaintext_backup"`
	LatestVersion        int    `json:"latest_version"`
	MinDecryptionVersion int    `json:"min_decryption_version"`
	MinEncryptionVersion int    `json:"min_encryption_version"`
	MinAvailableVersion  int    `json:"min_available_version"`
}

// check says why cipherd cannot take the key, or the cipherd mode its versions become and, for a
// derived key, its KDF.
func (k *transitKey) check(mount, name string) (cipherd.Mode, cipherd.TransitKDF, error) {
	mode, ok := transitModes[k.Type]
	if !ok {
		return 0, 0, fmt.Errorf("Transit key %q is of type %s: cipherd imports aes256-gcm96, aes128-gcm96 and chacha20-poly1305 keys", name, k.Type)
	}
	kdf := cipherd.TransitKDFNone
	if k.Derived {
		if kdf, ok = transitKDFs[k.KDF]; !ok {
			return 0, 0, fmt.Errorf("Transit key %q is derived with the KDF %q: cipherd knows hkdf_sha256 and hmac-sha256-counter", name, k.KDF)
		}
	}
	switch {
	case k.Convergent && (k.ConvergentVersion == 0 || k.ConvergentVersion == 1):
		// Transit reads 0 as 1; -1 means each version keeps its own, 3 for every version made since.
		return 0, 0, fmt.Errorf("Transit key %q is convergent with convergent version 1: its ciphertexts do not carry their nonce (the caller gave it to Transit), which cipherd has no field for: decrypt them through Transit (with their nonces) and encrypt them with cipherd instead", name)
	case !k.Exportable:
		return 0, 0, fmt.Errorf("Transit key %q is not exportable: cipherd reads keys through Transit's export API (vault write %s/keys/%s/config exportable=true, which cannot be undone)", name, strings.Trim(mount, "/"), name)
	case k.MinAvailableVersion > 1:
		return 0, 0, fmt.Errorf("Transit key %q was trimmed below version %d: those versions are gone, so cipherd cannot keep Transit's version numbers", name, k.MinAvailableVersion)
	case k.LatestVersion < 1:
		return 0, 0, fmt.Errorf("Transit key %q has no version", name)
	}
	return mode, kdf, nil
}

// transitClient reads one Transit mount's keys over Vault's HTTP API.
type transitClient struct {
	base, token string
	http        *http.Client
}

// get reads MOUNT/path into data (the response's "data"), with Vault's own errors when it refuses.
func (t *transitClient) get(ctx context.Context, path string, data any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.base+"/"+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Vault-Token", t.token)
	resp, err := t.http.Do(req)
	if err != nil {
		return fmt.Errorf("reading %s from Vault: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("reading %s from Vault: %w", path, err)
	}
	defer clear(body)
	if resp.StatusCode != http.StatusOK {
		var refusal struct {
			Errors []string `json:"errors"`
		}
		_ = json.Unmarshal(body, &refusal)
		return fmt.Errorf("Vault refused reading %s: %s %s", path, resp.Status, strings.Join(refusal.Errors, "; "))
	}
	var envelope struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &envelope); err != nil {
		return fmt.Errorf("reading %s from Vault: the answer is not Vault's JSON", path)
	}
	return json.Unmarshal(envelope.Data, data)
}

// key reads the key's type, versions and policy.
func (t *transitClient) key(ctx context.Context, name string) (*transitKey, error) {
	var k transitKey
	if err := t.get(ctx, "keys/"+url.PathEscape(name), &k); err != nil {
		return nil, err
	}
	return &k, nil
}

// material reads every version's bytes, by number: from the export those from
// min_decryption_version up, from the backup the older ones. The caller clears them.
func (t *transitClient) material(ctx context.Context, name string, k *transitKey) (map[int][]byte, error) {
	versions := map[int][]byte{}
	var exported struct {
		Keys map[string]string `json:"keys"`
	}
	if err := t.get(ctx, "export/encryption-key/"+url.PathEscape(name), &exported); err != nil {
		return versions, err
	}
	for number, encoded := range exported.Keys {
		version, err := strconv.Atoi(number)
		if err != nil {
			return versions, fmt.Errorf("Transit's export names a version %q", number)
		}
		if versions[version], err = base64.StdEncoding.DecodeString(encoded); err != nil {
			return versions, fmt.Errorf("Transit's export of version %d is not base64", version)
		}
	}
	clear(exported.Keys)
	if k.MinDecryptionVersion > 1 {
		if !k.AllowPlaintextBackup {
			return versions, fmt.Errorf("Transit exports key %q only from its min_decryption_version (%d) up, and cipherd keeps version numbers, so it needs versions 1 to %d as well: allow_plaintext_backup=true on the key lets cipherctl read them from its backup (or lower min_decryption_version to 1 for the import)", name, k.MinDecryptionVersion, k.MinDecryptionVersion-1)
		}
		if err := t.older(ctx, name, k, versions); err != nil {
			return versions, err
		}
	}
	for version := 1; version <= k.LatestVersion; version++ {
		if len(versions[version]) == 0 {
			return versions, fmt.Errorf("Transit gave no bytes for version %d of key %q", version, name)
		}
	}
	return versions, nil
}

// older reads the versions below min_decryption_version from the key's plaintext backup: base64 of
// JSON whose archived_keys.keys holds version v at index v - min_available_version.
func (t *transitClient) older(ctx context.Context, name string, k *transitKey, versions map[int][]byte) error {
	var backup struct {
		Backup string `json:"backup"`
	}
	if err := t.get(ctx, "backup/"+url.PathEscape(name), &backup); err != nil {
		return err
	}
	raw, err := base64.StdEncoding.DecodeString(backup.Backup)
	backup.Backup = ""
	if err != nil {
		return fmt.Errorf("Transit's backup of %q is not base64", name)
	}
	defer clear(raw)
	var data struct {
		Archived struct {
			Keys []struct {
				Key []byte `json:"key"`
			} `json:"keys"`
		} `json:"archived_keys"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return fmt.Errorf("Transit's backup of %q is not the JSON cipherctl knows", name)
	}
	for version := 1; version < k.MinDecryptionVersion; version++ {
		at := version - k.MinAvailableVersion
		if at < 0 || at >= len(data.Archived.Keys) || len(data.Archived.Keys[at].Key) == 0 {
			return fmt.Errorf("Transit's backup of %q lacks version %d", name, version)
		}
		versions[version] = data.Archived.Keys[at].Key
	}
	for i := range data.Archived.Keys {
		if i+k.MinAvailableVersion >= k.MinDecryptionVersion {
			clear(data.Archived.Keys[i].Key)
		}
	}
	return nil
}
