package cipherd

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// A key's life (proto/README.md, "Errors"; the RPCs in key_admin_service.proto): disabled keys and
// versions pending destruction refuse every call until enabled or cancelled; after its pending
// window a version's bytes are erased for good. A pendingWindow of 0 means the server's default
// (7 days); the server refuses less than 24 hours.

// DisableKey makes a key refuse every cryptographic call (ErrKeyDisabled) until EnableKey.
func (c *Client) DisableKey(ctx context.Context, keyName string) (*Key, error) {
	resp, err := c.admin.DisableKey(ctx, &cipherdpb.DisableKeyRequest{KeyName: keyName})
	return keyOf(resp, err)
}

// EnableKey serves a disabled key again.
func (c *Client) EnableKey(ctx context.Context, keyName string) (*Key, error) {
	resp, err := c.admin.EnableKey(ctx, &cipherdpb.EnableKeyRequest{KeyName: keyName})
	return keyOf(resp, err)
}

// ScheduleKeyVersionDestruction schedules versions (never the current one) for destruction after
// pendingWindow; they refuse every call at once (ErrKeyVersionDestructionScheduled).
func (c *Client) ScheduleKeyVersionDestruction(ctx context.Context, keyName string, versions []int32, pendingWindow time.Duration) (*Key, error) {
	resp, err := c.admin.ScheduleKeyVersionDestruction(ctx, &cipherdpb.ScheduleKeyVersionDestructionRequest{
		KeyName: keyName, Versions: versions, PendingWindow: optionalDuration(pendingWindow)})
	return keyOf(resp, err)
}

// CancelKeyVersionDestruction restores versions whose pending window has not passed.
func (c *Client) CancelKeyVersionDestruction(ctx context.Context, keyName string, versions []int32) (*Key, error) {
	resp, err := c.admin.CancelKeyVersionDestruction(ctx, &cipherdpb.CancelKeyVersionDestructionRequest{KeyName: keyName, Versions: versions})
	return keyOf(resp, err)
}

// ScheduleKeyDeletion schedules every version of a key for destruction after pendingWindow; the
// name stays as a tombstone, and the key refuses every call at once (ErrKeyDisabled).
func (c *Client) ScheduleKeyDeletion(ctx context.Context, keyName string, pendingWindow time.Duration) (*Key, error) {
	resp, err := c.admin.ScheduleKeyDeletion(ctx, &cipherdpb.ScheduleKeyDeletionRequest{KeyName: keyName, PendingWindow: optionalDuration(pendingWindow)})
	return keyOf(resp, err)
}

// CancelKeyDeletion restores a key whose deletion window has not passed; it comes back disabled,
// so EnableKey it knowingly.
func (c *Client) CancelKeyDeletion(ctx context.Context, keyName string) (*Key, error) {
	resp, err := c.admin.CancelKeyDeletion(ctx, &cipherdpb.CancelKeyDeletionRequest{KeyName: keyName})
	return keyOf(resp, err)
}

// RetireOptions tune RetireKeyVersions; zero durations are the server's defaults (7 days each).
type RetireOptions struct {
	QuietPeriod   time.Duration // how long a version must have seen no use on any replica
	PendingWindow time.Duration // how long retired versions wait before their bytes are erased
	DryRun        bool          // answer the plan (or the refusal) without changing the key
	// Inventories are scans of the stored data (cipherctl scan): the retirement is refused while
	// any counts a ciphertext under a version below the one asked (InventorySource(err) names the
	// first). Traffic shows what is read; an inventory shows what exists, cold rows included.
	Inventories []DataInventory
}

// Retirement is what RetireKeyVersions did, or with DryRun would do.
type Retirement struct {
	Key             *Key
	RetiredVersions []int32   // scheduled for destruction, oldest first
	DestroyTime     time.Time // when their bytes are erased; zero when none retire
}

// RetireKeyVersions raises min_decryption_version to below and schedules every older version for
// destruction, in one write; it fails with ErrKeyVersionsInUse while any of them was used (or failed
// to decrypt) within the quiet period, or while one of opts.Inventories counts a ciphertext under
// one (VersionsInUse(err) lists them, InventorySource(err) names that inventory).
func (c *Client) RetireKeyVersions(ctx context.Context, keyName string, below int32, opts RetireOptions) (*Retirement, error) {
	req := &cipherdpb.RetireKeyVersionsRequest{KeyName: keyName, BelowVersion: below, QuietPeriod: optionalDuration(opts.QuietPeriod),
		PendingWindow: optionalDuration(opts.PendingWindow), ValidateOnly: opts.DryRun}
	for _, inv := range opts.Inventories {
		req.Inventories = append(req.Inventories, inv.proto())
	}
	resp, err := c.admin.RetireKeyVersions(ctx, req)
	if err != nil {
		return nil, err
	}
	return &Retirement{Key: keyFromProto(resp.GetKey()), RetiredVersions: resp.GetRetiredVersions(), DestroyTime: timeOf(resp.GetDestroyTime())}, nil
}

func optionalDuration(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}
