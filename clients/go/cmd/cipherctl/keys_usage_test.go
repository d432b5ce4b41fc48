package main_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// listRow is the row of key in keys list, split into columns.
func listRow(t *testing.T, key string) []string {
	t.Helper()
	out := cipherctl(t, "", 0, "keys", "list")
	lines := strings.Split(out, "\n")
	if header := strings.Fields(lines[0]); strings.Join(header, " ") != "NAME VERSION MODE ENCRYPTIONS DECRYPTIONS REWRAPS INDEXES LAST USED STATE" {
		t.Fatalf("keys list header: %q", lines[0])
	}
	for _, line := range lines[1:] {
		if fields := strings.Fields(line); len(fields) > 0 && fields[0] == key {
			return fields
		}
	}
	t.Fatalf("keys list has no row for %s:\n%s", key, out)
	return nil
}

// showKey is the JSON of keys get, with what these tests read of it.
type shownKey struct {
	CurrentVersion int `json:"currentVersion"`
	Versions       []struct {
		Version int `json:"version"`
		Usage   struct {
			Encryptions  int64     `json:"encryptions,string"`
			Decryptions  int64     `json:"decryptions,string"`
			Rewraps      int64     `json:"rewraps,string"`
			LastUsedTime time.Time `json:"lastUsedTime"`
		} `json:"usage"`
	} `json:"versions"`
	Policy struct {
		AutoRotatePeriod         string `json:"autoRotatePeriod"`
		MaxEncryptionsPerVersion int64  `json:"maxEncryptionsPerVersion,string"`
		MinDecryptionVersion     int    `json:"minDecryptionVersion"`
	} `json:"policy"`
}

func showKey(t *testing.T, args ...string) shownKey {
	t.Helper()
	out := cipherctl(t, "", 0, args...)
	var k shownKey
	if err := json.Unmarshal([]byte(out), &k); err != nil {
		t.Fatalf("%s printed %s: %v", strings.Join(args, " "), out, err)
	}
	return k
}

// TestKeys_usageCensusAndAutomaticRotation creates a key that rotates after 3 encryptions, uses it,
// and reads the usage back through keys get, keys list and keys census; then waits for the
// automatic rotation the limit asks for.
func TestKeys_usageCensusAndAutomaticRotation(t *testing.T) {
	needServer(t)
	k := showKey(t, "keys", "create", "cli-usage", "--rotate-every", "720h", "--max-encryptions", "3")
	if k.Policy.AutoRotatePeriod != "2592000s" || k.Policy.MaxEncryptionsPerVersion != 3 {
		t.Fatalf("keys create set the policy %+v", k.Policy)
	}
	var cts []string
	for range 3 {
		cts = append(cts, strings.TrimSpace(cipherctl(t, "secret", 0, "encrypt", "cli-usage")))
	}
	cipherctl(t, cts[0], 0, "decrypt")

	// The replica that answers counts its own use at once; the rotation waits for a merge.
	k = showKey(t, "keys", "get", "cli-usage")
	if u := k.Versions[0].Usage; u.Encryptions != 3 || u.Decryptions != 1 || u.Rewraps != 0 || time.Since(u.LastUsedTime) > time.Minute {
		t.Fatalf("keys get usage of v1: %+v", u)
	}
	if row := listRow(t, "cli-usage"); strings.Join(row[3:7], " ") != "3 1 0 -" {
		t.Fatalf("keys list row: %q, want 3 encryptions, 1 decryption, 0 rewraps, no indexes", row)
	}

	deadline := time.Now().Add(30 * time.Second)
	for k.CurrentVersion != 2 {
		if k.CurrentVersion > 2 || time.Now().After(deadline) {
			t.Fatalf("after 3 encryptions with --max-encryptions 3: current version %d, want 2 (rotated once)", k.CurrentVersion)
		}
		time.Sleep(200 * time.Millisecond)
		k = showKey(t, "keys", "get", "cli-usage")
	}

	out := cipherctl(t, "", 0, "keys", "census", "cli-usage")
	rows := censusRows(t, out)
	if len(rows) != 2 || strings.Join(rows[0], " ") != "v1 3 1 0 yes 0" || strings.Join(rows[1], " ") != "v2 0 0 0 never no 0" {
		t.Fatalf("keys census printed:\n%s", out)
	}
	if !strings.Contains(out, "safe min_decryption_version: 1 (now 1)") {
		t.Fatalf("keys census printed:\n%s", out)
	}
	// A quiet period already over finds no version in use: the current version is safe.
	time.Sleep(1100 * time.Millisecond)
	if out := cipherctl(t, "", 0, "keys", "census", "cli-usage", "--quiet-period", "1s"); !strings.Contains(out, "safe min_decryption_version: 2 (now 1)") {
		t.Fatalf("keys census --quiet-period 1s printed:\n%s", out)
	}
}

// censusRows are the census table's rows without the header, in columns, the date in one.
func censusRows(t *testing.T, out string) [][]string {
	t.Helper()
	lines := strings.Split(out, "\n")
	if strings.Join(strings.Fields(lines[0]), " ") != "VERSION ENCRYPTIONS DECRYPTIONS REWRAPS LAST USED IN USE SUBJECT KEYS" {
		t.Fatalf("census header: %q", lines[0])
	}
	date := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	var rows [][]string
	for _, line := range lines[1:] {
		if !strings.HasPrefix(line, "v") {
			break
		}
		fields := strings.Fields(line)
		if len(fields) == 7 && date.MatchString(fields[4]) {
			fields = append(fields[:4], fields[5:]...) // a date, checked: drop it so rows compare as text
		}
		rows = append(rows, fields)
	}
	return rows
}

func TestKeysPolicy_rotationFlags(t *testing.T) {
	needServer(t)
	cipherctl(t, "", 0, "keys", "create", "cli-policy")
	k := showKey(t, "keys", "policy", "cli-policy", "--rotate-every", "1h", "--max-encryptions", "1000000")
	if k.Policy.AutoRotatePeriod != "3600s" || k.Policy.MaxEncryptionsPerVersion != 1000000 {
		t.Fatalf("keys policy set %+v", k.Policy)
	}
	// A policy is replaced whole: flags left out go back to their defaults.
	if k := showKey(t, "keys", "policy", "cli-policy", "--min-decryption-version", "1"); (k.Policy.AutoRotatePeriod != "" && k.Policy.AutoRotatePeriod != "0s") || k.Policy.MaxEncryptionsPerVersion != 0 {
		t.Fatalf("keys policy without rotation flags kept %+v", k.Policy)
	}
	cipherctl(t, "", 1, "keys", "policy", "cli-policy", "--rotate-every", "30s")       // the server wants at least a minute
	cipherctl(t, "", 1, "keys", "policy", "cli-policy", "--max-encryptions", "-1")     // refused before any call
	cipherctl(t, "", 1, "keys", "create", "cli-policy-2", "--rotate-every", "90500ms") // whole seconds only
	cipherctl(t, "", 1, "keys", "census", "no-such-key")
}
