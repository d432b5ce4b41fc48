package validate

// Starts the real server jar on free ports (the server picks them: --port 0 --http-port 0, read back
// from its log) with an embedded key store in a temporary directory, and sends it a few real gRPC calls.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protowire"
)

type server struct {
	grpcAddr, httpAddr string
	cmd                *exec.Cmd
}

var (
	grpcLine = regexp.MustCompile(`cipherd listening on (\S+:\d+)`)
	httpLine = regexp.MustCompile(`metrics and probes on http://(\S+:\d+)/metrics`)
)

func startServer(t *testing.T) *server {
	t.Helper()
	return startServerWithEnv(t, nil)
}

// startServerWithEnv starts the jar with extra environment (CIPHERD_* settings, as the chart passes them).
func startServerWithEnv(t *testing.T, extraEnv []string) *server {
	t.Helper()
	dir := t.TempDir()
	pw := filepath.Join(dir, "keystore-password")
	if err := os.WriteFile(pw, []byte("deploy-validate-only"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append(jvmFlags(), "-jar", jar(t), "--port", "0", "--http-port", "0", "--data-dir", filepath.Join(dir, "data"),
		"--keystore-password-file", pw, "--demo-key", "demo")
	cmd := exec.Command(javaBin(t), args...)
	cmd.Env = append(append(os.Environ(), "CIPHERD_LOG_FORMAT=text"), extraEnv...)
	logs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd}
	t.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			if m := grpcLine.FindStringSubmatch(sc.Text()); m != nil {
				s.grpcAddr = m[1]
			}
			if m := httpLine.FindStringSubmatch(sc.Text()); m != nil {
				s.httpAddr = m[1]
				ready <- nil
				break
			}
		}
		if s.httpAddr == "" {
			ready <- fmt.Errorf("server exited before listening")
		}
		_, _ = io.Copy(io.Discard, logs)
	}()
	select {
	case err := <-ready:
		if err != nil || s.grpcAddr == "" {
			t.Fatalf("starting cipherd: %v (grpc %q)", err, s.grpcAddr)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("cipherd did not start within 60 s")
	}
	return s
}

func (s *server) scrape(t *testing.T) string {
	t.Helper()
	res, err := http.Get("http://" + s.httpAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /metrics: %d %v", res.StatusCode, err)
	}
	return string(body)
}

// rawCodec sends hand-encoded protobuf bytes: the test needs three request messages, not generated code.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(b []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), b...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

var _ encoding.Codec = rawCodec{}

func field(num protowire.Number, s string) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// traffic makes the calls whose metrics the dashboard and rules use: health checks, encryptions and
// decryptions that succeed, a subject-bound encryption, and ones that fail (unknown key, malformed
// ciphertext).
func (s *server) traffic(t *testing.T) {
	t.Helper()
	conn, err := grpc.NewClient(s.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, svc := range []string{"", "cipherd.KeyStore"} {
		if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: svc}); err != nil && svc == "" {
			t.Fatalf("health check: %v", err)
		}
	}
	call := func(method string, req []byte) ([]byte, error) {
		var resp []byte
		err := conn.Invoke(ctx, method, &req, &resp, grpc.ForceCodec(rawCodec{}))
		return resp, err
	}
	for i := 0; i < 20; i++ {
		enc := append(field(1, "demo"), field(2, fmt.Sprintf("payload %d", i))...)
		resp, err := call("/cipherd.v1.CryptoService/Encrypt", enc)
		if err != nil {
			t.Fatalf("Encrypt: %v", err)
		}
		num, typ, n := protowire.ConsumeTag(resp)
		if n < 0 || num != 1 || typ != protowire.BytesType {
			t.Fatal("Encrypt answered no ciphertext")
		}
		ciphertext, m := protowire.ConsumeString(resp[n:])
		if m < 0 {
			t.Fatal("Encrypt answered a truncated ciphertext")
		}
		if _, err := call("/cipherd.v1.CryptoService/Decrypt", field(1, ciphertext)); err != nil {
			t.Fatalf("Decrypt: %v", err)
		}
	}
	// A subject-bound one: a round-trip to the subject store (the embedded file, or a refusal without one).
	call("/cipherd.v1.CryptoService/Encrypt", append(append(field(1, "demo"), field(2, "email")...), field(5, "user-1")...))
	if _, err := call("/cipherd.v1.CryptoService/Encrypt", field(1, "no-such-key")); err == nil {
		t.Fatal("Encrypt with an unknown key succeeded")
	}
	if _, err := call("/cipherd.v1.CryptoService/Decrypt", field(1, "<demo/v1:gcm>AAAA")); err == nil {
		t.Fatal("Decrypt of a malformed ciphertext succeeded")
	}
}

// forceGC asks the JVM for a collection, so the GC pause series exist in the scrape.
func (s *server) forceGC(t *testing.T) {
	t.Helper()
	jcmd := filepath.Join(filepath.Dir(javaBin(t)), "jcmd")
	if out, err := exec.Command(jcmd, fmt.Sprint(s.cmd.Process.Pid), "GC.run").CombinedOutput(); err != nil {
		t.Fatalf("jcmd GC.run: %v\n%s", err, out)
	}
}
