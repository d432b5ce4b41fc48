package cipherd

import (
	"context"
	"time"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Usage is how much a key version has been used, merged across replicas every few seconds
// (proto/README.md, "Usage limits"), plus the answering replica's counts since its last merge.
type Usage struct {
	Encryptions int64 // messages encrypted, rewraps into the version included
	Decryptions int64 // ciphertexts decrypted, rewraps out of the version included
	Rewraps     int64 // ciphertexts rewrapped out of the version
	Indexes     int64 // blind indexes computed, for an index key's version
	// Failures are calls that named the version and failed with it (wrong context, tampered,
	// refused by policy or a pending destruction): data under it still exists, so they count as use.
	Failures int64
	// IndexLookups are all_versions lookups that computed an index under the version beside the
	// one asked for; they are not use (LastUsed leaves them out).
	IndexLookups int64
	LastUsed     time.Time // the last use, failures included, all_versions lookups not
	LastLookup   time.Time // the last all_versions lookup; zero if none
}

// Used reports whether the version was ever used.
func (u Usage) Used() bool { return !u.LastUsed.IsZero() }

func usageFrom(u *cipherdpb.KeyVersionUsage) Usage {
	return Usage{Encryptions: u.GetEncryptions(), Decryptions: u.GetDecryptions(), Rewraps: u.GetRewraps(),
		Indexes: u.GetIndexes(), Failures: u.GetFailures(), IndexLookups: u.GetIndexLookups(),
		LastUsed: timeOf(u.GetLastUsedTime()), LastLookup: timeOf(u.GetLastLookupTime())}
}

// KeyCensus says which versions of a key still see traffic: how far MinDecryptionVersion can be
// raised. Rewrap what still reads an old version, wait a quiet period, look again, then raise it.
type KeyCensus struct {
	Key      *Key
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
	// SubjectKeys is how many live subject keys this version wraps: a version that wraps any cannot
	// be retired until the subject-key sweep has rewrapped them (use, not existence, is InUse).
	SubjectKeys int64
}

// GetKeyCensus asks which versions of keyName were used within quietPeriod (0 for the server's
// default of 7 days).
func (c *Client) GetKeyCensus(ctx context.Context, keyName string, quietPeriod time.Duration) (*KeyCensus, error) {
	resp, err := c.admin.GetKeyCensus(ctx, &cipherdpb.GetKeyCensusRequest{KeyName: keyName, QuietPeriod: optionalDuration(quietPeriod)})
	if err != nil {
		return nil, err
	}
	census := &KeyCensus{Key: keyFromProto(resp.GetKey()), SafeMinDecryptionVersion: resp.GetSafeMinDecryptionVersion()}
	for _, v := range resp.GetVersions() {
		census.Versions = append(census.Versions, VersionCensus{Version: v.GetVersion(), Usage: usageFrom(v.GetUsage()), InUse: v.GetInUse(), SubjectKeys: v.GetSubjectKeys()})
	}
	return census, nil
}
