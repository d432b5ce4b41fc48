package validate

// deploy/vault's scripts against a real Vault dev server, then cipherd logging in with the AppRole they
// made, on the KV mount they enabled, under the policy they loaded: an Encrypt that needs every step.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func vaultBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("VAULT_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("VAULT_BIN is not set (make test-deploy sets it from .ci/install-vault)")
		}
		t.Skip("VAULT_BIN not set: run make test-deploy")
	}
	return bin
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startVault(t *testing.T, bin string) []string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cmd := exec.Command(bin, "server", "-dev", "-dev-root-token-id=deploy-validate-root", "-dev-listen-address="+addr)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if res, err := http.Get("http://" + addr + "/v1/sys/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("Vault dev server did not start within 30 s")
		}
	}
	return append(os.Environ(), "VAULT_ADDR=http://"+addr, "VAULT_TOKEN=deploy-validate-root", "VAULT_BIN="+bin)
}

func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestVaultScriptsSetUpWhatCipherdNeeds(t *testing.T) {
	bin := vaultBin(t)
	env := append(startVault(t, bin), "CIPHERD_VAULT_MOUNT=cipherd-kv", "CIPHERD_VAULT_PREFIX=prod/keys")
	const scripts = "../vault/"

	run(t, env, scripts+"enable-kv.sh")
	if out := run(t, env, bin, "read", "-field=options", "sys/mounts/cipherd-kv"); !strings.Contains(out, "version:2") {
		t.Fatalf("enable-kv.sh: cipherd-kv is not KV v2: %s", out)
	}
	if out := run(t, env, scripts+"enable-kv.sh"); !strings.Contains(out, "already KV v2") {
		t.Errorf("enable-kv.sh must be idempotent: %s", out)
	}
	run(t, env, bin, "secrets", "enable", "-path=old-kv", "-version=1", "kv")
	run(t, env, scripts+"enable-kv.sh", "old-kv")
	if out := run(t, env, bin, "read", "-field=options", "sys/mounts/old-kv"); !strings.Contains(out, "version:2") {
		t.Errorf("enable-kv.sh must upgrade a KV v1 mount: %s", out)
	}

	run(t, env, scripts+"load-policy.sh")
	policy := run(t, env, bin, "policy", "read", "cipherd")
	if !strings.Contains(policy, `"cipherd-kv/data/prod/keys/*"`) || !strings.Contains(policy, `"cipherd-kv/destroy/prod/keys/*"`) ||
		strings.Contains(policy, "secret/") {
		t.Fatalf("load-policy.sh must rewrite the paths for the mount and prefix:\n%s", policy)
	}

	creds := t.TempDir()
	run(t, env, scripts+"setup-approle.sh", creds)
	for _, f := range []string{"role-id", "secret-id"} {
		st, err := os.Stat(filepath.Join(creds, f))
		if err != nil || st.Size() < 30 || st.Mode().Perm() != 0o600 {
			t.Fatalf("setup-approle.sh: %s must be a 0600 file with the credential: %v %v", f, st, err)
		}
	}

	// Outside a cluster Vault cannot read a pod's CA file: the API server's CA is given, as an operator would.
	run(t, append(env, "KUBERNETES_HOST=https://127.0.0.1:6443", "KUBERNETES_CA_CERT="+selfSignedCA(t)),
		scripts+"setup-kubernetes.sh", "kms-cipherd", "crypto")
	role := run(t, env, bin, "read", "-format=json", "auth/kubernetes/role/cipherd")
	for _, want := range []string{`"kms-cipherd"`, `"crypto"`, `"audience": "vault"`, `"cipherd"`} {
		if !strings.Contains(role, want) {
			t.Errorf("setup-kubernetes.sh: role lacks %s:\n%s", want, role)
		}
	}

	// The real server, as the chart configures it (env only), logging in with the AppRole.
	var vaultAddr string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "VAULT_ADDR="); ok {
			vaultAddr = v
		}
	}
	srv := startServerWithEnv(t, []string{
		"CIPHERD_KEYSTORE=vault", "CIPHERD_VAULT_ADDRESS=" + vaultAddr, "CIPHERD_VAULT_AUTH=approle",
		"CIPHERD_VAULT_MOUNT=cipherd-kv", "CIPHERD_VAULT_PREFIX=prod/keys",
		"CIPHERD_VAULT_ROLE_ID_FILE=" + filepath.Join(creds, "role-id"),
		"CIPHERD_VAULT_SECRET_ID_FILE=" + filepath.Join(creds, "secret-id"),
	})
	srv.traffic(t) // creates key demo in Vault (--demo-key), encrypts and decrypts with it
	if out := run(t, env, bin, "kv", "metadata", "get", "-mount=cipherd-kv", "prod/keys/demo"); !strings.Contains(out, "cas_required") {
		t.Errorf("cipherd did not store key demo under the scripts' mount and prefix:\n%s", out)
	}
}

// selfSignedCA writes a CA certificate standing in for the Kubernetes API server's, and returns its path.
func selfSignedCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kubernetes-ca"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
