package main_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// lifecycleKey is the JSON of a key as the lifecycle commands print it, with its states.
type lifecycleKey struct {
	State      string    `json:"state"`
	DeleteTime time.Time `json:"deleteTime"`
	Versions   []struct {
		Version     int       `json:"version"`
		State       string    `json:"state"`
		DestroyTime time.Time `json:"destroyTime"`
	} `json:"versions"`
	Policy struct {
		MinDecryptionVersion int `json:"minDecryptionVersion"`
	} `json:"policy"`
}

func lifecycle(t *testing.T, args ...string) lifecycleKey {
	t.Helper()
	out := cipherctl(t, "", 0, args...)
	var k lifecycleKey
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatalf("%s printed %s: %v", strings.Join(args, " "), out, err)
	}
	return k
}

// needLifecycle skips when the jar predates the lifecycle RPCs (KeyAdminService.DisableKey and
// the others, built on branch h-admin).
func needLifecycle(t *testing.T) {
	t.Helper()
	needServer(t)
	_, err := client(t).DisableKey(context.Background(), "no-such-key")
	if status.Code(err) == codes.Unimplemented {
		t.Skip("the server does not implement KeyAdminService.DisableKey and the other lifecycle RPCs yet")
	}
}

// failsWith runs a command that must fail (exit 1) with reason in its message.
func failsWith(t *testing.T, stdin, reason string, args ...string) {
	t.Helper()
	_, stderr := cipherctlErr(t, stdin, 1, args...)
	if !strings.Contains(stderr, reason) {
		t.Fatalf("cipherctl %s: %s, want %s", strings.Join(args, " "), stderr, reason)
	}
}

func TestKeys_disableEnableDestroyCancelDelete(t *testing.T) {
	needLifecycle(t)
	cipherctl(t, "", 0, "keys", "create", "cli-life")
	ct1 := strings.TrimSpace(cipherctl(t, "secret", 0, "encrypt", "cli-life"))

	if k := lifecycle(t, "keys", "disable", "cli-life"); k.State != "KEY_STATE_DISABLED" {
		t.Fatalf("keys disable: state %q", k.State)
	}
	failsWith(t, "secret", "KEY_DISABLED", "encrypt", "cli-life")
	failsWith(t, ct1, "KEY_DISABLED", "decrypt")
	if row := listRow(t, "cli-life"); row[len(row)-1] != "disabled" {
		t.Fatalf("keys list row of a disabled key: %q", row)
	}
	if k := lifecycle(t, "keys", "enable", "cli-life"); k.State != "KEY_STATE_ENABLED" {
		t.Fatalf("keys enable: state %q", k.State)
	}
	cipherctl(t, ct1, 0, "decrypt")

	cipherctl(t, "", 0, "keys", "rotate", "cli-life")
	before := time.Now()
	k := lifecycle(t, "keys", "destroy", "cli-life", "--versions", "1", "--pending-window", "48h")
	if v := k.Versions[0]; v.State != "KEY_VERSION_STATE_DESTRUCTION_SCHEDULED" || v.DestroyTime.Before(before.Add(48*time.Hour-time.Minute)) || v.DestroyTime.After(time.Now().Add(48*time.Hour+time.Minute)) {
		t.Fatalf("keys destroy: version 1 is %+v, want destruction scheduled in 48h", v)
	}
	if k.Versions[1].State != "KEY_VERSION_STATE_ENABLED" {
		t.Fatalf("keys destroy --versions 1 touched v2: %+v", k.Versions[1])
	}
	if shown := lifecycle(t, "keys", "get", "cli-life"); shown.Versions[0].State != "KEY_VERSION_STATE_DESTRUCTION_SCHEDULED" || !shown.Versions[0].DestroyTime.Equal(k.Versions[0].DestroyTime) {
		t.Fatalf("keys get after destroy: %+v", shown.Versions[0])
	}
	_, stderr := cipherctlErr(t, ct1, 1, "decrypt")
	if !strings.Contains(stderr, "KEY_VERSION_DESTRUCTION_SCHEDULED") || strings.Contains(stderr, "DECRYPTION_FAILED") {
		t.Fatalf("decrypt under a version pending destruction: %s", stderr)
	}
	if row := listRow(t, "cli-life"); row[len(row)-1] != "enabled,1-destruction-scheduled" {
		t.Fatalf("keys list row: %q", row)
	}
	failsWith(t, "", "FailedPrecondition", "keys", "destroy", "cli-life", "--versions", "2") // the current version
	cipherctlErr(t, "", 1, "keys", "destroy", "cli-life", "--versions", "1", "--pending-window", "1h")
	cipherctlErr(t, "", 1, "keys", "destroy", "cli-life") // --versions is required
	if k := lifecycle(t, "keys", "cancel-destroy", "cli-life", "--versions", "1"); k.Versions[0].State != "KEY_VERSION_STATE_ENABLED" || !k.Versions[0].DestroyTime.IsZero() {
		t.Fatalf("keys cancel-destroy: %+v", k.Versions[0])
	}
	cipherctl(t, ct1, 0, "decrypt")

	k = lifecycle(t, "keys", "delete", "cli-life", "--pending-window", "24h")
	if k.State != "KEY_STATE_DELETION_SCHEDULED" || k.DeleteTime.Before(time.Now().Add(23*time.Hour)) {
		t.Fatalf("keys delete: %+v", k)
	}
	failsWith(t, "secret", "KEY_DISABLED", "encrypt", "cli-life")
	cipherctlErr(t, "", 1, "keys", "enable", "cli-life") // a deletion is cancelled, not enabled away
	if k := lifecycle(t, "keys", "cancel-delete", "cli-life"); k.State != "KEY_STATE_DISABLED" {
		t.Fatalf("keys cancel-delete: state %q, want disabled", k.State)
	}
	lifecycle(t, "keys", "enable", "cli-life")
	cipherctl(t, ct1, 0, "decrypt")
}

func TestKeys_retireRefusesVersionsInUseThenRetires(t *testing.T) {
	needLifecycle(t)
	cipherctl(t, "", 0, "keys", "create", "cli-retire")
	ct1 := strings.TrimSpace(cipherctl(t, "secret", 0, "encrypt", "cli-retire"))
	cipherctl(t, "", 0, "keys", "rotate", "cli-retire")
	cipherctl(t, "", 0, "keys", "rotate", "cli-retire")
	cipherctl(t, ct1, 0, "decrypt") // v1 is in use

	_, stderr := cipherctlErr(t, "", 1, "keys", "retire", "cli-retire", "--below", "3", "--dry-run")
	if !strings.Contains(stderr, "not retiring cli-retire below v3: v1 used within the quiet period") {
		t.Fatalf("keys retire with v1 in use: %s", stderr)
	}
	// Once a quiet period passed without use, the plan retires v1 and v2.
	time.Sleep(2 * time.Second)
	out := cipherctl(t, "", 0, "keys", "retire", "cli-retire", "--below", "3", "--quiet-period", "1s", "--dry-run")
	if !strings.Contains(out, "would retire (dry run, nothing changed) cli-retire: v1, v2") || !strings.Contains(out, "destroyed at: ") {
		t.Fatalf("keys retire --dry-run printed %s", out)
	}
	if k := lifecycle(t, "keys", "get", "cli-retire"); k.Policy.MinDecryptionVersion > 1 || k.Versions[0].State != "KEY_VERSION_STATE_ENABLED" {
		t.Fatalf("a dry run changed the key: %+v", k)
	}
	out = cipherctl(t, "", 0, "keys", "retire", "cli-retire", "--below", "3", "--quiet-period", "1s", "--pending-window", "24h")
	if !strings.Contains(out, "retired cli-retire: v1, v2") || !strings.Contains(out, "min_decryption_version: 3") {
		t.Fatalf("keys retire printed %s", out)
	}
	k := lifecycle(t, "keys", "get", "cli-retire")
	if k.Policy.MinDecryptionVersion != 3 || k.Versions[0].State != "KEY_VERSION_STATE_DESTRUCTION_SCHEDULED" || k.Versions[1].State != "KEY_VERSION_STATE_DESTRUCTION_SCHEDULED" {
		t.Fatalf("after keys retire: %+v", k)
	}
	_, stderr = cipherctlErr(t, ct1, 1, "decrypt")
	if strings.Contains(stderr, "DECRYPTION_FAILED") {
		t.Fatalf("a retired version's ciphertext: %s", stderr)
	}
	cipherctlErr(t, "", 1, "keys", "retire", "cli-retire") // --below is required
}
