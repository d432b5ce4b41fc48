package main_test

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// subjectBoundValues are values of one column: subject-bound ciphertexts of key users (and one
// subject-bound header with a mode no subject can use, which is no ciphertext), beside key-bound ones.
func subjectBoundValues() []string {
	sealed := func(mode string) string {
		payload := make([]byte, 16+28)
		rand.Read(payload)
		return "<users/s:" + mode + ">" + base64.StdEncoding.EncodeToString(payload)
	}
	return []string{sealed("gcm"), sealed("chacha"), fakeCiphertext("users", 1, 0), sealed("cbc"), fakeCiphertext("users", 2, 0)}
}

const subjectBoundCounts = `5 values: 4 ciphertexts, 1 not a ciphertext, 0 empty
  users  v1: 1  v2: 1  subject-bound: 2
`

// TestScan_subjectBoundCountedUnderTheirKeyAndNoVersion checks that a subject-bound ciphertext
// counts as one of its key, under no version: not in the inventory's versions, never below one.
func TestScan_subjectBoundCountedUnderTheirKeyAndNoVersion(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for _, v := range subjectBoundValues() {
		line, _ := json.Marshal(map[string]string{"email": v})
		lines = append(lines, string(line))
	}
	path, out := filepath.Join(dir, "users.jsonl"), filepath.Join(dir, "inventory.json")
	writeFile(t, path, strings.Join(lines, "\n")+"\n")
	stdout, _ := scanCtl(t, "", 0, nil, "scan", path, "--field", "email", "--out", out)
	if !strings.HasPrefix(stdout, "file:"+path+"#email: "+subjectBoundCounts) {
		t.Errorf("printed\n%s", stdout)
	}
	if inv := readInventory(t, out).inventories["file:"+path+"#email users"]; versions(inv) != "v1:1 v2:1" {
		t.Errorf("inventory versions %s", versions(inv))
	}
	_, stderr := scanCtl(t, "", 4, nil, "scan", path, "--field", "email", "--key", "users", "--below", "2")
	if !strings.Contains(stderr, "users: 1 ciphertext below v2") {
		t.Errorf("--below 2: %s", stderr)
	}
}

// TestScanPostgres_subjectBoundAgreesWithTheFileScan checks the database's pattern counts
// subject-bound values as the file scan does.
func TestScanPostgres_subjectBoundAgreesWithTheFileScan(t *testing.T) {
	dsn, db := needPostgres(t)
	mustExec(t, db, "CREATE TABLE subject_values (email text)")
	for _, v := range subjectBoundValues() {
		mustExec(t, db, "INSERT INTO subject_values VALUES ($1)", v)
	}
	stdout, _ := scanCtl(t, "", 0, nil, "scan", "--postgres-file", dsnFile(t, dsn), "--table", "subject_values", "--column", "email")
	if stdout != "postgres:public.subject_values.email: "+subjectBoundCounts {
		t.Errorf("printed\n%s", stdout)
	}
}
