package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
)

// consumerMain is a program of another module that imports the client by its module path.
const consumerMain = `package main

import (
	"fmt"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

func main() {
	ct := cipherd.Ciphertext{KeyName: "payments", KeyVersion: 3, Mode: cipherd.ModeGCM, Payload: make([]byte, 28)}.String()
	parsed, err := cipherd.ParseCiphertext(ct)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s/v%d:%s\n", parsed.KeyName, parsed.KeyVersion, parsed.Mode)
}
`

// TestPublish_aModuleOutsideTheCheckoutBuildsTheClientFromTheProxy publishes the client into a
// file:// module proxy, then builds a throwaway module in a temporary directory that requires
// github.com/cipherd/cipherd/clients/go at that version (no replace, no workspace): the go command
// resolves it from the proxy's zip, as go get does from an internal proxy. It also builds
// cipherctl from the same version. The dependencies come from the machine's module cache (the
// client's tests fetched them), so their compiled packages are reused and the test takes seconds;
// the version is unique to the run and removed from that cache afterwards.
func TestPublish_aModuleOutsideTheCheckoutBuildsTheClientFromTheProxy(t *testing.T) {
	proxy, consumer := t.TempDir(), t.TempDir()
	testVersion := fmt.Sprintf("v0.0.1-publishtest.%d", time.Now().UnixNano())
	cache := goEnv(t, "GOMODCACHE")
	t.Cleanup(func() { forget(t, cache, testVersion) })
	versions, err := Publish("..", testVersion, proxy, time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{testVersion + ".zip", testVersion + ".mod", testVersion + ".info", "list"} {
		if _, err := os.Stat(filepath.Join(versions, name)); err != nil {
			t.Fatalf("the proxy lacks %s: %v", name, err)
		}
	}

	clientSum, err := os.ReadFile("../go.sum") // the dependencies' hashes, so none needs the checksum database
	if err != nil {
		t.Fatal(err)
	}
	write(t, consumer, "go.mod", "module example.com/consumer\n\ngo 1.26.0\n\nrequire github.com/cipherd/cipherd/clients/go "+testVersion+"\n")
	write(t, consumer, "go.sum", string(clientSum))
	write(t, consumer, "main.go", consumerMain)

	env := append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+goEnv(t, "GOPROXY"),
		"GONOSUMDB="+ModulePath, // published here, not in the public checksum database
		"GOPRIVATE=", "GONOPROXY=", "GOWORK=off", "GOTOOLCHAIN=local",
		"GOFLAGS=-mod=mod -modcacherw")
	goCmd(t, consumer, env, "build", "-o", "consumer", ".")
	if out := run(t, consumer, env, "./consumer"); out != "payments/v3:gcm\n" {
		t.Errorf("the consumer printed %q", out)
	}
	resolved := goCmd(t, consumer, env, "list", "-m", "-f", "{{.Path}} {{.Version}} {{.Replace}}", ModulePath)
	if resolved != ModulePath+" "+testVersion+" <nil>\n" {
		t.Errorf("the client resolved as %q, want version %s from the proxy, no replace", resolved, testVersion)
	}
	sum, _ := os.ReadFile(filepath.Join(consumer, "go.sum"))
	if !bytes.Contains(sum, []byte(ModulePath+" "+testVersion+" h1:")) {
		t.Error("go.sum records no hash of the published zip")
	}

	goCmd(t, consumer, env, "build", "-o", "cipherctl", ModulePath+"/cmd/cipherctl")
	ct := "<payments/v3:gcm>" + strings.Repeat("A", 40)
	if out := run(t, consumer, env, "./cipherctl", "inspect", "--local", ct); !strings.Contains(out, "key: payments\nversion: 3\nmode: gcm\n") {
		t.Errorf("cipherctl built from the proxy printed %q", out)
	}
}

// TestPublish_refusesWhatTheGoCommandWouldNot: a version that is not canonical semver, or a major
// version the module path does not carry, is refused before anything is written.
func TestPublish_refusesWhatTheGoCommandWouldNot(t *testing.T) {
	for _, version := range []string{"0.31.0", "v0.31", "v0.31.0+build", "v2.0.0"} {
		out := t.TempDir()
		if _, err := Publish("..", version, out, time.Now()); err == nil {
			t.Errorf("Publish(%q) succeeded", version)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("Publish(%q) wrote %v", version, entries)
		}
	}
}

// forget removes version of the client from the module cache: its extracted files and its download.
func forget(t *testing.T, cache, version string) {
	escaped, err := module.EscapePath(ModulePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(cache, filepath.FromSlash(escaped)+"@"+version)); err != nil {
		t.Error(err)
	}
	versions := filepath.Join(cache, "cache", "download", filepath.FromSlash(escaped), "@v")
	downloads, _ := filepath.Glob(filepath.Join(versions, version+".*"))
	for _, f := range downloads {
		if err := os.Remove(f); err != nil {
			t.Error(err)
		}
	}
	// The go command lists the versions it downloaded; an empty list goes, so nothing is left.
	list, err := os.ReadFile(filepath.Join(versions, "list"))
	if err != nil {
		return
	}
	kept := slices.DeleteFunc(strings.Fields(string(list)), func(v string) bool { return v == version })
	if len(kept) == 0 {
		os.Remove(filepath.Join(versions, "list"))
		return
	}
	os.WriteFile(filepath.Join(versions, "list"), []byte(strings.Join(kept, "\n")+"\n"), 0o644)
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func goCmd(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	return run(t, dir, env, "go", args...)
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}
