package cipherd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// Client is a connection to cipherd; every RPC of the API is one of its methods (or, for the
// streams, a function taking it). A Client is safe for concurrent use.
type Client struct {
	conn   *grpc.ClientConn
	crypto cipherdpb.CryptoServiceClient
	admin  cipherdpb.KeyAdminServiceClient
	audit  cipherdpb.AuditServiceClient
	// subjects is SubjectService (subjects.go).
	subjects cipherdpb.SubjectServiceClient
	// fpe is FormatPreservingService (fpe.go).
	fpe cipherdpb.FormatPreservingServiceClient
}

// Dial connects to addr ("host:port") and waits until the connection is ready or ctx ends: a
// server not up yet (nothing listening, a connection closed unanswered) is waited for, so a
// service may start before cipherd. A server that answers with a TLS setup that cannot work with
// the options (an untrusted certificate, no TLS, a client certificate required or refused) fails
// Dial at once. Either way the error is a *ConnectError with the last connection error.
// It needs WithInsecure, or one of the TLS options.
func Dial(ctx context.Context, addr string, opts ...Option) (*Client, error) {
	s := defaultSettings()
	for _, opt := range opts {
		if err := opt(&s); err != nil {
			return nil, err
		}
	}
	watch, dialOpts, err := s.grpcOptions()
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(addr, dialOpts...)
	if err != nil {
		return nil, fmt.Errorf("cipherd: %w", err)
	}
	if err := waitReady(ctx, conn, watch); err != nil {
		conn.Close()
		if _, ok := errors.AsType[*ConnectError](err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("cipherd: connecting to %s: %w", addr, err)
	}
	return &Client{conn: conn, crypto: cipherdpb.NewCryptoServiceClient(conn), admin: cipherdpb.NewKeyAdminServiceClient(conn),
		audit: cipherdpb.NewAuditServiceClient(conn), subjects: cipherdpb.NewSubjectServiceClient(conn),
		fpe: cipherdpb.NewFormatPreservingServiceClient(conn)}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Raw is the client's connection, for the generated stubs (cipherdpb.NewCryptoServiceClient(c.Raw()))
// of an RPC field or call this package does not cover yet. It goes through the same options
// (credentials, deadlines, retries) and its errors are *Error like the methods'. Raw and the
// cipherdpb package are outside this module's compatibility promise: they change with the proto.
func (c *Client) Raw() grpc.ClientConnInterface { return c.conn }

// grpcOptions are the dial options of the settings, and the watch on their connections' errors.
func (s *settings) grpcOptions() (*watchState, []grpc.DialOption, error) {
	var creds credentials.TransportCredentials
	switch {
	case s.tls != nil && s.insecure:
		return nil, nil, errors.New("cipherd: WithInsecure conflicts with the TLS options")
	case s.tls != nil:
		creds = credentials.NewTLS(s.tls)
	case s.insecure:
		creds = insecure.NewCredentials()
	default:
		return nil, nil, errors.New("cipherd: choose WithInsecure (loopback) or a TLS option")
	}
	watch := newConnectionWatch(creds)
	opts := []grpc.DialOption{grpc.WithTransportCredentials(watch)}
	if s.token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearerToken{token: s.token, requireTLS: !s.insecure}))
	}
	opts = append(opts,
		grpc.WithDefaultServiceConfig(retryServiceConfig(s.maxAttempts)),
		grpc.WithChainUnaryInterceptor(unaryInterceptor(s.timeout)),
		grpc.WithChainStreamInterceptor(streamInterceptor),
	)
	return watch.state, append(opts, s.dialOptions...), nil
}

// retryServiceConfig retries UNAVAILABLE only: every other failure would fail the same way again.
func retryServiceConfig(maxAttempts int) string {
	if maxAttempts < 2 {
		return `{}`
	}
	policy := fmt.Sprintf(`{"maxAttempts": %d, "initialBackoff": "0.1s", "maxBackoff": "2s",
		"backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}`, maxAttempts)
	services := []string{`{"service": "cipherd.v1.CryptoService"}`, `{"service": "cipherd.v1.KeyAdminService"}`,
		`{"service": "cipherd.v1.AuditService"}`, `{"service": "cipherd.v1.FormatPreservingService"}`}
	return `{"methodConfig": [{"name": [` + strings.Join(services, ",") + `], "retryPolicy": ` + policy + `}]}`
}

// waitReady waits until conn is ready, through transient failures, until ctx ends or a server
// answers with a TLS setup that cannot work (isConfigurationError).
func waitReady(ctx context.Context, conn *grpc.ClientConn, watch *watchState) error {
	conn.Connect()
	for {
		state := conn.GetState()
		switch state {
		case connectivity.Ready:
			return nil
		case connectivity.Shutdown:
			return ErrUnavailable
		case connectivity.Idle:
			conn.Connect()
		case connectivity.TransientFailure:
			if last := watch.lastError(); isConfigurationError(last) {
				return &ConnectError{Addr: conn.Target(), Err: last}
			}
		}
		if !waitForChange(ctx, conn, state, watch.changed) {
			if ctx.Err() == nil {
				continue // a connection failed: look at its error
			}
			if state == connectivity.TransientFailure {
				if last := lastConnectionError(conn, watch); last != nil {
					return &ConnectError{Addr: conn.Target(), Err: last}
				}
			}
			return fromRPC(ctx.Err())
		}
	}
}

// waitForChange waits until conn leaves state (true), or until ctx ends or a connection error is
// recorded (false). In TRANSIENT_FAILURE the state stays until a connection is ready, so a server
// that comes up with the wrong TLS setup is noticed by its recorded error.
func waitForChange(ctx context.Context, conn *grpc.ClientConn, state connectivity.State, recorded <-chan struct{}) bool {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-recorded:
			cancel()
		case <-ctx.Done():
		}
	}()
	return conn.WaitForStateChange(ctx, state)
}
