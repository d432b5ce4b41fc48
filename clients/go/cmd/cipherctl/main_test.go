package main_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
)

// server is the real cipherd these tests run cipherctl against; binary is cipherctl, built once.
var (
	server *testserver.Server
	binary string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cipherctl-test-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	defer stopPostgres()
	binary = filepath.Join(dir, "cipherctl")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building cipherctl: %v\n%s", err, out)
		return 1
	}
	flag.Parse()
	if testing.Short() { // make check: no server; the tests skip themselves
		return m.Run()
	}
	// Usage merges every second, so a usage limit rotates a key within the tests' patience.
	server, err = testserver.Start(testserver.Options{UsageMergeInterval: time.Second, WrappedImportOnly: true}) // cipherctl imports wrapped
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, testserver.ErrNoJar) && os.Getenv("CI") != "true" {
			return m.Run() // the tests skip themselves
		}
		return 1
	}
	defer server.Stop()
	return m.Run()
}

func needServer(t *testing.T) {
	t.Helper()
	if server == nil {
		t.Skip("no server (jar not built)")
	}
}

// cipherctl runs the binary against the test server, with stdin, and returns stdout; it fails the
// test unless the exit status is want.
func cipherctl(t *testing.T, stdin string, want int, args ...string) string {
	t.Helper()
	stdout, _ := cipherctlErr(t, stdin, want, args...)
	return stdout
}

// cipherctlErr is cipherctl that also returns stderr.
func cipherctlErr(t *testing.T, stdin string, want int, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "CIPHERD_ADDR="+server.Addr)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != want {
		t.Fatalf("cipherctl %s: exit %d (%v), want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, err, want, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

func client(t *testing.T) *cipherd.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := cipherd.Dial(ctx, server.Addr, cipherd.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
