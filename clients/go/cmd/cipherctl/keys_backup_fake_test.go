package main_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeBackupAdmin is an in-memory KeyAdminService that backs up one key for the recipient asked (or,
// with wrapFor set, for another key, as a server that should not be trusted) and records what
// RestoreKey and CreateImportJob got. The real server's round trip is in keys_backup_test.go.
type fakeBackupAdmin struct {
	cipherdpb.UnimplementedKeyAdminServiceServer
	mu       sync.Mutex
	wrapFor  string // a PEM public key to wrap for instead of the recipient's
	jobs     []string
	restores []*cipherdpb.RestoreKeyRequest
	created  *cipherdpb.CreateKeyRequest
}

var material = bytes.Repeat([]byte{0x5a}, 32)

func backedUpKey() *cipherdpb.Key {
	return &cipherdpb.Key{KeyName: "orders", CurrentVersion: 2, Exportable: true, Versions: []*cipherdpb.KeyVersion{
		{Version: 1, Mode: cipherdpb.Mode_MODE_GCM, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_DESTROYED, DestroyTime: timestamppb.New(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))},
		{Version: 2, Mode: cipherdpb.Mode_MODE_GCM, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_ENABLED}}}
}

func (f *fakeBackupAdmin) CreateKey(_ context.Context, r *cipherdpb.CreateKeyRequest) (*cipherdpb.CreateKeyResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = r
	return &cipherdpb.CreateKeyResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), Exportable: r.GetExportable()}}, nil
}

func (f *fakeBackupAdmin) SetKeyExportable(_ context.Context, r *cipherdpb.SetKeyExportableRequest) (*cipherdpb.SetKeyExportableResponse, error) {
	return &cipherdpb.SetKeyExportableResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), Exportable: true}}, nil
}

func (f *fakeBackupAdmin) BackupKey(_ context.Context, r *cipherdpb.BackupKeyRequest) (*cipherdpb.BackupKeyResponse, error) {
	recipient := r.GetRecipientPublicKeyPem()
	if f.wrapFor != "" {
		recipient = f.wrapFor
	}
	block, _ := pem.Decode([]byte(recipient))
	sum := sha256.Sum256(block.Bytes)
	at := timestamppb.New(time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC))
	inner, _ := proto.Marshal(&cipherdpb.KeyBackup{Key: backedUpKey(), RecipientKeySha256: sum[:], BackupTime: at,
		Materials: []*cipherdpb.KeyVersionMaterial{{Version: 2, KeyMaterial: material}}})
	wrapped, err := cipherd.WrapKeyMaterial(recipient, inner)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	file, _ := proto.Marshal(&cipherdpb.KeyBackupFile{Format: 1, KeyName: "orders", RecipientKeySha256: sum[:], BackupTime: at, WrappedKeyBackup: wrapped})
	return &cipherdpb.BackupKeyResponse{BackupFile: file, Key: backedUpKey()}, nil
}

func (f *fakeBackupAdmin) CreateImportJob(_ context.Context, r *cipherdpb.CreateImportJobRequest) (*cipherdpb.CreateImportJobResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs = append(f.jobs, r.GetKeyName())
	return &cipherdpb.CreateImportJobResponse{ImportJob: &cipherdpb.ImportJob{ImportJobId: "job-7", KeyName: r.GetKeyName(),
		PublicKeyPem: jobPublicKeyPEM, ExpireTime: timestamppb.New(time.Now().Add(time.Hour))}}, nil
}

func (f *fakeBackupAdmin) RestoreKey(_ context.Context, r *cipherdpb.RestoreKeyRequest) (*cipherdpb.RestoreKeyResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.restores = append(f.restores, r)
	return &cipherdpb.RestoreKeyResponse{Key: backedUpKey()}, nil
}

var jobPublicKeyPEM = func() string {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	spki, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki}))
}()

func serveFakeBackupAdmin(t *testing.T, f *fakeBackupAdmin) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterKeyAdminServiceServer(s, f)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String()
}

// recipientKeys makes an RSA-3072 recipient as docs/operating.md does, with openssl genpkey and
// openssl pkey -pubout: it returns the private and public key files.
func recipientKeys(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	private, public := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".pub.pem")
	if out, err := exec.Command("openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:3072", "-out", private).CombinedOutput(); err != nil {
		t.Fatalf("openssl genpkey: %v\n%s", err, out)
	}
	if out, err := exec.Command("openssl", "pkey", "-in", private, "-pubout", "-out", public).CombinedOutput(); err != nil {
		t.Fatalf("openssl pkey: %v\n%s", err, out)
	}
	return private, public
}

func TestKeysBackup_writesA0600FileOnceAndRestorePrintsVersionsNeverMaterial(t *testing.T) {
	f := &fakeBackupAdmin{}
	addr := serveFakeBackupAdmin(t, f)
	dir := t.TempDir()
	private, public := recipientKeys(t, dir, "recipient")
	file := filepath.Join(dir, "orders.backup")

	code, stdout, stderr := cipherctlAt(t, addr, "", "keys", "backup", "orders", "--to", file, "--recipient", public)
	if code != 0 || !strings.HasPrefix(stdout, "backed up orders (2 versions, 1 of them destroyed and written without material) to "+file+" for recipient sha256:") {
		t.Fatalf("keys backup: exit %d\n%s%s", code, stdout, stderr)
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("backup file: %v, %v; want mode 0600", info, err)
	}
	first, _ := os.ReadFile(file)
	if bytes.Contains(first, material) {
		t.Fatal("the backup file holds the material in the clear")
	}
	if code, _, stderr := cipherctlAt(t, addr, "", "keys", "backup", "orders", "--to", file, "--recipient", public); code != 1 || !strings.Contains(stderr, "unless --force") {
		t.Errorf("a second backup to the same file: exit %d, %s", code, stderr)
	}
	if again, _ := os.ReadFile(file); !bytes.Equal(again, first) {
		t.Error("a refused backup changed the file")
	}
	if code, _, stderr := cipherctlAt(t, addr, "", "keys", "backup", "orders", "--to", file, "--recipient", public, "--force"); code != 0 {
		t.Errorf("keys backup --force: exit %d, %s", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("the backup left temporary files: %v", entries)
	}

	code, stdout, stderr = cipherctlAt(t, addr, "", "keys", "restore", "--from", file, "--identity", private)
	if code != 0 {
		t.Fatalf("keys restore: exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for i := range lines {
		lines[i] = strings.Join(strings.Fields(lines[i]), " ")
	}
	want := []string{"restored orders: 2 versions, v2 current, key enabled, exportable", "VERSION MODE STATE DESTROY TIME",
		"v1 gcm destroyed 2026-11-01T00:00:00Z", "v2 gcm enabled -"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("keys restore printed:\n%s\nwant:\n%s", stdout, strings.Join(want, "\n"))
	}
	if len(f.jobs) != 1 || f.jobs[0] != "orders" || len(f.restores) != 1 || f.restores[0].GetImportJobId() != "job-7" || f.restores[0].GetKeyName() != "orders" ||
		len(f.restores[0].GetWrappedKeyBackup()) < 256+40 || bytes.Contains(f.restores[0].GetWrappedKeyBackup(), material) {
		t.Errorf("the restore asked for jobs %v and sent %d restores", f.jobs, len(f.restores))
	}
}

// TestKeysRestore_refusesAnotherRecipientBeforeAnyCall: the wrong identity fails before anything is
// sent, and --into-address reaches the server named.
func TestKeysRestore_refusesAnotherRecipientBeforeAnyCallAndGoesWhereToldTo(t *testing.T) {
	f, other := &fakeBackupAdmin{}, &fakeBackupAdmin{}
	addr, otherAddr := serveFakeBackupAdmin(t, f), serveFakeBackupAdmin(t, other)
	dir := t.TempDir()
	private, public := recipientKeys(t, dir, "recipient")
	stranger, _ := recipientKeys(t, dir, "stranger")
	file := filepath.Join(dir, "orders.backup")
	if code, _, stderr := cipherctlAt(t, addr, "", "keys", "backup", "orders", "--to", file, "--recipient", public); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := cipherctlAt(t, addr, "", "keys", "restore", "--from", file, "--identity", stranger)
	if code != 1 || !strings.Contains(stderr, "made for another recipient key") || len(f.jobs) != 0 || len(f.restores) != 0 || stdout != "" {
		t.Errorf("restore with another identity: exit %d, %q, %q; calls: %v", code, stdout, stderr, f.jobs)
	}
	if code, _, stderr := cipherctlAt(t, addr, "", "keys", "restore", "--from", file, "--identity", private, "--into-address", otherAddr); code != 0 ||
		len(other.restores) != 1 || len(f.restores) != 0 {
		t.Errorf("restore --into-address: exit %d, %s; restores here %d, there %d", code, stderr, len(f.restores), len(other.restores))
	}
}

// TestKeysBackup_refusesAFileWrappedForAnotherRecipient: a server that wraps for a key other than
// the one asked gets nothing written.
func TestKeysBackup_refusesAFileWrappedForAnotherRecipient(t *testing.T) {
	dir := t.TempDir()
	_, public := recipientKeys(t, dir, "recipient")
	_, intruder := recipientKeys(t, dir, "intruder")
	intruderPEM, _ := os.ReadFile(intruder)
	addr := serveFakeBackupAdmin(t, &fakeBackupAdmin{wrapFor: string(intruderPEM)})
	file := filepath.Join(dir, "orders.backup")
	code, _, stderr := cipherctlAt(t, addr, "", "keys", "backup", "orders", "--to", file, "--recipient", public)
	if _, err := os.Stat(file); code != 1 || !strings.Contains(stderr, "not made for the recipient given") || err == nil {
		t.Errorf("backup wrapped for another key: exit %d, %s, file: %v", code, stderr, err)
	}
	if code, _, stderr := cipherctlAt(t, addr, "", "keys", "backup", "orders", "--to", file, "--recipient", filepath.Join(dir, "recipient.pem")); code != 1 ||
		!strings.Contains(stderr, "not a PEM PUBLIC KEY") {
		t.Errorf("a private key as recipient: exit %d, %s", code, stderr)
	}
}

func TestKeysCreateExportableAndSetExportable(t *testing.T) {
	f := &fakeBackupAdmin{}
	addr := serveFakeBackupAdmin(t, f)
	if code, stdout, stderr := cipherctlAt(t, addr, "", "keys", "create", "k", "--exportable"); code != 0 || !f.created.GetExportable() ||
		!strings.Contains(stdout, `"exportable": true`) {
		t.Errorf("keys create --exportable: exit %d, sent %v, printed %s%s", code, f.created, stdout, stderr)
	}
	if code, stdout, stderr := cipherctlAt(t, addr, "", "keys", "set-exportable", "k"); code != 0 || !strings.Contains(stdout, `"exportable": true`) {
		t.Errorf("keys set-exportable: exit %d, %s%s", code, stdout, stderr)
	}
}
