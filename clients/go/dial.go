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

// Client is a connection to cipherd. Crypto, Admin and Audit are the generated stubs; their errors are
// *Error like those of Client's own methods. A Client is safe for concurrent use.
type Client struct {
	conn   *grpc.ClientConn
	Crypto cipherdpb.CryptoServiceClient
	Admin  cipherdpb.KeyAdminServiceClient
	Audit  cipherdpb.AuditServiceClient
}

// Dial connects to addr ("host:port") and waits until the connection is ready, fails, or ctx ends.
// It needs WithInsecure, or one of the TLS options.
func Dial(ctx context.Context, addr string, opts ...Option) (*Client, error) {
	s := defaultSettings()
	for _, opt := range opts {
		if err := opt(&s); err != nil {
			return nil, err
		}
	}
	dialOpts, err := s.grpcOptions()
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(addr, dialOpts...)
	if err != nil {
		return nil, fmt.Errorf("cipherd: %w", err)
	}
	if err := waitReady(ctx, conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("cipherd: connecting to %s: %w", addr, err)
	}
	return &Client{conn: conn, Crypto: cipherdpb.NewCryptoServiceClient(conn), Admin: cipherdpb.NewKeyAdminServiceClient(conn),
		Audit: cipherdpb.NewAuditServiceClient(conn)}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

func (s *settings) grpcOptions() ([]grpc.DialOption, error) {
	var opts []grpc.DialOption
	switch {
	case s.tls != nil && s.insecure:
		return nil, errors.New("cipherd: WithInsecure conflicts with the TLS options")
	case s.tls != nil:
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(s.tls)))
	case s.insecure:
		opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))
	default:
		return nil, errors.New("cipherd: choose WithInsecure (loopback) or a TLS option")
	}
	if s.token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearerToken{token: s.token, requireTLS: !s.insecure}))
	}
	opts = append(opts,
		grpc.WithDefaultServiceConfig(retryServiceConfig(s.maxAttempts)),
		grpc.WithChainUnaryInterceptor(unaryInterceptor(s.timeout)),
		grpc.WithChainStreamInterceptor(streamInterceptor),
	)
	return append(opts, s.dialOptions...), nil
}

// retryServiceConfig retries UNAVAILABLE only: every other failure would fail the same way again.
func retryServiceConfig(maxAttempts int) string {
	if maxAttempts < 2 {
		return `{}`
	}
	policy := fmt.Sprintf(`{"maxAttempts": %d, "initialBackoff": "0.1s", "maxBackoff": "2s",
		"backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}`, maxAttempts)
	services := []string{`{"service": "cipherd.v1.CryptoService"}`, `{"service": "cipherd.v1.KeyAdminService"}`,
		`{"service": "cipherd.v1.AuditService"}`}
	return `{"methodConfig": [{"name": [` + strings.Join(services, ",") + `], "retryPolicy": ` + policy + `}]}`
}

func waitReady(ctx context.Context, conn *grpc.ClientConn) error {
	conn.Connect()
	for {
		state := conn.GetState()
		switch state {
		case connectivity.Ready:
			return nil
		case connectivity.TransientFailure, connectivity.Shutdown:
			return ErrUnavailable
		}
		if !conn.WaitForStateChange(ctx, state) {
			return fromRPC(ctx.Err())
		}
	}
}
