// Package testpostgres runs a throwaway PostgreSQL cluster for tests: initdb into a temporary
// directory, the server on a free 127.0.0.1 port with password (SCRAM) authentication, stopped and
// removed by Stop. Run as root, it runs PostgreSQL as the system user postgres, since initdb and
// postgres refuse root.
package testpostgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoPostgres means CIPHERD_POSTGRES_BIN names no PostgreSQL; tests skip on it, except under
// CI=true where they fail.
var ErrNoPostgres = errors.New("testpostgres: no PostgreSQL: set CIPHERD_POSTGRES_BIN to the directory .ci/install-postgres prints (make test-go does)")

// User is the cluster's superuser, who the tests connect as.
const User = "cipherd"

// Cluster is a running PostgreSQL.
type Cluster struct {
	Addr     string // 127.0.0.1:PORT
	Password string // User's password
	dir      string
	cmd      *exec.Cmd
	log      *lockedBuffer
	exited   chan struct{}
}

// DSN is a connection URL to database as User, password included.
func (c *Cluster) DSN(database string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(User, c.Password), Host: c.Addr, Path: "/" + database,
		RawQuery: "sslmode=disable"}
	return u.String()
}

// Start initialises a cluster in a new temporary directory and starts it; it returns once the
// server accepts connections.
func Start() (*Cluster, error) {
	bin := os.Getenv("CIPHERD_POSTGRES_BIN")
	if bin == "" {
		return nil, ErrNoPostgres
	}
	if _, err := os.Stat(filepath.Join(bin, "initdb")); err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoPostgres, err)
	}
	owner, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cipherd-postgres-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, log: &lockedBuffer{}, exited: make(chan struct{})}
	if err := c.start(bin, owner); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// runAs is who runs PostgreSQL: nil for this process's user, or the system user postgres (made by
// Debian's package) when this process is root.
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("testpostgres: running as root, and PostgreSQL refuses root: no user postgres to run it as (.ci/install-postgres installs the package that makes it): %w", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func (c *Cluster) start(bin string, owner *syscall.Credential) error {
	password := make([]byte, 16)
	rand.Read(password)
	c.Password = hex.EncodeToString(password)
	pwfile := filepath.Join(c.dir, "password")
	if err := os.WriteFile(pwfile, []byte(c.Password+"\n"), 0o600); err != nil {
		return err
	}
	if owner != nil {
		for _, path := range []string{c.dir, pwfile} {
			if err := os.Chown(path, int(owner.Uid), int(owner.Gid)); err != nil {
				return err
			}
		}
	}
	data := filepath.Join(c.dir, "data")
	initdb := c.command(owner, filepath.Join(bin, "initdb"), "-D", data, "-U", User, "--pwfile", pwfile,
		"--auth", "scram-sha-256", "--encoding", "UTF8", "--no-locale", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("testpostgres: initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	c.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	// Durability is not what these tests check: no fsync keeps a small machine's disk out of them.
	c.cmd = c.command(owner, filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", c.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off")
	c.cmd.Stdout, c.cmd.Stderr = c.log, c.log
	if err := c.cmd.Start(); err != nil {
		return err
	}
	go func() {
		c.cmd.Wait()
		close(c.exited)
	}()
	return c.waitReady(30 * time.Second)
}

// command runs a PostgreSQL program as owner, in the cluster's directory (which owner can enter),
// killed if the test process dies.
func (c *Cluster) command(owner *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: owner, Pdeathsig: syscall.SIGKILL}
	return cmd
}

func (c *Cluster) waitReady(patience time.Duration) error {
	deadline := time.Now().Add(patience)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		cancel()
		if err == nil {
			return conn.Close(context.Background())
		}
		select {
		case <-c.exited:
			return fmt.Errorf("testpostgres: postgres exited:\n%s", c.log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("testpostgres: not accepting connections after %s: %v\n%s", patience, err, c.log.String())
		}
	}
}

// Stop shuts the server down (a fast shutdown, then a kill after 10 s) and removes its directory.
func (c *Cluster) Stop() {
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.exited:
		case <-time.After(10 * time.Second):
			c.cmd.Process.Kill()
			<-c.exited
		}
	}
	os.RemoveAll(c.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lockedBuffer is the server's log, written by its process and read when it fails.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
