package audit

import (
	"bytes"
	"encoding/json"
)

// Checkpoint is a checkpoint line's fields as written, what a server needs to check its MAC.
type Checkpoint struct {
	Seq             int64
	Time, Prev, MAC string
}

// Checkpoints is the checkpoint lines of files, in order; lines that do not parse (torn by a
// crash, or tampered with) are left to VerifyFiles to judge.
func Checkpoints(files []File) []Checkpoint {
	var found []Checkpoint
	for _, file := range files {
		for _, raw := range bytes.Split(file.Data, []byte{'\n'}) {
			var l line
			if json.Unmarshal(raw, &l) != nil || l.Type != "checkpoint" || l.Seq == nil || l.Prev == nil {
				continue
			}
			found = append(found, Checkpoint{Seq: *l.Seq, Time: l.Time, Prev: *l.Prev, MAC: l.MAC})
		}
	}
	return found
}

// Answered is a CheckpointCheck from answers already given (valid[i] for checkpoints[i], as the
// server's VerifyAuditCheckpoints answers): a checkpoint passes only if it was asked about and
// found valid.
func Answered(checkpoints []Checkpoint, valid []bool) CheckpointCheck {
	answers := make(map[Checkpoint]bool, len(checkpoints))
	for i, c := range checkpoints {
		if i < len(valid) {
			answers[c] = valid[i]
		}
	}
	return func(seq int64, time, prev, mac string) bool {
		return answers[Checkpoint{Seq: seq, Time: time, Prev: prev, MAC: mac}]
	}
}
