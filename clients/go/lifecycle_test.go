package cipherd_test

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/audit"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// needRPC skips when the jar predates an RPC of issue 19 (err is its answer to a first call).
func needRPC(t *testing.T, err error, rpc string) {
	t.Helper()
	if status.Code(err) == codes.Unimplemented {
		t.Skipf("the server does not implement %s yet", rpc)
	}
}

// TestLifecycle_eachStateRefusesWithItsOwnError drives a key through disable, destruction and
// deletion on the real server, checking the typed error of each refusal and the states and times
// the key reports.
func TestLifecycle_eachStateRefusesWithItsOwnError(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "life")
	_, err := c.DisableKey(ctx, key)
	needRPC(t, err, "KeyAdminService.DisableKey")
	ct1, err := c.Encrypt(ctx, key, []byte("secret"))
	if !errors.Is(err, cipherd.ErrKeyDisabled) || !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Fatalf("Encrypt with a disabled key: %v, want ErrKeyDisabled", err)
	}
	if k, err := c.EnableKey(ctx, key); err != nil || k.State.String() != "enabled" {
		t.Fatalf("EnableKey: %v, %v", k, err)
	}
	if ct1, err = c.Encrypt(ctx, key, []byte("secret")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}

	k, err := c.ScheduleKeyVersionDestruction(ctx, key, []int32{1}, 36*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	v1 := k.Versions[0]
	if until := time.Until(v1.DestroyTime); v1.State.String() != "destruction_scheduled" || until < 35*time.Hour || until > 37*time.Hour {
		t.Fatalf("version 1 after scheduling: %v", v1)
	}
	_, err = c.Decrypt(ctx, ct1)
	if !errors.Is(err, cipherd.ErrKeyVersionDestructionScheduled) || errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("Decrypt under a version pending destruction: %v", err)
	}
	if _, err := c.ScheduleKeyVersionDestruction(ctx, key, []int32{2}, 0); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("destroying the current version: %v, want ErrFailedPrecondition", err)
	}
	if _, err := c.ScheduleKeyVersionDestruction(ctx, key, []int32{1}, time.Hour); !errors.Is(err, cipherd.ErrInvalidArgument) && !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("a pending window under 24h: %v, want a refusal", err)
	}
	if _, err := c.CancelKeyVersionDestruction(ctx, key, []int32{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decrypt(ctx, ct1); err != nil {
		t.Fatalf("Decrypt after the destruction was cancelled: %v", err)
	}

	k, err = c.ScheduleKeyDeletion(ctx, key, 0)
	if err != nil {
		t.Fatal(err)
	}
	if until := time.Until(k.DeleteTime); k.State.String() != "deletion_scheduled" || until < 167*time.Hour || until > 169*time.Hour {
		t.Fatalf("after ScheduleKeyDeletion with the default window: %v", k)
	}
	if _, err := c.Decrypt(ctx, ct1); !errors.Is(err, cipherd.ErrKeyDisabled) {
		t.Errorf("Decrypt with a key pending deletion: %v, want ErrKeyDisabled", err)
	}
	if _, err := c.EnableKey(ctx, key); !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Errorf("EnableKey of a key pending deletion: %v, want ErrFailedPrecondition", err)
	}
	if k, err := c.CancelKeyDeletion(ctx, key); err != nil || k.State.String() != "disabled" {
		t.Fatalf("CancelKeyDeletion: %v, %v (want the key back disabled)", k, err)
	}
}

func TestLifecycle_retireRefusesVersionsInUse(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "retire")
	ct, err := c.Encrypt(ctx, key, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.RotateKey(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Decrypt(ctx, ct); err != nil {
		t.Fatal(err)
	}
	_, err = c.RetireKeyVersions(ctx, key, 3, cipherd.RetireOptions{DryRun: true})
	needRPC(t, err, "KeyAdminService.RetireKeyVersions")
	if !errors.Is(err, cipherd.ErrKeyVersionsInUse) || !slices.Equal(cipherd.VersionsInUse(err), []int32{1}) {
		t.Fatalf("retiring below 3 with v1 just used: %v (versions %v), want ErrKeyVersionsInUse naming v1", err, cipherd.VersionsInUse(err))
	}
	time.Sleep(1500 * time.Millisecond)
	opts := cipherd.RetireOptions{QuietPeriod: time.Second, PendingWindow: 24 * time.Hour, DryRun: true}
	plan, err := c.RetireKeyVersions(ctx, key, 3, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.RetiredVersions, []int32{1, 2}) || time.Until(plan.DestroyTime) < 23*time.Hour {
		t.Fatalf("plan: %+v", plan)
	}
	opts.DryRun = false
	done, err := c.RetireKeyVersions(ctx, key, 3, opts)
	if err != nil {
		t.Fatal(err)
	}
	if done.Key.Policy.MinDecryptionVersion != 3 || done.Key.Versions[1].State.String() != "destruction_scheduled" {
		t.Fatalf("after RetireKeyVersions: %v", done.Key)
	}
	if _, err := c.Decrypt(ctx, ct); !errors.Is(err, cipherd.ErrFailedPrecondition) || errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Errorf("Decrypt under a retired version: %v", err)
	}
}

// TestLifecycle_destroyNeedsTheDestroyOperation: admin rotates and disables, but destroying needs
// the destroy operation, which the operator of the access policy is not granted.
func TestLifecycle_destroyNeedsTheDestroyOperation(t *testing.T) {
	needSecureServers(t)
	ctx := context.Background()
	admin := dial(t, tlsSrv.Addr, cipherd.WithCAFile(pki.CAFile), cipherd.WithBearerToken(adminToken))
	key := newKey(t, admin, "open-destroy")
	_, err := admin.DisableKey(ctx, key)
	needRPC(t, err, "KeyAdminService.DisableKey")
	if err != nil {
		t.Fatalf("DisableKey with the admin operation: %v", err)
	}
	if _, err := admin.ScheduleKeyDeletion(ctx, key, 0); !errors.Is(err, cipherd.ErrPermissionDenied) {
		t.Errorf("ScheduleKeyDeletion without the destroy operation: %v, want ErrPermissionDenied", err)
	}
}

func TestAudit_withoutAnAuditTrailThereIsNoAuditKey(t *testing.T) {
	c := dialPlain(t)
	_, err := c.HashAuditValue(context.Background(), []byte("tenant-42"))
	needRPC(t, err, "AuditService.HashAuditValue")
	if !errors.Is(err, cipherd.ErrFailedPrecondition) {
		t.Fatalf("HashAuditValue of a server without --audit-log: %v, want ErrFailedPrecondition", err)
	}
}

func TestAudit_hashAndCheckpointsOfAnotherKey(t *testing.T) {
	if plain == nil {
		t.Skip("no server (jar not built)")
	}
	srv, err := testserver.Start(testserver.Options{Args: []string{"--audit-log", filepath.Join(t.TempDir(), "audit.log")}})
	if err != nil && strings.Contains(err.Error(), "--audit-log") {
		t.Skip("the server does not implement --audit-log and AuditService yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	c := dial(t, srv.Addr, cipherd.WithInsecure())
	ctx := context.Background()
	hash, err := c.HashAuditValue(ctx, []byte("tenant-42"))
	if err != nil || !regexp.MustCompile(`^hmac-sha256:[0-9a-f]{64}$`).MatchString(hash) {
		t.Fatalf("HashAuditValue: %q, %v", hash, err)
	}
	if again, _ := c.HashAuditValue(ctx, []byte("tenant-42")); again != hash {
		t.Errorf("the same value hashed twice: %s, %s", hash, again)
	}
	if other, _ := c.HashAuditValue(ctx, []byte("tenant-43")); other == hash {
		t.Errorf("two values hashed alike")
	}
	// The vectors' checkpoints were MACed with another audit key: this server refuses each one.
	files, err := audit.ReadFiles([]string{filepath.Join(auditVectors, "intact.log")})
	if err != nil {
		t.Fatal(err)
	}
	check, err := c.AuditCheckpointCheck(ctx, files)
	n := len(audit.Checkpoints(files))
	if err != nil {
		t.Fatal(err)
	}
	v := audit.VerifyFiles(files, check, nil)
	if n != 3 || v.Intact() || !regexp.MustCompile(`fails its MAC$`).MatchString(v.Problem) {
		t.Errorf("the vectors' checkpoints by this server: %d asked, %+v", n, v)
	}
}

// TestLifecycle_retireWithInventories: an inventory that counts one ciphertext below the version
// asked refuses the retirement, naming its source, however idle the traffic; one that counts only
// newer versions lets it go ahead.
func TestLifecycle_retireWithInventories(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "inventory")
	for range 2 {
		if _, err := c.RotateKey(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	inventory := func(source string, counts map[int32]int64) cipherd.DataInventory {
		inv := cipherd.DataInventory{KeyName: key, Source: source, ItemsScanned: 100, ScanTime: time.Now()}
		for _, v := range []int32{1, 2, 3} {
			if n, ok := counts[v]; ok {
				inv.Versions = append(inv.Versions, cipherd.VersionCount{Version: v, Ciphertexts: n})
			}
		}
		return inv
	}
	opts := cipherd.RetireOptions{QuietPeriod: time.Second, DryRun: true, Inventories: []cipherd.DataInventory{
		inventory("file:archive.jsonl#email", map[int32]int64{3: 40}),
		inventory("postgres:users.email", map[int32]int64{2: 1, 3: 99}),
	}}
	_, err := c.RetireKeyVersions(ctx, key, 3, opts)
	if !errors.Is(err, cipherd.ErrKeyVersionsInUse) || !slices.Equal(cipherd.VersionsInUse(err), []int32{2}) ||
		cipherd.InventorySource(err) != "postgres:users.email" {
		t.Fatalf("retire below 3 with one row under v2: %v (versions %v, source %q)", err, cipherd.VersionsInUse(err), cipherd.InventorySource(err))
	}
	opts.Inventories = []cipherd.DataInventory{inventory("postgres:users.email", map[int32]int64{1: 0, 3: 100})}
	plan, err := c.RetireKeyVersions(ctx, key, 3, opts)
	if err != nil || !slices.Equal(plan.RetiredVersions, []int32{1, 2}) {
		t.Fatalf("retire below 3 with every row under v3: %+v, %v", plan, err)
	}
	opts.Inventories[0].KeyName = "someone-else"
	if _, err := c.RetireKeyVersions(ctx, key, 3, opts); !errors.Is(err, cipherd.ErrInvalidArgument) {
		t.Fatalf("an inventory of another key: %v, want ErrInvalidArgument", err)
	}
}

// TestLifecycle_failedDecryptCountsAsUse: a decrypt that fails (wrong context) shows in the
// version's failures and last use, and keeps the version in use in the census.
func TestLifecycle_failedDecryptCountsAsUse(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "failures")
	ct, err := c.Encrypt(ctx, key, []byte("secret"), cipherd.WithAAD([]byte("users.email/7")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decrypt(ctx, ct); !errors.Is(err, cipherd.ErrDecryptionFailed) {
		t.Fatalf("Decrypt without its context: %v", err)
	}
	census, err := c.GetKeyCensus(ctx, key, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	v1 := census.Versions[0]
	if v1.Version != 1 || v1.Usage.Failures != 1 || v1.Usage.Decryptions != 0 || !v1.InUse || v1.Usage.LastUsed.IsZero() {
		t.Fatalf("v1 after a failed decrypt: %+v", v1)
	}
	if _, err := c.RetireKeyVersions(ctx, key, 2, cipherd.RetireOptions{QuietPeriod: time.Hour, DryRun: true}); !errors.Is(err, cipherd.ErrKeyVersionsInUse) {
		t.Fatalf("retire after a failed decrypt: %v, want ErrKeyVersionsInUse", err)
	}
}

// TestLifecycle_cancelDestructionOnUse: with the policy set, a decrypt under a version pending
// destruction is refused, cancels the destruction, and the retry succeeds.
func TestLifecycle_cancelDestructionOnUse(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "cancel-on-use")
	ct, err := c.Encrypt(ctx, key, []byte("cold row"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RotateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	updated, err := c.UpdateKeyPolicy(ctx, key, cipherd.KeyPolicy{CancelDestructionOnUse: true})
	if err != nil || !updated.Policy.CancelDestructionOnUse {
		t.Fatalf("UpdateKeyPolicy: %v, %v", updated, err)
	}
	if _, err := c.ScheduleKeyVersionDestruction(ctx, key, []int32{1}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decrypt(ctx, ct); !errors.Is(err, cipherd.ErrKeyVersionDestructionScheduled) {
		t.Fatalf("Decrypt under a version pending destruction: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pt, err := c.Decrypt(ctx, ct)
		if err == nil && string(pt) == "cold row" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the destruction was not cancelled: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
