package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// checkpoint is how far a rewrap got. The output and the failures file are written and synced
// before the checkpoint that counts them, so after a kill at any moment the output's first
// OutputOffset bytes are exactly the records before InputOffset (and the failures file's first
// FailuresOffset bytes their failures), and a resume truncates the rest and goes on from there.
type checkpoint struct {
	Input          string         `json:"input"`
	InputSize      int64          `json:"input_size"`
	Field          string         `json:"field"`
	To             string         `json:"to,omitempty"`
	LegacyKey      string         `json:"legacy_key,omitempty"`
	LegacyEncoding string         `json:"legacy_encoding,omitempty"`
	contextFlags                  // the context sent with each record, as the flags gave it
	Failures       string         `json:"failures"` // the failures file
	InputOffset    int64          `json:"input_offset"`
	InputLines     int64          `json:"input_lines"` // lines before InputOffset
	OutputOffset   int64          `json:"output_offset"`
	FailuresOffset int64          `json:"failures_offset"`
	Records        int64          `json:"records"`
	Rewrapped      int64          `json:"rewrapped"`
	Current        int64          `json:"already_current"`
	Failed         map[string]int `json:"failed"`
	// FromVersions counts the values fpe rewrap moved (or found current), by the version they
	// were under: formatted values carry no header, so this is the only census of them.
	FromVersions map[int32]int64 `json:"from_versions,omitempty"`
}

func loadCheckpoint(path string) (*checkpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cp checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("checkpoint %s is unreadable: %w", path, err)
	}
	return &cp, nil
}

// save writes the checkpoint to a temporary file, syncs it and renames it over path: a reader
// sees the old checkpoint or the new one, never half of one.
func (cp *checkpoint) save(path string) error {
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	return writeFileAtomically(path, data)
}
