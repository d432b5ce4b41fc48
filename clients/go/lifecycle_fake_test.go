package cipherd_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/audit"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// fakeLifecycle records the lifecycle requests it gets and refuses a retirement below version 3
// as the server does, with the versions in use in its ErrorInfo. An in-memory server, because
// the real one cannot be asked what a request carried; the real one is in lifecycle_test.go.
type fakeLifecycle struct {
	cipherdpb.UnimplementedKeyAdminServiceServer
	last proto.Message
}

var destroyAt = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func (f *fakeLifecycle) ScheduleKeyVersionDestruction(_ context.Context, r *cipherdpb.ScheduleKeyVersionDestructionRequest) (*cipherdpb.ScheduleKeyVersionDestructionResponse, error) {
	f.last = r
	return &cipherdpb.ScheduleKeyVersionDestructionResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), Versions: []*cipherdpb.KeyVersion{
		{Version: 1, State: cipherdpb.KeyVersionState_KEY_VERSION_STATE_DESTRUCTION_SCHEDULED, DestroyTime: timestamppb.New(destroyAt)}}}}, nil
}

func (f *fakeLifecycle) ScheduleKeyDeletion(_ context.Context, r *cipherdpb.ScheduleKeyDeletionRequest) (*cipherdpb.ScheduleKeyDeletionResponse, error) {
	f.last = r
	return &cipherdpb.ScheduleKeyDeletionResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName(), State: cipherdpb.KeyState_KEY_STATE_DELETION_SCHEDULED}}, nil
}

func (f *fakeLifecycle) RetireKeyVersions(_ context.Context, r *cipherdpb.RetireKeyVersionsRequest) (*cipherdpb.RetireKeyVersionsResponse, error) {
	f.last = r
	if r.GetBelowVersion() >= 3 {
		st, _ := status.New(codes.FailedPrecondition, "versions 1, 2 of key 'k' were used within the quiet period").WithDetails(
			&errdetails.ErrorInfo{Domain: "cipherd.io", Reason: "KEY_VERSIONS_IN_USE", Metadata: map[string]string{"key": "k", "versions": "1,2"}})
		return nil, st.Err()
	}
	return &cipherdpb.RetireKeyVersionsResponse{Key: &cipherdpb.Key{KeyName: r.GetKeyName()}, RetiredVersions: []int32{1}, DestroyTime: timestamppb.New(destroyAt)}, nil
}

// fakeAudit answers VerifyAuditCheckpoints with the audit key of proto/testdata/audit.
type fakeAudit struct {
	cipherdpb.UnimplementedAuditServiceServer
	check audit.CheckpointCheck
	calls int
}

func (f *fakeAudit) VerifyAuditCheckpoints(_ context.Context, r *cipherdpb.VerifyAuditCheckpointsRequest) (*cipherdpb.VerifyAuditCheckpointsResponse, error) {
	f.calls++
	resp := &cipherdpb.VerifyAuditCheckpointsResponse{CheckedAt: timestamppb.Now()}
	for _, c := range r.GetCheckpoints() {
		resp.Valid = append(resp.Valid, f.check(c.GetSeq(), c.GetTime(), c.GetPrev(), c.GetMac()))
	}
	return resp, nil
}

func serveFakes(t *testing.T, admin *fakeLifecycle, auditSrv *fakeAudit) *cipherd.Client {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterKeyAdminServiceServer(s, admin)
	cipherdpb.RegisterAuditServiceServer(s, auditSrv)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return dial(t, l.Addr().String(), cipherd.WithInsecure())
}

const auditVectors = "../../proto/testdata/audit"

func vectorAuditKey(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(auditVectors, "audit.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		AuditKeyHex string `json:"audit_key_hex"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	key, err := hex.DecodeString(v.AuditKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestLifecycle_requestsCarryWindowsAndTheRefusalItsVersions(t *testing.T) {
	admin := &fakeLifecycle{}
	c := serveFakes(t, admin, &fakeAudit{})
	ctx := context.Background()

	k, err := c.ScheduleKeyVersionDestruction(ctx, "k", []int32{1}, 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	req := admin.last.(*cipherdpb.ScheduleKeyVersionDestructionRequest)
	if req.GetPendingWindow().AsDuration() != 48*time.Hour || !slices.Equal(req.GetVersions(), []int32{1}) {
		t.Errorf("ScheduleKeyVersionDestruction sent %v", req)
	}
	if v := k.Versions[0]; v.State != cipherd.VersionDestructionScheduled || v.State.String() != "destruction_scheduled" || !v.DestroyTime.Equal(destroyAt) {
		t.Errorf("version answered: %v", v)
	}

	// A zero window leaves the field out, so the server's default applies.
	if _, err := c.ScheduleKeyDeletion(ctx, "k", 0); err != nil {
		t.Fatal(err)
	}
	if r := admin.last.(*cipherdpb.ScheduleKeyDeletionRequest); r.PendingWindow != nil {
		t.Errorf("ScheduleKeyDeletion with no window sent %v", r.PendingWindow)
	}

	plan, err := c.RetireKeyVersions(ctx, "k", 2, cipherd.RetireOptions{QuietPeriod: time.Hour, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	r := admin.last.(*cipherdpb.RetireKeyVersionsRequest)
	if !r.GetValidateOnly() || r.GetQuietPeriod().AsDuration() != time.Hour || r.PendingWindow != nil || r.GetBelowVersion() != 2 {
		t.Errorf("RetireKeyVersions sent %v", r)
	}
	if !slices.Equal(plan.RetiredVersions, []int32{1}) || !plan.DestroyTime.Equal(destroyAt) {
		t.Errorf("plan %+v", plan)
	}

	_, err = c.RetireKeyVersions(ctx, "k", 3, cipherd.RetireOptions{})
	if !errors.Is(err, cipherd.ErrKeyVersionsInUse) || !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Fatalf("refused retirement: %v", err)
	}
	if got := cipherd.VersionsInUse(err); !slices.Equal(got, []int32{1, 2}) {
		t.Errorf("VersionsInUse = %v, want [1 2]", got)
	}
}

func TestStateNames_unspecifiedReadsEnabled(t *testing.T) {
	if cipherd.KeyStateUnspecified.String() != "enabled" || cipherd.KeyEnabled.String() != "enabled" ||
		cipherd.KeyDeletionScheduled.String() != "deletion_scheduled" ||
		cipherd.VersionStateUnspecified.String() != "enabled" ||
		cipherd.VersionDestroyed.String() != "destroyed" {
		t.Error("state names")
	}
}

// TestAuditCheckpointCheck_theServerJudgesEachCheckpoint verifies the vectors with the MACs
// checked by a server holding their audit key: the forged chain links up but fails there.
func TestAuditCheckpointCheck_theServerJudgesEachCheckpoint(t *testing.T) {
	fake := &fakeAudit{check: audit.CheckpointsUnder(vectorAuditKey(t))}
	c := serveFakes(t, &fakeLifecycle{}, fake)
	for file, wantIntact := range map[string]bool{"intact.log": true, "forged.log": false} {
		files, err := audit.ReadFiles([]string{filepath.Join(auditVectors, file)})
		if err != nil {
			t.Fatal(err)
		}
		check, err := c.AuditCheckpointCheck(context.Background(), files)
		n := len(audit.Checkpoints(files))
		if err != nil {
			t.Fatal(err)
		}
		v := audit.VerifyFiles(files, check, nil)
		if v.Intact() != wantIntact || n == 0 || !v.MACsChecked {
			t.Errorf("%s: %+v after %d checkpoints asked about, want intact=%v", file, v, n, wantIntact)
		}
	}
	if fake.calls != 2 {
		t.Errorf("%d VerifyAuditCheckpoints calls, want one per verification", fake.calls)
	}
}
