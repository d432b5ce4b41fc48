package main_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// retireServer refuses a retirement below version 3 as the server does, naming versions 1 and 2
// in its ErrorInfo, and plans one below version 2. An in-memory server, so the refusal's output
// is tested whatever the jar; lifecycle_test.go runs the real one.
type retireServer struct {
	cipherdpb.UnimplementedKeyAdminServiceServer
	last *cipherdpb.RetireKeyVersionsRequest
}

func (s *retireServer) RetireKeyVersions(_ context.Context, r *cipherdpb.RetireKeyVersionsRequest) (*cipherdpb.RetireKeyVersionsResponse, error) {
	s.last = r
	if r.GetBelowVersion() >= 3 {
		st, _ := status.New(codes.FailedPrecondition, "versions of key 'k' were used within the quiet period").WithDetails(
			&errdetails.ErrorInfo{Domain: "cipherd.io", Reason: "KEY_VERSIONS_IN_USE", Metadata: map[string]string{"key": "k", "versions": "1,2"}})
		return nil, st.Err()
	}
	return &cipherdpb.RetireKeyVersionsResponse{Key: &cipherdpb.Key{KeyName: "k"}, RetiredVersions: []int32{1},
		DestroyTime: timestamppb.New(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))}, nil
}

func serveRetire(t *testing.T) (string, *retireServer) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &retireServer{}
	s := grpc.NewServer()
	cipherdpb.RegisterKeyAdminServiceServer(s, fake)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String(), fake
}

func TestKeysRetire_refusalNamesTheVersionsInUse(t *testing.T) {
	addr, fake := serveRetire(t)
	code, stdout, stderr := runAt(t, addr, "keys", "retire", "k", "--below", "3", "--quiet-period", "72h")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "not retiring k below v3: v1, v2 used within the quiet period (72h0m0s)") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if fake.last.GetQuietPeriod().AsDuration() != 72*time.Hour || fake.last.GetValidateOnly() {
		t.Errorf("request %v", fake.last)
	}
	code, stdout, stderr = runAt(t, addr, "keys", "retire", "k", "--below", "2", "--dry-run", "--pending-window", "48h")
	want := "would retire (dry run, nothing changed) k: v1\nmin_decryption_version: 2\ndestroyed at: 2026-12-01T10:00:00Z (until then: cipherctl keys cancel-destroy k --versions 1)\n"
	if code != 0 || stdout != want {
		t.Fatalf("exit %d\nstdout: %q\nwant:   %q\nstderr: %s", code, stdout, want, stderr)
	}
	if !fake.last.GetValidateOnly() || fake.last.GetPendingWindow().AsDuration() != 48*time.Hour {
		t.Errorf("request %v", fake.last)
	}
}

func TestKeysDestroy_versionsAreCheckedBeforeAnyCall(t *testing.T) {
	for _, versions := range []string{"", "0", "1,x", "-1"} {
		if code, _, stderr := runAt(t, "127.0.0.1:1", "keys", "destroy", "k", "--versions", versions); code != 1 || !strings.Contains(stderr, "--versions") {
			t.Errorf("--versions %q: exit %d, %s", versions, code, stderr)
		}
	}
}

// inventoryServer refuses as the server does when an inventory counts a ciphertext below the
// version asked, naming that inventory's source.
type inventoryServer struct {
	retireServer
}

func (s *inventoryServer) RetireKeyVersions(ctx context.Context, r *cipherdpb.RetireKeyVersionsRequest) (*cipherdpb.RetireKeyVersionsResponse, error) {
	s.last = r
	for _, inv := range r.GetInventories() {
		for _, v := range inv.GetVersions() {
			if v.GetVersion() < r.GetBelowVersion() && v.GetCiphertexts() > 0 {
				st, _ := status.New(codes.FailedPrecondition, "key 'k' cannot retire version 2: inventory still counts it").WithDetails(
					&errdetails.ErrorInfo{Domain: "cipherd.io", Reason: "KEY_VERSIONS_IN_USE",
						Metadata: map[string]string{"key": "k", "versions": fmt.Sprint(v.GetVersion()), "source": inv.GetSource()}})
				return nil, st.Err()
			}
		}
	}
	return &cipherdpb.RetireKeyVersionsResponse{Key: &cipherdpb.Key{KeyName: "k"}, RetiredVersions: []int32{1, 2},
		DestroyTime: timestamppb.New(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))}, nil
}

func serveInventories(t *testing.T) (string, *inventoryServer) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &inventoryServer{}
	s := grpc.NewServer()
	cipherdpb.RegisterKeyAdminServiceServer(s, fake)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String(), fake
}

// writeInventory writes a scan --out file: its inventories beside a field retire leaves alone.
func writeInventory(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scan.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestKeysRetire_inventory_refusalNamesTheSourceAndTheCount_otherKeysSkipped(t *testing.T) {
	addr, fake := serveInventories(t)
	scan := writeInventory(t, `{"format": 1, "sources": [{"source": "postgres:users.email"}],
  "inventories": [
    {"keyName": "other", "source": "postgres:users.email", "versions": [{"version": 1, "ciphertexts": 9}]},
    {"keyName": "k", "source": "postgres:users.email", "scanTime": "2026-11-24T08:00:00Z", "itemsScanned": "1200",
     "versions": [{"version": 2, "ciphertexts": 3}, {"version": 3, "ciphertexts": "1197"}], "newerField": true}]}`)

	code, stdout, stderr := runAt(t, addr, "keys", "retire", "k", "--below", "3", "--inventory", scan)

	if code != 1 || stdout != "" ||
		!strings.Contains(stderr, "not retiring k below v3: inventory postgres:users.email still counts 3 ciphertexts under v2: rewrap them (cipherctl rewrap) and scan again") ||
		!strings.Contains(stderr, `skipping inventory "postgres:users.email" of key "other"`) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	sent := fake.last.GetInventories()
	if len(sent) != 1 || sent[0].GetKeyName() != "k" || sent[0].GetItemsScanned() != 1200 || len(sent[0].GetVersions()) != 2 ||
		sent[0].GetScanTime().AsTime() != time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC) {
		t.Fatalf("inventories sent: %v", sent)
	}
}

func TestKeysRetire_inventory_atOrAboveBelow_retires_andRepeats(t *testing.T) {
	addr, fake := serveInventories(t)
	one := writeInventory(t, `{"inventories": [{"keyName": "k", "source": "file:a.jsonl#email", "versions": [{"version": 3, "ciphertexts": 5}]}]}`)
	two := writeInventory(t, `{"inventories": [{"keyName": "k", "source": "postgres:users.email", "versions": [{"version": 1, "ciphertexts": 0}]}]}`)

	code, stdout, stderr := runAt(t, addr, "keys", "retire", "k", "--below", "3", "--inventory", one, "--inventory", two)

	if code != 0 || !strings.HasPrefix(stdout, "retired k: v1, v2\n") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if len(fake.last.GetInventories()) != 2 {
		t.Fatalf("inventories sent: %v", fake.last.GetInventories())
	}
}

func TestKeysRetire_inventory_missingOrMalformedFile_failsBeforeAnyCall(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.json")
	malformed := writeInventory(t, `{"inventories": [{"keyName": "k", "versions": "many"}]}`)
	notScan := writeInventory(t, `{"rows": 3}`)
	for path, want := range map[string]string{missing: "no such file", malformed: "inventory 1", notScan: `no "inventories" field`} {
		code, _, stderr := runAt(t, "127.0.0.1:1", "keys", "retire", "k", "--below", "3", "--inventory", path)
		if code != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, "unavailable") {
			t.Errorf("%s: exit %d, %s", path, code, stderr)
		}
	}
}
