package cipherd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// ConnectError is how Dial fails when no connection became ready: the address, and the last
// connection error. errors.Is(err, ErrUnavailable) holds, and errors.As finds the cause's own
// types: *tls.CertificateVerificationError (with x509.UnknownAuthorityError or HostnameError
// inside) for a server certificate not trusted, tls.RecordHeaderError for TLS to a plaintext
// port, a *net.OpError with Op "remote error" for a TLS alert of the server (a client certificate
// required or refused), ErrClosedBeforeAnswer for plaintext to a TLS port.
type ConnectError struct {
	Addr string
	// Err is the last connection error: one of the above, or gRPC's description of a connection
	// that failed before any handshake ("dial tcp ...: connect: connection refused").
	Err error
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("cipherd: unavailable: connecting to %s: %v", e.Addr, e.Err)
}

// Unwrap gives ErrUnavailable and the cause.
func (e *ConnectError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// ErrClosedBeforeAnswer is a connection the server closed before its first byte: what a TLS server
// does to a client speaking plaintext (and a proxy with no server behind it).
var ErrClosedBeforeAnswer = errors.New("the server closed the connection before answering (a TLS server does so to plaintext)")

// isConfigurationError reports whether a server answered with a TLS setup that cannot work with
// this client's: its certificate not trusted, not TLS at all, or a TLS alert refusing the client.
// Waiting does not cure these, so Dial returns them at once.
func isConfigurationError(err error) bool {
	var verify *tls.CertificateVerificationError
	var header tls.RecordHeaderError
	var op *net.OpError
	return errors.As(err, &verify) || errors.As(err, &header) || (errors.As(err, &op) && op.Op == "remote error")
}

// connectionWatch wraps the transport credentials to keep the last error of a connection that
// reached the server: its handshake's, or that of its first read (the server's TLS alert after a
// TLS 1.3 handshake, or its closing a plaintext connection). gRPC describes a failed connection
// only as text; these keep their types, for errors.As and for cipherctl's hints.
type connectionWatch struct {
	credentials.TransportCredentials
	state *watchState
}

type watchState struct {
	mu      sync.Mutex
	last    error         // of the latest connection that reached the server; nil once one was answered
	changed chan struct{} // signalled (without blocking) when last is set
}

func newConnectionWatch(creds credentials.TransportCredentials) *connectionWatch {
	return &connectionWatch{TransportCredentials: creds, state: &watchState{changed: make(chan struct{}, 1)}}
}

func (w *connectionWatch) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn, info, err := w.TransportCredentials.ClientHandshake(ctx, authority, raw)
	if err != nil {
		w.state.record(err)
		return nil, nil, err
	}
	return &firstReadConn{Conn: conn, state: w.state}, info, nil
}

func (w *connectionWatch) Clone() credentials.TransportCredentials {
	return &connectionWatch{TransportCredentials: w.TransportCredentials.Clone(), state: w.state}
}

func (s *watchState) record(err error) {
	s.mu.Lock()
	s.last = err
	s.mu.Unlock()
	if err != nil {
		select {
		case s.changed <- struct{}{}:
		default:
		}
	}
}

func (s *watchState) lastError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// firstReadConn records how the first read of a connection went: an answer clears the last error.
type firstReadConn struct {
	net.Conn
	state *watchState
	read  atomic.Bool
}

func (c *firstReadConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if !c.read.Swap(true) {
		switch {
		case n > 0:
			c.state.record(nil)
		case errors.Is(err, io.EOF):
			c.state.record(ErrClosedBeforeAnswer)
		case err != nil:
			c.state.record(err)
		}
	}
	return n, err
}

// lastConnectionError is the error of the connection's last failure: the watch's, when gRPC's own
// description of the failure (the status an RPC gets at once in TRANSIENT_FAILURE, without
// reaching any server) names it, else that description. nil when gRPC has none.
func lastConnectionError(conn *grpc.ClientConn, watch *watchState) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := conn.Invoke(ctx, healthpb.Health_Check_FullMethodName, &healthpb.HealthCheckRequest{}, &healthpb.HealthCheckResponse{})
	st, ok := status.FromError(err)
	if err == nil || !ok {
		return watch.lastError()
	}
	described := st.Message()
	if last := watch.lastError(); last != nil && (strings.Contains(described, last.Error()) ||
		(errors.Is(last, ErrClosedBeforeAnswer) && strings.Contains(described, "EOF"))) {
		return last
	}
	return errors.New(described)
}
