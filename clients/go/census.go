package cipherd

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Usage is how much a key version has been used, merged across replicas every few seconds
// (proto/README.md, "Usage limits"), plus the answering replica's counts since its last merge.
type Usage struct {
	Encryptions int64 // messages encrypted, rewraps into the version included
	Decryptions int64 // ciphertexts decrypted, rewraps out of the version included
	Rewraps     int64 // ciphertexts rewrapped out of the version
	Indexes     int64 // blind indexes computed, for an index key's version
	LastUsed    time.Time
	// IndexLookups counts indexes that all-versions lookups computed under this version beside the
	// version they asked for; they neither set LastUsed nor keep the version in use.
	IndexLookups int64
	LastLookup   time.Time
}

// Used reports whether the version was ever used.
func (u Usage) Used() bool { return !u.LastUsed.IsZero() }

// UsageOf is the usage of a key version from GetKey, ListKeys or any call returning a key.
func UsageOf(v *cipherdpb.KeyVersion) Usage { return usageFrom(v.GetUsage()) }

func usageFrom(u *cipherdpb.KeyVersionUsage) Usage {
	usage := Usage{Encryptions: u.GetEncryptions(), Decryptions: u.GetDecryptions(), Rewraps: u.GetRewraps(),
		Indexes: u.GetIndexes()}
	if u.GetLastUsedTime() != nil {
		usage.LastUsed = u.GetLastUsedTime().AsTime()
	}
	usage.IndexLookups = u.GetIndexLookups()
	if u.GetLastLookupTime() != nil {
		usage.LastLookup = u.GetLastLookupTime().AsTime()
	}
	return usage
}

// Census says which versions of a key still see traffic: how far MinDecryptionVersion can be
// raised. Rewrap what still reads an old version, wait a quiet period, look again, then raise it.
type Census struct {
	Key      *cipherdpb.Key
	Versions []VersionCensus // from the policy's min_decryption_version up, oldest first
	// SafeMinDecryptionVersion is the oldest version used within the quiet period (the current
	// version if none was): the highest minimum that refuses nothing read recently.
	SafeMinDecryptionVersion int32
}

// VersionCensus is one version's traffic.
type VersionCensus struct {
	Version int32
	Usage   Usage
	InUse   bool // used within the quiet period
}

// KeyCensus asks which versions of keyName were used within quietPeriod (0 for the server's
// default of 7 days).
func (c *Client) KeyCensus(ctx context.Context, keyName string, quietPeriod time.Duration) (*Census, error) {
	req := &cipherdpb.GetKeyCensusRequest{KeyName: keyName}
	if quietPeriod != 0 {
		req.QuietPeriod = durationpb.New(quietPeriod)
	}
	resp, err := c.Admin.GetKeyCensus(ctx, req)
	if err != nil {
		return nil, err
	}
	census := &Census{Key: resp.GetKey(), SafeMinDecryptionVersion: resp.GetSafeMinDecryptionVersion()}
	for _, v := range resp.GetVersions() {
		census.Versions = append(census.Versions, VersionCensus{Version: v.GetVersion(), Usage: usageFrom(v.GetUsage()), InUse: v.GetInUse()})
	}
	return census, nil
}
