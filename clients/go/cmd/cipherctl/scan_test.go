package main_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// scanCtl runs cipherctl without a server (scan needs none), with extra environment, and returns
// stdout and stderr; it fails the test unless the exit status is want.
func scanCtl(t *testing.T, stdin string, want int, env []string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != want {
		t.Fatalf("cipherctl %s: exit %d (%v), want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, err, want, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// fakeCiphertext is a well-formed ciphertext of key/vVERSION: a random GCM payload of 28 bytes
// plus extra. Scan reads headers only, so it need not decrypt.
func fakeCiphertext(key string, version int32, extra int) string {
	payload := make([]byte, 28+extra)
	rand.Read(payload)
	return cipherd.Ciphertext{KeyName: key, KeyVersion: version, Mode: cipherd.ModeGCM, Payload: payload}.String()
}

// inventoryOf reads a scan --out file: its inventories by source and key, and its sources.
type scannedFile struct {
	inventories map[string]*cipherdpb.DataInventory // "SOURCE KEY"
	sources     []map[string]any
}

func readInventory(t *testing.T, path string) scannedFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Inventories []json.RawMessage `json:"inventories"`
		Sources     []map[string]any  `json:"sources"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	out := scannedFile{inventories: map[string]*cipherdpb.DataInventory{}, sources: file.Sources}
	for _, raw := range file.Inventories {
		inv := &cipherdpb.DataInventory{}
		if err := (protojson.UnmarshalOptions{}).Unmarshal(raw, inv); err != nil {
			t.Fatalf("not a DataInventory: %v\n%s", err, raw)
		}
		if inv.ScanTime == nil || inv.ScanTime.AsTime().IsZero() {
			t.Errorf("inventory without scan_time: %s", raw)
		}
		out.inventories[inv.Source+" "+inv.KeyName] = inv
	}
	return out
}

// versions prints an inventory's counts as "v1:3 v2:1", oldest first.
func versions(inv *cipherdpb.DataInventory) string {
	if inv == nil {
		return "(no inventory)"
	}
	var parts []string
	for _, v := range inv.Versions {
		parts = append(parts, fmt.Sprintf("v%d:%d", v.Version, v.Ciphertexts))
	}
	return strings.Join(parts, " ")
}

func TestScan_jsonlFieldsCountedApartWithEmptyAndForeignValues(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for range 3 {
		add(`{"id": 1, "email": %q, "phone": %q}`, fakeCiphertext("users-email", 1, 5), fakeCiphertext("phones", 4, 0))
	}
	for range 2 {
		add(`{"id": 2, "email": %q, "phone": null}`, fakeCiphertext("users-email", 2, 0))
	}
	add(`{"id": 3, "email": %q}`, fakeCiphertext("other", 7, 0)) // phone missing
	add(`{"id": 4, "email": "plain@example.com", "phone": 5551234}`)
	add(`{"id": 5, "email": ""}`)
	add(``) // a blank line is no record
	add(`not json at all`)
	add(`{"id": 6, "email": "<Users-Email/v1:gcm>AAAA"}`) // a malformed header is no ciphertext
	path := filepath.Join(dir, "export.jsonl")
	writeFile(t, path, strings.Join(lines, "\n")) // no line break after the last line
	out := filepath.Join(dir, "inventory.json")

	stdout, _ := scanCtl(t, "", 0, nil, "scan", path, "--field", "email", "--field", "phone", "--out", out)
	want := fmt.Sprintf(`file:%[1]s#email: 10 values: 6 ciphertexts, 3 not ciphertexts, 1 empty
  other  v7: 1
  users-email  v1: 3  v2: 2
file:%[1]s#phone: 10 values: 3 ciphertexts, 2 not ciphertexts, 5 empty
  phones  v4: 3
inventory: %[2]s (3 inventories)
`, path, out)
	if stdout != want {
		t.Errorf("printed\n%s\nwant\n%s", stdout, want)
	}
	got := readInventory(t, out)
	if len(got.inventories) != 3 {
		t.Errorf("%d inventories, want 3", len(got.inventories))
	}
	for key, wantVersions := range map[string]string{
		"file:" + path + "#email users-email": "v1:3 v2:2",
		"file:" + path + "#email other":       "v7:1",
		"file:" + path + "#phone phones":      "v4:3",
	} {
		inv := got.inventories[key]
		if versions(inv) != wantVersions || inv.GetItemsScanned() != 10 {
			t.Errorf("%s: %s, %d items; want %s, 10 items", key, versions(inv), inv.GetItemsScanned(), wantVersions)
		}
	}
	if s := got.sources[1]; s["source"] != "file:"+path+"#phone" || s["empty"] != 5.0 || s["unrecognized"] != 2.0 || s["ciphertexts"] != 3.0 {
		t.Errorf("sources[1] = %v", s)
	}
}

func TestScan_keyLimitsTheInventoryAndBelowGatesOnOlderVersions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.csv")
	writeFile(t, path, "id,ct,note\n"+
		"1,"+fakeCiphertext("payments", 1, 0)+",a\n"+
		"2,"+fakeCiphertext("payments", 3, 0)+",b\n"+
		"3,"+fakeCiphertext("payments", 3, 0)+",c\n"+
		"4,"+fakeCiphertext("refunds", 1, 0)+",d\n"+
		"5,,e\n"+
		"6\n") // a short row is empty in the column
	out := filepath.Join(dir, "inv.json")

	stdout, stderr := scanCtl(t, "", 4, nil, "scan", path, "--field", "ct", "--key", "payments", "--below", "3", "--out", out)
	if !strings.Contains(stdout, "  payments  v1: 1  v3: 2\n") || strings.Contains(stdout, "refunds") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if want := "payments: 1 ciphertext below v3: file:" + path + "#ct (1); rewrap them"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	got := readInventory(t, out)
	if len(got.inventories) != 1 || versions(got.inventories["file:"+path+"#ct payments"]) != "v1:1 v3:2" {
		t.Errorf("inventories %v", got.inventories)
	}
	stdout, _ = scanCtl(t, "", 0, nil, "scan", path, "--field", "ct", "--key", "payments", "--below", "1")
	if !strings.HasSuffix(stdout, "payments: no ciphertexts below v1\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	// A key absent from the data still gets its inventory: evidence that the source holds none.
	scanCtl(t, "", 0, nil, "scan", path, "--field", "ct", "--key", "absent", "--below", "9", "--out", out)
	inv := readInventory(t, out).inventories["file:"+path+"#ct absent"]
	if inv == nil || len(inv.Versions) != 0 || inv.ItemsScanned != 6 {
		t.Errorf("inventory of a key not found: %v", inv)
	}
}

func TestScan_directoriesGlobsJSONArraysStdinAndPlainLines(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "exports", "2026")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "exports", "a.jsonl"), fmt.Sprintf(`{"ct": %q}`+"\n", fakeCiphertext("k", 1, 0)))
	writeFile(t, filepath.Join(sub, "b.json"), fmt.Sprintf(` [ {"ct": %q}, {"ct": %q}, {"other": 1}, 7 ]`,
		fakeCiphertext("k", 2, 0), fakeCiphertext("k", 2, 0)))
	writeFile(t, filepath.Join(sub, "c.csv"), "ct\n"+fakeCiphertext("k", 3, 0)+"\n")
	stdout, _ := scanCtl(t, "", 0, nil, "scan", filepath.Join(dir, "exports"), "--field", "ct")
	if want := "#ct: 6 values: 4 ciphertexts, 1 not a ciphertext, 1 empty\n  k  v1: 1  v2: 2  v3: 1\n"; !strings.HasSuffix(stdout, want) {
		t.Errorf("directory: %s\nwant ...%s", stdout, want)
	}
	// A glob the shell did not expand (quoted), and JSON objects one after another.
	writeFile(t, filepath.Join(sub, "d.json"), fmt.Sprintf(`{"ct": %q} {"ct": %q}`, fakeCiphertext("k", 5, 0), fakeCiphertext("k", 5, 0)))
	stdout, _ = scanCtl(t, "", 0, nil, "scan", filepath.Join(sub, "*.json"), "--field", "ct")
	if !strings.HasSuffix(stdout, "  k  v2: 2  v5: 2\n") {
		t.Errorf("glob: %s", stdout)
	}
	// Plain lines from stdin, \r\n and a last line without a break.
	stdin := fakeCiphertext("k", 1, 0) + "\r\n\r\n" + "hello\n" + fakeCiphertext("k", 2, 0)
	stdout, _ = scanCtl(t, stdin, 0, nil, "scan", "-")
	if want := "stdin: 4 values: 2 ciphertexts, 1 not a ciphertext, 1 empty\n  k  v1: 1  v2: 1\n"; stdout != want {
		t.Errorf("stdin: %q, want %q", stdout, want)
	}
}

func TestScan_refusesWhatItCannotCountRight(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "a.jsonl")
	writeFile(t, jsonl, `{"ct": "x"}`+"\n")
	csvFile := filepath.Join(dir, "a.csv")
	writeFile(t, csvFile, "id,ct\n1,x\n")
	plain := filepath.Join(dir, "a.txt")
	writeFile(t, plain, "x\n")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"scan"}, "nothing to scan"},
		{[]string{"scan", jsonl}, "name the field or column that holds the ciphertexts with --field"},
		{[]string{"scan", plain, "--field", "ct"}, "--field needs a .jsonl, .json or .csv file"},
		{[]string{"scan", csvFile, "--field", "email"}, `the CSV header has no column "email"`},
		{[]string{"scan", filepath.Join(dir, "*.nothing")}, "no file matches"},
		{[]string{"scan", filepath.Join(dir, "missing.jsonl"), "--field", "ct"}, "no such file"},
		{[]string{"scan", jsonl, "--field", "ct", "--below", "2"}, "--below needs --key"},
		{[]string{"scan", jsonl, "--field", "ct", "--key", "Bad Name"}, "is no key name"},
		{[]string{"scan", "--column", "email"}, "need --table"},
		{[]string{"scan", "--table", "users"}, "--table needs --column"},
		{[]string{"scan", "--field", "ct", "--table", "users", "--column", "ct"}, "--field names a field of the files"},
	} {
		_, stderr := scanCtl(t, "", 1, nil, c.args...)
		if !strings.Contains(stderr, c.says) {
			t.Errorf("%v: %q lacks %q", c.args, stderr, c.says)
		}
	}
}

// Plain lines are read a head at a time: a 64 MiB value costs no more memory than a short one.
func TestScan_plainLinesStreamInBoundedMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	// The 64 MiB line first, written as it is made, so neither this process nor the scan holds it.
	w.WriteString("<big/v9:gcm>")
	b64 := base64.NewEncoder(base64.StdEncoding, w)
	chunk := make([]byte, 3<<16)
	for range (48 << 20) / len(chunk) {
		rand.Read(chunk)
		b64.Write(chunk)
	}
	b64.Write(chunk[:28])
	b64.Close()
	w.WriteString("\n")
	const lines = 300_000
	for i := range lines {
		w.WriteString(fakeCiphertext("big", int32(1+i%3), 0) + "\n")
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	cmd := exec.Command(binary, "scan", path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak := make(chan int64)
	go func() { peak <- highWaterMark(cmd.Process.Pid) }()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if want := fmt.Sprintf("file:%s: 300001 values: 300001 ciphertexts, 0 not ciphertexts, 0 empty\n  big  v1: 100000  v2: 100000  v3: 100000  v9: 1\n", path); out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	// The kernel's rusage of an exec'd child starts from this process's peak: read the child's own.
	hwm := <-peak
	if hwm == 0 || hwm > 40<<20 {
		t.Errorf("scan of a %d MiB file (a 64 MiB line) peaked at %d MiB of memory; want under 40", info.Size()>>20, hwm>>20)
	}
	t.Logf("peak memory %d MiB for a %d MiB file", hwm>>20, info.Size()>>20)
}

// highWaterMark polls a process's peak resident memory (VmHWM) until it exits, and returns the
// last reading: the peak up to then, which the scan of the lines after the big one leaves time for.
func highWaterMark(pid int) int64 {
	var last int64
	for {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return last
		}
		for _, line := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				var n int64
				fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(kb), " kB"), &n)
				if n == 0 {
					return last // a zombie: the process has ended
				}
				last = n << 10
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// scan → rewrap → scan against the real server: the inventory moves from the old versions to the
// current one, and --below stops gating once the rewrap is done.
func TestScan_rewrapMovesTheInventoryToTheCurrentVersion(t *testing.T) {
	needServer(t)
	key := "scan-rewrap"
	cipherctl(t, "", 0, "keys", "create", key)
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.jsonl")
	var rows strings.Builder
	for i := range 5 {
		if i == 3 {
			cipherctl(t, "", 0, "keys", "rotate", key)
		}
		ct := strings.TrimSpace(cipherctl(t, fmt.Sprintf("secret %d", i), 0, "encrypt", key))
		fmt.Fprintf(&rows, `{"id": %d, "ct": %q}`+"\n", i, ct)
	}
	writeFile(t, in, rows.String())
	before, _ := scanCtl(t, "", 4, nil, "scan", in, "--field", "ct", "--key", key, "--below", "2")
	if !strings.Contains(before, "  "+key+"  v1: 3  v2: 2\n") {
		t.Errorf("before the rewrap: %s", before)
	}
	out := filepath.Join(dir, "rows.v2.jsonl")
	cipherctl(t, "", 0, "rewrap", "--in", in, "--out", out, "--field", "ct")
	after, _ := scanCtl(t, "", 0, nil, "scan", out, "--field", "ct", "--key", key, "--below", "2")
	if !strings.Contains(after, "  "+key+"  v2: 5\n") {
		t.Errorf("after the rewrap: %s", after)
	}
}
