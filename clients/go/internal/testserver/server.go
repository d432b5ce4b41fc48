// Package testserver runs the real cipherd jar for tests, on free ports with a throwaway data dir.
package testserver

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// ErrNoJar means the jar is not built; tests skip on it, except under CI=true where they fail.
var ErrNoJar = errors.New("testserver: no cipherd jar (run make build, or set CIPHERD_JAR)")

// Options are the server's optional settings.
type Options struct {
	PKI          *PKI   // serve TLS with its server certificate
	MutualTLS    bool   // also require client certificates signed by the PKI's CA
	AccessPolicy string // YAML of --access-policy
	DemoKey      string // --demo-key
	// UsageMergeInterval is --usage-merge-interval: how often usage is merged and automatic
	// rotations are checked (0: the server's default, 10s).
	UsageMergeInterval time.Duration
	// Port is the gRPC port to listen on; 0 for a free one.
	Port int
	// Args are more flags, after the others (e.g. --audit-log FILE).
	Args []string
	// WrappedImportOnly leaves out --allow-plaintext-key-import, which the test servers otherwise
	// pass: the tests of ImportKey in the clear predate wrapped import.
	WrappedImportOnly bool
}

// Server is a running cipherd.
type Server struct {
	Addr string // 127.0.0.1:PORT of gRPC
	cmd  *exec.Cmd
	dir  string
	opts Options
	args []string
	log  *logTail
}

var listening = regexp.MustCompile(`cipherd listening on (\S+:\d+)`)

// Start runs the jar in $CIPHERD_JAR (default ../../server/target/cipherd.jar from clients/go)
// with $CIPHERD_JAVA (default java) and returns once its health service answers SERVING.
func Start(opts Options) (*Server, error) {
	if _, err := os.Stat(jarPath()); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNoJar, jarPath())
	}
	dir, err := os.MkdirTemp("", "cipherd-test-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, opts: opts}
	if s.args, err = s.argsFor(opts); err != nil {
		s.Stop()
		return nil, err
	}
	if err := s.launch(s.args); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Kill ends the server at once (SIGKILL), as a crash would, keeping its data dir for Restart.
func (s *Server) Kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
	s.cmd = nil
}

// Terminate sends SIGTERM, as a rollout does, and waits until the server exits; its error is the
// exit's (nil for status 0). The data dir is kept for Restart.
func (s *Server) Terminate() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	err := s.cmd.Wait()
	s.cmd = nil
	return err
}

// Restart kills the server if it runs and starts it again on the same address with the same data
// dir, so clients reconnect to it and find the same keys.
func (s *Server) Restart() error {
	s.Kill()
	_, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return err
	}
	args := slices.Clone(s.args)
	args[slices.Index(args, "--port")+1] = port
	return s.launch(args)
}

// launch starts java with args and waits until the server listens and answers SERVING.
func (s *Server) launch(args []string) error {
	java := os.Getenv("CIPHERD_JAVA")
	if java == "" {
		java = "java"
	}
	s.log = &logTail{}
	s.cmd = exec.Command(java, args...)
	s.cmd.SysProcAttr = dieWithTest()
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	s.cmd.Stderr = s.cmd.Stdout
	if err := s.cmd.Start(); err != nil {
		return err
	}
	addr, exited := make(chan string, 1), make(chan struct{})
	go func() {
		s.log.follow(bufio.NewScanner(out), addr)
		close(exited)
	}()
	select {
	case s.Addr = <-addr:
	case <-exited:
		return fmt.Errorf("testserver: cipherd exited at start; log:\n%s", s.log)
	case <-time.After(60 * time.Second):
		return fmt.Errorf("testserver: no 'listening' line within 60s; log:\n%s", s.log)
	}
	if err := s.waitServing(s.opts); err != nil {
		return fmt.Errorf("%w; log:\n%s", err, s.log)
	}
	return nil
}

func jarPath() string {
	if jar := os.Getenv("CIPHERD_JAR"); jar != "" {
		return jar
	}
	// Tests run in their package's folder; find the repository's root from there.
	wd, _ := os.Getwd()
	for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "proto", "buf.yaml")); err == nil {
			return filepath.Join(d, "server", "target", "cipherd.jar")
		}
	}
	return "server/target/cipherd.jar"
}

func (s *Server) argsFor(opts Options) ([]string, error) {
	password := make([]byte, 24)
	rand.Read(password)
	pwFile := filepath.Join(s.dir, "keystore-password")
	if err := os.WriteFile(pwFile, []byte(base64.StdEncoding.EncodeToString(password)), 0o600); err != nil {
		return nil, err
	}
	args := strings.Fields(os.Getenv("CIPHERD_JAVA_OPTS"))
	args = append(args, "-jar", jarPath(), "--host", "127.0.0.1", "--port", fmt.Sprint(opts.Port), "--http-port", "0",
		"--data-dir", filepath.Join(s.dir, "data"), "--keystore-password-file", pwFile)
	if opts.DemoKey != "" {
		args = append(args, "--demo-key", opts.DemoKey)
	}
	if !opts.WrappedImportOnly {
		args = append(args, "--allow-plaintext-key-import")
	}
	if opts.UsageMergeInterval > 0 {
		args = append(args, "--usage-merge-interval", fmt.Sprintf("PT%.3fS", opts.UsageMergeInterval.Seconds()))
	}
	if opts.PKI != nil {
		args = append(args, "--tls-cert", opts.PKI.ServerCertFile, "--tls-key", opts.PKI.ServerKeyFile)
		if opts.MutualTLS {
			args = append(args, "--tls-client-ca", opts.PKI.CAFile)
		}
	}
	if opts.AccessPolicy != "" {
		policy := filepath.Join(s.dir, "access-policy.yaml")
		if err := os.WriteFile(policy, []byte(opts.AccessPolicy), 0o600); err != nil {
			return nil, err
		}
		args = append(args, "--access-policy", policy)
	}
	return append(args, opts.Args...), nil
}

func (s *Server) waitServing(opts Options) error {
	creds := insecure.NewCredentials()
	if opts.PKI != nil {
		config, err := opts.PKI.ClientTLS(opts.MutualTLS)
		if err != nil {
			return err
		}
		creds = credentials.NewTLS(config)
	}
	conn, err := grpc.NewClient(s.Addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testserver: not SERVING within 30s (last: %v)", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Stop kills the server and removes its data dir.
func (s *Server) Stop() {
	s.Kill()
	os.RemoveAll(s.dir)
}

// logTail keeps the server's log for error messages and reports the bound address.
type logTail struct {
	mu    sync.Mutex
	lines []string
}

func (l *logTail) follow(sc *bufio.Scanner, addr chan<- string) {
	for sc.Scan() {
		line := sc.Text()
		l.mu.Lock()
		l.lines = append(l.lines, line)
		l.mu.Unlock()
		if m := listening.FindStringSubmatch(line); m != nil {
			addr <- m[1]
		}
	}
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}
