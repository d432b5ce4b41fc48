package main_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/cipherd/cipherd/clients/go/audit"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

const auditDir = "../../../../proto/testdata/audit"

// auditVectors is proto/testdata/audit/audit.json.
type auditVectors struct {
	AuditKeyHex string `json:"audit_key_hex"`
	Cases       []struct {
		Name         string   `json:"name"`
		Files        []string `json:"files"`
		Head         string   `json:"head"`
		Intact       bool     `json:"intact"`
		FirstBadLine string   `json:"first_bad_line"`
	} `json:"cases"`
}

func loadAuditVectors(t *testing.T) auditVectors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(auditDir, "audit.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v auditVectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// checkpointServer is an AuditService holding the vectors' audit key, as the real server holds
// its own: the real one cannot be given the vectors' key.
type checkpointServer struct {
	cipherdpb.UnimplementedAuditServiceServer
	check audit.CheckpointCheck
	head  atomic.Pointer[cipherdpb.AuditHead] // what its key store holds, for any trail
	asked atomic.Int32                        // how many requests came with no checkpoints (head only)
}

func (s *checkpointServer) VerifyAuditCheckpoints(_ context.Context, r *cipherdpb.VerifyAuditCheckpointsRequest) (*cipherdpb.VerifyAuditCheckpointsResponse, error) {
	resp := &cipherdpb.VerifyAuditCheckpointsResponse{CheckedAt: timestamppb.Now(), Head: s.head.Load()}
	if len(r.GetCheckpoints()) == 0 {
		s.asked.Add(1)
	}
	for _, c := range r.GetCheckpoints() {
		resp.Valid = append(resp.Valid, s.check(c.GetSeq(), c.GetTime(), c.GetPrev(), c.GetMac()))
	}
	return resp, nil
}

func serveCheckpoints(t *testing.T, hexKey string) string {
	t.Helper()
	addr, _ := serveCheckpointServer(t, hexKey)
	return addr
}

func serveCheckpointServer(t *testing.T, hexKey string) (string, *checkpointServer) {
	t.Helper()
	key, err := hex.DecodeString(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	fake := &checkpointServer{check: audit.CheckpointsUnder(key)}
	cipherdpb.RegisterAuditServiceServer(s, fake)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String(), fake
}

// readVectorHead reads a vector's head file (protojson AuditHead); nil for none.
func readVectorHead(t *testing.T, name string) *cipherdpb.AuditHead {
	t.Helper()
	if name == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(auditDir, name))
	if err != nil {
		t.Fatal(err)
	}
	head := &cipherdpb.AuditHead{}
	if err := protojson.Unmarshal(data, head); err != nil {
		t.Fatal(err)
	}
	return head
}

// runAt runs cipherctl against addr and returns its exit code, stdout and stderr.
func runAt(t *testing.T, addr string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "CIPHERD_ADDR="+addr)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// TestAuditVerify_vectors runs every case of audit.json through cipherctl audit verify, with the
// MACs checked by a server holding the vectors' key and the case's head (asked for first), and
// offline with the head given by --head, where only the forged chain (which links up) changes its
// verdict.
func TestAuditVerify_vectors(t *testing.T) {
	v := loadAuditVectors(t)
	addr, fake := serveCheckpointServer(t, v.AuditKeyHex)
	for _, c := range v.Cases {
		var files []string
		for _, f := range c.Files {
			files = append(files, filepath.Join(auditDir, f))
		}
		fake.head.Store(readVectorHead(t, c.Head))
		for _, offline := range []bool{false, true} {
			args := append([]string{"audit", "verify"}, files...)
			wantIntact := c.Intact
			if offline {
				args = append(args, "--offline")
				if c.Head != "" {
					args = append(args, "--head", filepath.Join(auditDir, c.Head))
				}
				wantIntact = c.Intact || strings.HasPrefix(c.Name, "forged")
			}
			headsAsked := fake.asked.Load()
			code, stdout, stderr := runAt(t, addr, args...)
			if !offline && fake.asked.Load() != headsAsked+1 {
				t.Errorf("%s: the server was not asked for the head", c.Name)
			}
			if (c.Head != "") != strings.Contains(stdout, "completeness: checked against") {
				t.Errorf("%s (offline %v): stdout does not say how completeness was checked: %q", c.Name, offline, stdout)
			}
			if wantIntact != (code == 0) || (!wantIntact && code != 1) {
				t.Errorf("%s (offline %v): exit %d, want intact=%v\n%s%s", c.Name, offline, code, wantIntact, stdout, stderr)
				continue
			}
			if !wantIntact && c.FirstBadLine != "" && !strings.Contains(stderr, "NOT intact: "+c.FirstBadLine+":") {
				t.Errorf("%s (offline %v): stderr %q, want it to blame %s", c.Name, offline, stderr, c.FirstBadLine)
			}
			wantVerdict := "\nintact\n"
			if c.Head == "" {
				wantVerdict = "\nintact as far as the chain goes\n"
			}
			if wantIntact && !strings.Contains(stdout, wantVerdict) {
				t.Errorf("%s (offline %v): stdout %q", c.Name, offline, stdout)
			}
			if offline != strings.Contains(stdout, "not checked (--offline)") || (!offline && !strings.Contains(stdout, "checked by the server")) {
				t.Errorf("%s (offline %v): stdout does not say how the MACs were checked: %q", c.Name, offline, stdout)
			}
		}
	}
}

func TestAuditVerify_countsTheCheckpointsTheServerChecked(t *testing.T) {
	v := loadAuditVectors(t)
	code, stdout, stderr := runAt(t, serveCheckpoints(t, v.AuditKeyHex), "audit", "verify", filepath.Join(auditDir, "intact.log"))
	if code != 0 || !strings.Contains(stdout, "checkpoint MACs: 3 checked by the server") || !strings.Contains(stdout, "call records: 5, checkpoints: 3") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// A server whose audit key is another one refuses every checkpoint.
	code, _, stderr = runAt(t, serveCheckpoints(t, strings.Repeat("ff", 32)), "audit", "verify", filepath.Join(auditDir, "intact.log"))
	if code != 1 || !strings.Contains(stderr, "intact.log:") || !strings.Contains(stderr, "fails its MAC") {
		t.Fatalf("another key: exit %d, %s", code, stderr)
	}
}

// TestAuditVerify_theLiveFileBringsItsRotatedSiblings gives the live file alone: its rotated
// siblings are found and read first, so the chain is whole.
func TestAuditVerify_theLiveFileBringsItsRotatedSiblings(t *testing.T) {
	code, stdout, stderr := runAt(t, "127.0.0.1:1", "audit", "verify", "--offline", filepath.Join(auditDir, "rotated.log"))
	if code != 0 || !strings.Contains(stdout, "files: 3, call records: 6") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Copied without its middle sibling, the gap shows at the live file's first line.
	dir := t.TempDir()
	for _, f := range []string{"rotated.log.20261124T080000.020Z", "rotated.log"} {
		data, err := os.ReadFile(filepath.Join(auditDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr = runAt(t, "127.0.0.1:1", "audit", "verify", "--offline", filepath.Join(dir, "rotated.log"))
	if code != 1 || !strings.Contains(stderr, "NOT intact: rotated.log:1:") {
		t.Fatalf("middle file missing: exit %d, %s", code, stderr)
	}
	// Without --offline, no server is a connection failure (exit 3), never a verdict.
	if code, _, _ := runAt(t, "127.0.0.1:1", "audit", "verify", "--timeout", "2s", filepath.Join(auditDir, "intact.log")); code != 3 {
		t.Fatalf("no server: exit %d, want 3", code)
	}
}
