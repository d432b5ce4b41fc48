package main_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// devVault is a real Vault dev server on 127.0.0.1 (the binary .ci/install-vault builds, named by
// CIPHERD_VAULT_BIN: make test-go sets it), with Transit mounted at transit/.
type devVault struct {
	addr, token string
}

// needVault starts a Vault dev server for the test, stopped when it ends; skipped without the
// binary unless CI is set.
func needVault(t *testing.T) *devVault {
	t.Helper()
	bin := os.Getenv("CIPHERD_VAULT_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CIPHERD_VAULT_BIN is not set (make test-go sets it from .ci/install-vault)")
		}
		t.Skip("no Vault (CIPHERD_VAULT_BIN not set)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	secret := make([]byte, 12)
	_, _ = rand.Read(secret)
	v := &devVault{addr: "http://" + addr, token: "root-" + hex.EncodeToString(secret)}
	cmd := exec.Command(bin, "server", "-dev", "-dev-listen-address="+addr, "-dev-root-token-id="+v.token)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(v.addr + "/v1/sys/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Vault did not answer on %s within 60s", addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	v.call(t, "POST", "sys/mounts/transit", map[string]any{"type": "transit"})
	return v
}

// call sends one request to Vault and returns its "data".
func (v *devVault) call(t *testing.T, method, path string, body map[string]any) map[string]any {
	t.Helper()
	var reader *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		reader = bytes.NewReader(raw)
	} else {
		reader = bytes.NewReader(nil)
	}
	req, _ := http.NewRequestWithContext(context.Background(), method, v.addr+"/v1/"+path, reader)
	req.Header.Set("X-Vault-Token", v.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Data   map[string]any `json:"data"`
		Errors []string       `json:"errors"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&answer)
	if resp.StatusCode >= 300 {
		t.Fatalf("Vault %s %s: %s %v", method, path, resp.Status, answer.Errors)
	}
	return answer.Data
}

// transitCase is one ciphertext Transit made: its plaintext, associated data and version.
type transitCase struct {
	ciphertext, plaintext, associated string
	version                           int
}

// encrypt has Transit encrypt plaintext under key's latest version, bound to associated if set.
func (v *devVault) encrypt(t *testing.T, key, plaintext, associated string, version int) transitCase {
	t.Helper()
	body := map[string]any{"plaintext": base64.StdEncoding.EncodeToString([]byte(plaintext))}
	if associated != "" {
		body["associated_data"] = base64.StdEncoding.EncodeToString([]byte(associated))
	}
	ct := v.call(t, "POST", "transit/encrypt/"+key, body)["ciphertext"].(string)
	if !strings.HasPrefix(ct, fmt.Sprintf("vault:v%d:", version)) {
		t.Fatalf("Transit made %q, expected version %d", ct[:10], version)
	}
	return transitCase{ciphertext: ct, plaintext: plaintext, associated: associated, version: version}
}

// TestImportVaultTransit_decryptsAndRewrapsTransitsOwnCiphertexts: keys made in a real Transit
// (one rotated three times with its minimum decryption version raised, one chacha20-poly1305),
// ciphertexts made by Transit with and without associated data, the keys imported by cipherctl
// with their version numbers and minimum, every ciphertext decrypted by cipherd and compared,
// rewrapped by cipherctl rewrap, and the rewrapped ones decrypted.
func TestImportVaultTransit_decryptsAndRewrapsTransitsOwnCiphertexts(t *testing.T) {
	needServer(t)
	vault := needVault(t)
	tokenFile := filepath.Join(t.TempDir(), "vault-token")
	if err := os.WriteFile(tokenFile, []byte(vault.token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	vault.call(t, "POST", "transit/keys/payments", map[string]any{"type": "aes256-gcm96", "exportable": true, "allow_plaintext_backup": true})
	vault.call(t, "POST", "transit/keys/notes", map[string]any{"type": "chacha20-poly1305", "exportable": true})
	var cases []transitCase
	for version := 1; version <= 4; version++ {
		if version > 1 {
			vault.call(t, "POST", "transit/keys/payments/rotate", nil)
		}
		cases = append(cases,
			vault.encrypt(t, "payments", fmt.Sprintf("card %d", version), "", version),
			vault.encrypt(t, "payments", fmt.Sprintf("row %d", version), fmt.Sprintf("invoice=%d", version), version))
	}
	vault.call(t, "POST", "transit/keys/payments/config", map[string]any{"min_decryption_version": 2})
	vault.call(t, "POST", "transit/keys/notes/rotate", nil)
	notes := vault.encrypt(t, "notes", "a note", "tenant=7", 2)

	out := cipherctl(t, "", 0, "import", "vault-transit", "--address", vault.addr, "--key", "payments", "--into", "cli-transit-payments", "--token-file", tokenFile)
	if !strings.Contains(out, `"currentVersion": 4`) || !strings.Contains(out, `"minDecryptionVersion": 2`) || strings.Count(out, `"imported": true`) != 4 {
		t.Fatalf("import vault-transit printed %s", out)
	}
	t.Setenv("VAULT_TOKEN", vault.token)
	if out := cipherctl(t, "", 0, "import", "vault-transit", "--address", vault.addr, "--key", "notes", "--into", "cli-transit-notes"); !strings.Contains(out, `"mode": "MODE_CHACHA"`) || !strings.Contains(out, `"currentVersion": 2`) {
		t.Fatalf("import vault-transit of a chacha key printed %s", out)
	}
	if pt := cipherctl(t, notes.ciphertext+"\n", 0, "decrypt", "--expected-key", "cli-transit-notes", "--context", notes.associated); pt != notes.plaintext {
		t.Fatalf("the chacha ciphertext decrypted to %q", pt)
	}

	var lines []string
	for _, c := range cases {
		if c.version < 2 {
			// Below Transit's (and now the cipherd key's) minimum decryption version.
			cipherctl(t, c.ciphertext+"\n", 1, "decrypt", "--expected-key", "cli-transit-payments", "--context", c.associated)
			continue
		}
		if pt := cipherctl(t, c.ciphertext+"\n", 0, "decrypt", "--expected-key", "cli-transit-payments", "--context", c.associated); pt != c.plaintext {
			t.Fatalf("%s decrypted to %q, want %q", c.ciphertext[:9], pt, c.plaintext)
		}
		line, _ := json.Marshal(map[string]string{"ct": c.ciphertext, "ad": c.associated, "pt": c.plaintext})
		lines = append(lines, string(line))
	}
	if c := cases[len(cases)-1]; true {
		// Other associated data, or the key of another Transit key: decryption failed, nothing more.
		_, stderr := cipherctlErr(t, c.ciphertext+"\n", 1, "decrypt", "--expected-key", "cli-transit-payments", "--context", "invoice=0")
		_, other := cipherctlErr(t, c.ciphertext+"\n", 1, "decrypt", "--expected-key", "cli-transit-notes", "--context", c.associated)
		if !strings.Contains(stderr, "decryption failed") || stderr != other {
			t.Fatalf("failures differ: %q and %q", stderr, other)
		}
	}

	dir := t.TempDir()
	in, rewrapped := filepath.Join(dir, "payments.jsonl"), filepath.Join(dir, "payments-rewrapped.jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cipherctl(t, "", 0, "rewrap", "--in", in, "--out", rewrapped, "--field", "ct", "--context-field", "ad", "--expected-key", "cli-transit-payments")
	data, err := os.ReadFile(rewrapped)
	if err != nil {
		t.Fatal(err)
	}
	written := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(written) != len(lines) {
		t.Fatalf("rewrap wrote %d rows for %d", len(written), len(lines))
	}
	for _, row := range written {
		var r map[string]string
		if err := json.Unmarshal([]byte(row), &r); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r["ct"], "<cli-transit-payments/v4:gcm>") {
			t.Fatalf("rewrapped to %q", r["ct"])
		}
		if pt := cipherctl(t, r["ct"]+"\n", 0, "decrypt", "--context", r["ad"]); pt != r["pt"] {
			t.Fatalf("the rewrapped ciphertext decrypted to %q, want %q", pt, r["pt"])
		}
	}
	// The census counts Transit ciphertexts' use under their versions: each decrypted, then rewrapped.
	out = cipherctl(t, "", 0, "keys", "census", "cli-transit-payments")
	rows := censusRows(t, out)
	if len(rows) != 3 {
		t.Fatalf("keys census printed:\n%s", out)
	}
	for _, row := range rows[:2] {
		if row[2] == "0" || row[3] != "2" || row[4] != "yes" {
			t.Fatalf("keys census printed:\n%s", out)
		}
	}

	// Version 1 came from Transit's backup, not its export: its bytes are the right ones.
	cipherctl(t, "", 0, "keys", "policy", "cli-transit-payments", "--min-decryption-version", "1")
	for _, c := range cases[:2] {
		if pt := cipherctl(t, c.ciphertext+"\n", 0, "decrypt", "--expected-key", "cli-transit-payments", "--context", c.associated); pt != c.plaintext {
			t.Fatalf("version 1 (from the backup) decrypted %q, want %q", pt, c.plaintext)
		}
	}
}

// TestImportVaultTransit_derivedAndConvergentKeys: a derived key (rotated, ciphertexts under
// several contexts) and a convergent one made in a real Transit, imported by cipherctl (each then
// rotated once, so that the key has a version that encrypts), every ciphertext decrypted with its
// context, rewrapped by cipherctl rewrap and the rewrapped ones decrypted; another context, or
// none, is refused.
func TestImportVaultTransit_derivedAndConvergentKeys(t *testing.T) {
	needServer(t)
	vault := needVault(t)
	t.Setenv("VAULT_TOKEN", vault.token)
	vault.call(t, "POST", "transit/keys/users", map[string]any{"type": "aes256-gcm96", "derived": true, "exportable": true})
	vault.call(t, "POST", "transit/keys/tags", map[string]any{"type": "aes128-gcm96", "derived": true, "convergent_encryption": true, "exportable": true})
	vault.call(t, "POST", "transit/keys/users/rotate", nil)
	type derivedCase struct{ key, ciphertext, plaintext, context string }
	var cases []derivedCase
	for _, key := range []string{"users", "tags"} {
		for _, context := range []string{"user-1", "user-2"} {
			for version := 1; version <= 2; version++ {
				if key == "tags" && version == 2 {
					continue
				}
				plaintext := fmt.Sprintf("%s v%d for %s", key, version, context)
				ct := vault.call(t, "POST", "transit/encrypt/"+key, map[string]any{
					"plaintext": base64.StdEncoding.EncodeToString([]byte(plaintext)),
					"context":   base64.StdEncoding.EncodeToString([]byte(context)), "key_version": version,
				})["ciphertext"].(string)
				cases = append(cases, derivedCase{"cli-transit-" + key, ct, plaintext, context})
			}
		}
	}
	for key, want := range map[string]string{"users": `"currentVersion": 3`, "tags": `"currentVersion": 2`} {
		out := cipherctl(t, "", 0, "import", "vault-transit", "--address", vault.addr, "--key", key, "--into", "cli-transit-"+key)
		if !strings.Contains(out, want) || !strings.Contains(out, `"transitKdf": "TRANSIT_KDF_HKDF_SHA256"`) {
			t.Fatalf("import vault-transit of derived key %s printed %s", key, out)
		}
	}
	var lines []string
	for _, c := range cases {
		if pt := cipherctl(t, c.ciphertext+"\n", 0, "decrypt", "--expected-key", c.key, "--context", c.context); pt != c.plaintext {
			t.Fatalf("%s decrypted to %q, want %q", c.ciphertext[:9], pt, c.plaintext)
		}
		line, _ := json.Marshal(map[string]string{"ct": c.ciphertext, "ctx": c.context, "pt": c.plaintext})
		lines = append(lines, string(line))
	}
	c := cases[0]
	if _, stderr := cipherctlErr(t, c.ciphertext+"\n", 1, "decrypt", "--expected-key", c.key, "--context", "user-2"); !strings.Contains(stderr, "decryption failed") {
		t.Fatalf("another context: %q", stderr)
	}
	if _, stderr := cipherctlErr(t, c.ciphertext+"\n", 1, "decrypt", "--expected-key", c.key); !strings.Contains(stderr, "context") {
		t.Fatalf("no context: %q", stderr)
	}

	dir := t.TempDir()
	in, rewrapped := filepath.Join(dir, "derived.jsonl"), filepath.Join(dir, "derived-rewrapped.jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(lines[:4], "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cipherctl(t, "", 0, "rewrap", "--in", in, "--out", rewrapped, "--field", "ct", "--context-field", "ctx", "--expected-key", "cli-transit-users")
	data, err := os.ReadFile(rewrapped)
	if err != nil {
		t.Fatal(err)
	}
	written := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(written) != 4 {
		t.Fatalf("rewrap wrote %d rows for 4", len(written))
	}
	for _, row := range written {
		var r map[string]string
		if err := json.Unmarshal([]byte(row), &r); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r["ct"], "<cli-transit-users/v3:gcm>") {
			t.Fatalf("rewrapped to %q", r["ct"])
		}
		if pt := cipherctl(t, r["ct"]+"\n", 0, "decrypt", "--context", r["ctx"]); pt != r["pt"] {
			t.Fatalf("the rewrapped ciphertext decrypted to %q, want %q", pt, r["pt"])
		}
	}
}

// TestImportVaultTransit_refusesWhatItCannotKeep: a type cipherd does not take, a convergent key
// of Transit's convergent version 1, a key that cannot be exported, and versions below the minimum
// with no backup allowed, each refused with a message that says why, and no cipherd key made.
func TestImportVaultTransit_refusesWhatItCannotKeep(t *testing.T) {
	needServer(t)
	vault := needVault(t)
	t.Setenv("VAULT_TOKEN", vault.token)
	vault.call(t, "POST", "transit/keys/rsa", map[string]any{"type": "rsa-2048", "exportable": true})
	// Transit makes no convergent version 1 keys any more; its own backup, set back to version 1
	// (the version of Vault 0.6.1, whose nonce the caller gave), restored, is one.
	vault.call(t, "POST", "transit/keys/convergent", map[string]any{"type": "aes256-gcm96", "derived": true, "convergent_encryption": true, "exportable": true, "allow_plaintext_backup": true})
	raw, _ := base64.StdEncoding.DecodeString(vault.call(t, "GET", "transit/backup/convergent", nil)["backup"].(string))
	var backup map[string]any
	if err := json.Unmarshal(raw, &backup); err != nil {
		t.Fatal(err)
	}
	policy := backup["policy"].(map[string]any)
	policy["convergent_version"] = 1
	for _, entry := range policy["keys"].(map[string]any) {
		entry.(map[string]any)["convergent_version"] = 0
	}
	edited, _ := json.Marshal(backup)
	vault.call(t, "POST", "transit/restore/convergent-v1", map[string]any{"backup": base64.StdEncoding.EncodeToString(edited)})
	vault.call(t, "POST", "transit/keys/sealed", map[string]any{"type": "aes256-gcm96"})
	vault.call(t, "POST", "transit/keys/trimmed", map[string]any{"type": "aes256-gcm96", "exportable": true})
	vault.call(t, "POST", "transit/keys/trimmed/rotate", nil)
	vault.call(t, "POST", "transit/keys/trimmed/config", map[string]any{"min_decryption_version": 2})
	for key, want := range map[string]string{
		"rsa":           "of type rsa-2048",
		"convergent-v1": "convergent version 1",
		"sealed":        "not exportable",
		"trimmed":       "allow_plaintext_backup",
	} {
		into := "cli-transit-refused-" + key
		_, stderr := cipherctlErr(t, "", 1, "import", "vault-transit", "--address", vault.addr, "--key", key, "--into", into)
		if !strings.Contains(stderr, want) {
			t.Errorf("importing %s: %q does not say %q", key, stderr, want)
		}
		cipherctl(t, "", 1, "keys", "show", into)
	}
	cipherctl(t, "", 0, "keys", "create", "cli-transit-taken")
	vault.call(t, "POST", "transit/keys/taken", map[string]any{"type": "aes128-gcm96", "exportable": true})
	if _, stderr := cipherctlErr(t, "", 1, "import", "vault-transit", "--address", vault.addr, "--key", "taken", "--into", "cli-transit-taken"); !strings.Contains(stderr, "already exists") {
		t.Errorf("importing into an existing key: %q", stderr)
	}
	t.Setenv("VAULT_TOKEN", "")
	if _, stderr := cipherctlErr(t, "", 1, "import", "vault-transit", "--address", vault.addr, "--key", "taken"); !strings.Contains(stderr, "VAULT_TOKEN") {
		t.Errorf("without a token: %q", stderr)
	}
}
