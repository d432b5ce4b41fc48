package cipherd_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	cipherd "github.com/cipherd/cipherd/clients/go"
)

// TestErrors_everyKindFromTheRealServer provokes each error kind and checks errors.Is and the status.
func TestErrors_everyKindFromTheRealServer(t *testing.T) {
	c := dialPlain(t)
	ctx := context.Background()
	key := newKey(t, c, "errs")
	ct, err := c.Encrypt(ctx, key, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	// Another base64 digit in the tag: still canonical base64 (flipping a bit of the character
	// turned 'A', 'Z', 'a', 'z', '+' or '/' into a character outside the alphabet, 6 times in 64).
	tampered := []byte(ct)
	if i := len(tampered) - 6; tampered[i] == 'A' {
		tampered[i] = 'B'
	} else {
		tampered[i] = 'A'
	}
	cases := []struct {
		name   string
		call   func() error
		want   error
		code   codes.Code
		reason string // the ErrorInfo reason; "" when gRPC itself fails the call
	}{
		{"not found", func() error {
			_, err := c.GetKey(ctx, "no-such-key")
			return err
		}, cipherd.ErrNotFound, codes.NotFound, "KEY_NOT_FOUND"},
		{"already exists", func() error {
			_, err := c.CreateKey(ctx, key)
			return err
		}, cipherd.ErrAlreadyExists, codes.AlreadyExists, "KEY_ALREADY_EXISTS"},
		{"invalid argument", func() error {
			_, err := c.CreateKey(ctx, "Bad Name")
			return err
		}, cipherd.ErrInvalidArgument, codes.InvalidArgument, "INVALID_ARGUMENT"},
		{"decryption failed", func() error {
			_, err := c.Decrypt(ctx, string(tampered))
			return err
		}, cipherd.ErrDecryptionFailed, codes.InvalidArgument, "DECRYPTION_FAILED"},
		{"failed precondition", func() error {
			_, err := c.UpdateKeyPolicy(ctx, key, cipherd.KeyPolicy{MinDecryptionVersion: 9})
			return err
		}, cipherd.ErrFailedPrecondition, codes.FailedPrecondition, "POLICY_DENIED"},
		{"resource exhausted", func() error {
			_, err := c.Encrypt(ctx, key, make([]byte, 5<<20)) // over --max-message-bytes (4 MiB)
			return err
		}, cipherd.ErrResourceExhausted, codes.ResourceExhausted, ""},
		{"deadline exceeded", func() error {
			short, cancel := context.WithTimeout(ctx, time.Nanosecond)
			defer cancel()
			_, err := c.Encrypt(short, key, []byte("late"))
			return err
		}, cipherd.ErrDeadlineExceeded, codes.DeadlineExceeded, ""},
		{"canceled", func() error {
			canceled, cancel := context.WithCancel(ctx)
			cancel()
			_, err := c.Encrypt(canceled, key, []byte("never"))
			return err
		}, cipherd.ErrCanceled, codes.Canceled, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var typed *cipherd.Error
			if !errors.Is(err, tc.want) || !errors.As(err, &typed) || status.Code(err) != tc.code {
				t.Fatalf("got %v (code %s), want %v with code %s", err, status.Code(err), tc.want, tc.code)
			}
			if typed.Reason != tc.reason {
				t.Errorf("reason %q, want %q", typed.Reason, tc.reason)
			}
			if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), ct[20:]) {
				t.Errorf("error message leaks data: %v", err)
			}
		})
	}
}

func TestErrors_unreachableServerIsUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := cipherd.Dial(ctx, addr, cipherd.WithInsecure()); !errors.Is(err, cipherd.ErrUnavailable) {
		t.Fatalf("Dial to a closed port: %v, want ErrUnavailable", err)
	}
}

func TestDial_needsATransportChoice(t *testing.T) {
	if _, err := cipherd.Dial(context.Background(), "127.0.0.1:1"); err == nil {
		t.Fatal("Dial without WithInsecure or TLS succeeded")
	}
}
