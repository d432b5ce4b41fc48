package cipherd

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeBackups is an in-memory KeyAdminService that backs up one key as the server does (a
// KeyBackupFile wrapped for the recipient) and restores what is wrapped for its import job, so the
// test can see what the client sent; the real server's round trip is in cmd/cipherctl and the docs.
type fakeBackups struct {
	cipherdpb.UnimplementedKeyAdminServiceServer
	mu         sync.Mutex
	backup     *cipherdpb.KeyBackup
	exportable bool
	jobKey     *rsa.PrivateKey
	restored   *cipherdpb.KeyBackup
	created    *cipherdpb.CreateKeyRequest
}

func newFakeBackups() *fakeBackups {
	key := &cipherdpb.Key{KeyName: "orders", CurrentVersion: 3, Versions: []*cipherdpb.KeyVersion{
		{Version: 1, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_DESTROYED},
		{Version: 2, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_DESTRUCTION_SCHEDULED, DestroyTime: timestamppb.New(time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC))},
		{Version: 3, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_ENABLED}}}
	return &fakeBackups{backup: &cipherdpb.KeyBackup{Key: key, Materials: []*cipherdpb.KeyVersionMaterial{
		{Version: 2, KeyMaterial: bytes.Repeat([]byte{2}, 32)}, {Version: 3, KeyMaterial: bytes.Repeat([]byte{3}, 32)}}}}
}

func (f *fakeBackups) CreateKey(_ context.Context, r *cipherdpb.CreateKeyRequest) (*cipherdpb.CreateKeyResponse, error) {
	f.created = r
	return &cipherdpb.CreateKeyResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), Exportable: r.GetExportable()}}, nil
}

func (f *fakeBackups) SetKeyExportable(_ context.Context, r *cipherdpb.SetKeyExportableRequest) (*cipherdpb.SetKeyExportableResponse, error) {
	f.exportable = true
	k := proto.Clone(f.backup.GetKey()).(*cipherdpb.Key)
	k.Exportable = true
	return &cipherdpb.SetKeyExportableResponse{Key: k}, nil
}

func (f *fakeBackups) BackupKey(_ context.Context, r *cipherdpb.BackupKeyRequest) (*cipherdpb.BackupKeyResponse, error) {
	if !f.exportable {
		st, _ := status.New(codes.FailedPrecondition, "key 'orders' is not exportable").WithDetails(
			&errdetails.ErrorInfo{Domain: errorDomain, Reason: "KEY_NOT_EXPORTABLE", Metadata: map[string]string{"key": "orders"}})
		return nil, st.Err()
	}
	block, _ := pem.Decode([]byte(r.GetRecipientPublicKeyPem()))
	recipient := sha256.Sum256(block.Bytes)
	backup := proto.Clone(f.backup).(*cipherdpb.KeyBackup)
	backup.RecipientKeySha256, backup.BackupTime = recipient[:], timestamppb.New(time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC))
	inner, _ := proto.Marshal(backup)
	wrapped, err := WrapKeyMaterial(r.GetRecipientPublicKeyPem(), inner)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	file, _ := proto.Marshal(&cipherdpb.KeyBackupFile{Format: 1, KeyName: backup.GetKey().GetKeyName(), RecipientKeySha256: recipient[:],
		BackupTime: backup.GetBackupTime(), WrappingAlgorithm: cipherdpb.ImportWrappingAlgorithm_IMPORT_WRAPPING_ALGORITHM_RSA_AES_KEY_WRAP_SHA256_3072,
		WrappedKeyBackup: wrapped})
	return &cipherdpb.BackupKeyResponse{BackupFile: file, Key: backup.GetKey()}, nil
}

func (f *fakeBackups) CreateImportJob(_ context.Context, r *cipherdpb.CreateImportJobRequest) (*cipherdpb.CreateImportJobResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	spki, _ := x509.MarshalPKIXPublicKey(&f.jobKey.PublicKey)
	return &cipherdpb.CreateImportJobResponse{ImportJob: &cipherdpb.ImportJob{ImportJobId: "job-1", KeyName: r.GetKeyName(),
		PublicKeyPem: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})), ExpireTime: timestamppb.New(time.Now().Add(time.Hour))}}, nil
}

func (f *fakeBackups) RestoreKey(_ context.Context, r *cipherdpb.RestoreKeyRequest) (*cipherdpb.RestoreKeyResponse, error) {
	if r.GetKeyName() == "" {
		return nil, status.Error(codes.InvalidArgument, "key_name is required")
	}
	if r.GetImportJobId() != "job-1" {
		return nil, status.Error(codes.FailedPrecondition, "unknown job")
	}
	inner, err := unwrapKeyMaterial(f.jobKey, r.GetWrappedKeyBackup())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, "the wrapped key backup does not unwrap")
	}
	var backup cipherdpb.KeyBackup
	if err := proto.Unmarshal(inner, &backup); err != nil {
		return nil, status.Error(codes.InvalidArgument, "not a KeyBackup")
	}
	if backup.GetKey().GetKeyName() != r.GetKeyName() {
		return nil, status.Error(codes.FailedPrecondition, "the backup is of another key than key_name")
	}
	f.restored = &backup
	return &cipherdpb.RestoreKeyResponse{Key: backup.GetKey()}, nil
}

// rsaKey is an RSA key of bits and its PEM forms (PKCS#8 private, as openssl genpkey writes it).
func rsaKey(t *testing.T, bits int) (*rsa.PrivateKey, string, []byte) {
	t.Helper()
	private, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		t.Fatal(err)
	}
	spki, _ := x509.MarshalPKIXPublicKey(&private.PublicKey)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(private)
	return private, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})
}

func serveFakeBackups(t *testing.T, f *fakeBackups) *Client {
	t.Helper()
	f.jobKey, _, _ = rsaKey(t, 2048)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterKeyAdminServiceServer(s, f)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, l.Addr().String(), WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestKeyBackup_roundTripThroughTheRecipientAndAnImportJob backs a key up for a recipient, opens
// the file with the recipient's private key, and restores it: what reaches RestoreKey, unwrapped
// with the job's key, is the KeyBackup the server wrote, with its destroyed and scheduled versions.
func TestKeyBackup_roundTripThroughTheRecipientAndAnImportJob(t *testing.T) {
	f := newFakeBackups()
	c := serveFakeBackups(t, f)
	ctx := context.Background()
	_, recipientPEM, identity := rsaKey(t, 3072)

	if _, err := c.BackupKey(ctx, "orders", recipientPEM); !errors.Is(err, ErrKeyNotExportable) || !errors.Is(err, ErrFailedPrecondition) {
		t.Fatalf("BackupKey of a key not exportable: %v, want ErrKeyNotExportable", err)
	}
	if k, err := c.SetKeyExportable(ctx, "orders"); err != nil || !k.Exportable {
		t.Fatalf("SetKeyExportable = %+v, %v", k, err)
	}
	backup, err := c.BackupKey(ctx, "orders", recipientPEM)
	if err != nil {
		t.Fatal(err)
	}
	if backup.Key.KeyName != "orders" || len(backup.Key.Versions) != 3 {
		t.Errorf("BackupKey's key = %+v", backup.Key)
	}
	if bytes.Contains(backup.File, bytes.Repeat([]byte{3}, 32)) {
		t.Fatal("the backup file holds the material in the clear")
	}
	opened, err := OpenKeyBackup(backup.File, identity)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := opened.Key.Version(1); opened.Key.KeyName != "orders" || v.State != VersionDestroyed {
		t.Errorf("opened key = %+v", opened.Key)
	}
	opened.Wipe()
	if !bytes.Equal(opened.keyBackup, make([]byte, len(opened.keyBackup))) {
		t.Error("Wipe left the KeyBackup's bytes")
	}

	restored, err := c.RestoreKeyBackup(ctx, backup.File, identity)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := restored.Version(2); v.State != VersionDestructionScheduled || v.DestroyTime.IsZero() {
		t.Errorf("restored version 2 = %+v", v)
	}
	if got := f.restored; len(got.GetMaterials()) != 2 || !bytes.Equal(got.GetMaterials()[1].GetKeyMaterial(), bytes.Repeat([]byte{3}, 32)) ||
		got.GetKey().GetKeyName() != "orders" || len(got.GetRecipientKeySha256()) != 32 {
		t.Errorf("RestoreKey got %v", got)
	}
}

// TestOpenKeyBackup_refusesAnotherRecipientATamperedFileAndAForgedHeader checks each refusal is
// ErrKeyBackupUnopenable, says which, and never opens the backup.
func TestOpenKeyBackup_refusesAnotherRecipientATamperedFileAndAForgedHeader(t *testing.T) {
	f := newFakeBackups()
	f.exportable = true
	c := serveFakeBackups(t, f)
	_, recipientPEM, identity := rsaKey(t, 3072)
	_, _, otherIdentity := rsaKey(t, 3072)
	backup, err := c.BackupKey(context.Background(), "orders", recipientPEM)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(change func(*cipherdpb.KeyBackupFile)) []byte {
		var file cipherdpb.KeyBackupFile
		if err := proto.Unmarshal(backup.File, &file); err != nil {
			t.Fatal(err)
		}
		change(&file)
		out, _ := proto.Marshal(&file)
		return out
	}
	for _, c := range []struct {
		name, want string
		file       []byte
		identity   []byte
	}{
		{"another recipient", "another recipient key", backup.File, otherIdentity},
		{"a flipped byte", "does not unwrap", edit(func(f *cipherdpb.KeyBackupFile) { f.WrappedKeyBackup[len(f.WrappedKeyBackup)-3] ^= 1 }), identity},
		{"a flipped RSA byte", "does not unwrap", edit(func(f *cipherdpb.KeyBackupFile) { f.WrappedKeyBackup[5] ^= 1 }), identity},
		{"a renamed header", "does not match", edit(func(f *cipherdpb.KeyBackupFile) { f.KeyName = "payroll" }), identity},
		{"a later header time", "does not match", edit(func(f *cipherdpb.KeyBackupFile) { f.BackupTime = timestamppb.Now() }), identity},
		{"a truncated file", "does not unwrap", edit(func(f *cipherdpb.KeyBackupFile) { f.WrappedKeyBackup = f.WrappedKeyBackup[:400] }), identity},
		{"no file", "format 1", []byte("not a backup"), identity},
	} {
		opened, err := OpenKeyBackup(c.file, c.identity)
		if !errors.Is(err, ErrKeyBackupUnopenable) || !strings.Contains(err.Error(), c.want) || opened != nil {
			t.Errorf("%s: %v, want ErrKeyBackupUnopenable saying %q", c.name, err, c.want)
		}
	}
	if _, err := OpenKeyBackup(backup.File, []byte(recipientPEM)); err == nil || !strings.Contains(err.Error(), "not a PRIVATE KEY") {
		t.Errorf("a public key as identity: %v", err)
	}
}

func TestCreateKey_withExportableSendsIt(t *testing.T) {
	f := newFakeBackups()
	c := serveFakeBackups(t, f)
	k, err := c.CreateKey(context.Background(), "k", WithExportable())
	if err != nil || !f.created.GetExportable() || !k.Exportable {
		t.Errorf("CreateKey(WithExportable) sent %v, answered %+v, %v", f.created, k, err)
	}
	if _, err := c.RotateKey(context.Background(), "k", WithExportable()); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("RotateKey(WithExportable): %v", err)
	}
}

// TestAESKeyUnwrapPadded_rfc5649Examples unwraps RFC 5649's two examples (section 6) and refuses
// them under another KEK or with a flipped bit.
func TestAESKeyUnwrapPadded_rfc5649Examples(t *testing.T) {
	kek, _ := hex.DecodeString("5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8")
	for _, c := range []struct{ key, wrapped string }{
		{"c37b7e6492584340bed12207808941155068f738", "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a"},
		{"466f7250617369", "afbeb0f07dfbf5419200f2ccb50bb24f"},
	} {
		wrapped, _ := hex.DecodeString(c.wrapped)
		got, err := aesKeyUnwrapPadded(kek, wrapped)
		if err != nil || hex.EncodeToString(got) != c.key {
			t.Errorf("unwrap of %s = %x, %v; want %s", c.wrapped, got, err, c.key)
		}
		wrapped[len(wrapped)-1] ^= 1
		if _, err := aesKeyUnwrapPadded(kek, wrapped); err == nil {
			t.Errorf("unwrap of %s with a flipped bit succeeded", c.wrapped)
		}
		other := bytes.Clone(kek)
		other[0] ^= 1
		wrapped[len(wrapped)-1] ^= 1
		if _, err := aesKeyUnwrapPadded(other, wrapped); err == nil {
			t.Errorf("unwrap of %s under another KEK succeeded", c.wrapped)
		}
	}
}
