package cipherd

import (
	"context"
	"fmt"

	"github.com/cipherd/cipherd/clients/go/audit"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// maxCheckpointsPerCall is VerifyAuditCheckpoints' limit per request.
const maxCheckpointsPerCall = 10_000

// HashAuditValue is the keyed hash the server's audit records carry for a caller's context equal
// to value ("hmac-sha256:<hex>"): grep the audit file for it to find the calls that carried it.
func (c *Client) HashAuditValue(ctx context.Context, value []byte) (string, error) {
	resp, err := c.audit.HashAuditValue(ctx, &cipherdpb.HashAuditValueRequest{Value: value})
	if err != nil {
		return "", err
	}
	return resp.GetHash(), nil
}

// VerifyAuditCheckpoints asks the server whether each checkpoint's MAC is its audit key's, in
// requests of at most 10,000; valid[i] answers checkpoints[i].
func (c *Client) VerifyAuditCheckpoints(ctx context.Context, checkpoints []audit.Checkpoint) ([]bool, error) {
	valid := make([]bool, 0, len(checkpoints))
	for start := 0; start < len(checkpoints); start += maxCheckpointsPerCall {
		req := &cipherdpb.VerifyAuditCheckpointsRequest{}
		for _, cp := range checkpoints[start:min(start+maxCheckpointsPerCall, len(checkpoints))] {
			req.Checkpoints = append(req.Checkpoints, &cipherdpb.AuditCheckpoint{Seq: cp.Seq, Time: cp.Time, Prev: cp.Prev, Mac: cp.MAC})
		}
		resp, err := c.audit.VerifyAuditCheckpoints(ctx, req)
		if err != nil {
			return nil, err
		}
		if len(resp.GetValid()) != len(req.Checkpoints) {
			return nil, fmt.Errorf("cipherd: the server answered %d of %d checkpoints", len(resp.GetValid()), len(req.Checkpoints))
		}
		valid = append(valid, resp.GetValid()...)
	}
	return valid, nil
}

// AuditHead is the head the server's key store holds for an audit trail: trail is the name its
// start lines carry (audit.TrailName), "" for the server's own. It is nil when the key store holds
// none for the trail. Ask for it before reading the files: a head is anchored only after its line
// is durable, so files read afterwards reach it unless lines were removed.
func (c *Client) AuditHead(ctx context.Context, trail string) (*audit.Head, error) {
	resp, err := c.audit.VerifyAuditCheckpoints(ctx, &cipherdpb.VerifyAuditCheckpointsRequest{Trail: trail})
	if err != nil {
		return nil, err
	}
	return audit.HeadFromProto(resp.GetHead()), nil
}

// AuditCheckpointCheck asks the server about every checkpoint of files (oldest first, read once
// with audit.ReadFiles; len(audit.Checkpoints(files)) of them) and returns an
// audit.CheckpointCheck for audit.VerifyFiles of the same files that answers from its answers.
func (c *Client) AuditCheckpointCheck(ctx context.Context, files []audit.File) (audit.CheckpointCheck, error) {
	checkpoints := audit.Checkpoints(files)
	valid, err := c.VerifyAuditCheckpoints(ctx, checkpoints)
	if err != nil {
		return nil, err
	}
	return audit.Answered(checkpoints, valid), nil
}
