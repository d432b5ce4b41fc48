package cipherd_test

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/cipherdpb"
)

// flakyCrypto fails each Encrypt with code until it has failed failures times. An in-memory
// server, because the real one cannot be made to answer UNAVAILABLE on demand.
type flakyCrypto struct {
	cipherdpb.UnimplementedCryptoServiceServer
	code     codes.Code
	failures int32
	calls    atomic.Int32
}

func (f *flakyCrypto) Encrypt(context.Context, *cipherdpb.EncryptRequest) (*cipherdpb.EncryptResponse, error) {
	if f.calls.Add(1) <= f.failures {
		return nil, status.Error(f.code, "try again")
	}
	return &cipherdpb.EncryptResponse{Ciphertext: "<k/v1:gcm>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", KeyVersion: 1}, nil
}

func serveFlaky(t *testing.T, f *flakyCrypto) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	cipherdpb.RegisterCryptoServiceServer(s, f)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	return l.Addr().String()
}

func TestRetries_unavailableIsRetriedOthersAreNot(t *testing.T) {
	cases := []struct {
		name     string
		code     codes.Code
		attempts int
		wantErr  error
		calls    int32
	}{
		{"unavailable twice, then served", codes.Unavailable, 3, nil, 3},
		{"unavailable beyond the attempts", codes.Unavailable, 2, cipherd.ErrUnavailable, 2},
		{"failed precondition is final", codes.FailedPrecondition, 4, cipherd.ErrFailedPrecondition, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &flakyCrypto{code: tc.code, failures: 2}
			c := dial(t, serveFlaky(t, f), cipherd.WithInsecure(), cipherd.WithRetries(tc.attempts))
			_, err := c.Encrypt(context.Background(), "k", []byte("x"))
			if !errors.Is(err, tc.wantErr) && !(tc.wantErr == nil && err == nil) {
				t.Fatalf("Encrypt: %v, want %v", err, tc.wantErr)
			}
			if got := f.calls.Load(); got != tc.calls {
				t.Errorf("%d attempts reached the server, want %d", got, tc.calls)
			}
		})
	}
}
