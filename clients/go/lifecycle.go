package cipherd

import (
	"context"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// A key's life (proto/README.md, "Errors"; the RPCs in key_admin_service.proto): disabled keys and
// versions pending destruction refuse every call until enabled or cancelled; after its pending
// window a version's bytes are erased for good. A pendingWindow of 0 means the server's default
// (7 days); the server refuses less than 24 hours.

// DisableKey makes a key refuse every cryptographic call (ErrKeyDisabled) until EnableKey.
func (c *Client) DisableKey(ctx context.Context, keyName string) (*cipherdpb.Key, error) {
	resp, err := c.Admin.DisableKey(ctx, &cipherdpb.DisableKeyRequest{KeyName: keyName})
	return resp.GetKey(), err
}

// EnableKey serves a disabled key again.
func (c *Client) EnableKey(ctx context.Context, keyName string) (*cipherdpb.Key, error) {
	resp, err := c.Admin.EnableKey(ctx, &cipherdpb.EnableKeyRequest{KeyName: keyName})
	return resp.GetKey(), err
}

// ScheduleKeyVersionDestruction schedules versions (never the current one) for destruction after
// pendingWindow; they refuse every call at once (ErrKeyVersionDestructionScheduled).
func (c *Client) ScheduleKeyVersionDestruction(ctx context.Context, keyName string, versions []int32, pendingWindow time.Duration) (*cipherdpb.Key, error) {
	resp, err := c.Admin.ScheduleKeyVersionDestruction(ctx, &cipherdpb.ScheduleKeyVersionDestructionRequest{
		KeyName: keyName, Versions: versions, PendingWindow: optionalDuration(pendingWindow)})
	return resp.GetKey(), err
}

// CancelKeyVersionDestruction restores versions whose pending window has not passed.
func (c *Client) CancelKeyVersionDestruction(ctx context.Context, keyName string, versions []int32) (*cipherdpb.Key, error) {
	resp, err := c.Admin.CancelKeyVersionDestruction(ctx, &cipherdpb.CancelKeyVersionDestructionRequest{KeyName: keyName, Versions: versions})
	return resp.GetKey(), err
}

// ScheduleKeyDeletion schedules every version of a key for destruction after pendingWindow; the
// name stays as a tombstone, and the key refuses every call at once (ErrKeyDisabled).
func (c *Client) ScheduleKeyDeletion(ctx context.Context, keyName string, pendingWindow time.Duration) (*cipherdpb.Key, error) {
	resp, err := c.Admin.ScheduleKeyDeletion(ctx, &cipherdpb.ScheduleKeyDeletionRequest{KeyName: keyName, PendingWindow: optionalDuration(pendingWindow)})
	return resp.GetKey(), err
}

// CancelKeyDeletion restores a key whose deletion window has not passed; it comes back disabled,
// so EnableKey it knowingly.
func (c *Client) CancelKeyDeletion(ctx context.Context, keyName string) (*cipherdpb.Key, error) {
	resp, err := c.Admin.CancelKeyDeletion(ctx, &cipherdpb.CancelKeyDeletionRequest{KeyName: keyName})
	return resp.GetKey(), err
}

// RetireOptions tune RetireKeyVersions; zero durations are the server's defaults (7 days each).
type RetireOptions struct {
	QuietPeriod   time.Duration // how long a version must have seen no use on any replica
	PendingWindow time.Duration // how long retired versions wait before their bytes are erased
	DryRun        bool          // answer the plan (or the refusal) without changing the key
	// Inventories are scans of the stored data (cipherctl scan): the retirement is refused while
	// any counts a ciphertext under a version below the one asked (InventorySource(err) names the
	// first). Traffic shows what is read; an inventory shows what exists, cold rows included.
	Inventories []*cipherdpb.DataInventory
}

// Retirement is what RetireKeyVersions did, or with DryRun would do.
type Retirement struct {
	Key             *cipherdpb.Key
	RetiredVersions []int32   // scheduled for destruction, oldest first
	DestroyTime     time.Time // when their bytes are erased; zero when none retire
}

// RetireKeyVersions raises min_decryption_version to below and schedules every older version for
// destruction, in one write; it fails with ErrKeyVersionsInUse while any of them was used (or failed
// to decrypt) within the quiet period, or while one of opts.Inventories counts a ciphertext under
// one (VersionsInUse(err) lists them, InventorySource(err) names that inventory).
func (c *Client) RetireKeyVersions(ctx context.Context, keyName string, below int32, opts RetireOptions) (*Retirement, error) {
	resp, err := c.Admin.RetireKeyVersions(ctx, &cipherdpb.RetireKeyVersionsRequest{KeyName: keyName, BelowVersion: below,
		QuietPeriod: optionalDuration(opts.QuietPeriod), PendingWindow: optionalDuration(opts.PendingWindow), ValidateOnly: opts.DryRun,
		Inventories: opts.Inventories})
	if err != nil {
		return nil, err
	}
	r := &Retirement{Key: resp.GetKey(), RetiredVersions: resp.GetRetiredVersions()}
	if resp.GetDestroyTime() != nil {
		r.DestroyTime = resp.GetDestroyTime().AsTime()
	}
	return r, nil
}

func optionalDuration(d time.Duration) *durationpb.Duration {
	if d == 0 {
		return nil
	}
	return durationpb.New(d)
}

// KeyStateName is a key's state in lower case ("enabled", "disabled", "deletion_scheduled",
// "deleted"); a server that sends no state serves the key, so unspecified reads "enabled".
func KeyStateName(s cipherdpb.KeyState) string {
	if s == cipherdpb.KeyState_KEY_STATE_UNSPECIFIED {
		return "enabled"
	}
	return strings.ToLower(strings.TrimPrefix(s.String(), "KEY_STATE_"))
}

// VersionStateName is a version's state in lower case ("enabled", "destruction_scheduled",
// "destroyed"); unspecified reads "enabled".
func VersionStateName(s cipherdpb.KeyVersionState) string {
	if s == cipherdpb.KeyVersionState_KEY_VERSION_STATE_UNSPECIFIED {
		return "enabled"
	}
	return strings.ToLower(strings.TrimPrefix(s.String(), "KEY_VERSION_STATE_"))
}
