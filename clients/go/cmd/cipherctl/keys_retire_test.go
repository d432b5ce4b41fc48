package main_test

import (
	"context"
	"net"
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
