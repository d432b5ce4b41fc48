package cipherd

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/grpc"
)

// unaryInterceptor gives calls without a deadline the default timeout and types their errors.
func unaryInterceptor(timeout time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok && timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		return fromRPC(invoker(ctx, method, req, reply, cc, opts...))
	}
}

func streamInterceptor(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	stream, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, fromRPC(err)
	}
	return typedStream{stream}, nil
}

// typedStream gives a stream's errors the package's types; io.EOF stays io.EOF.
type typedStream struct{ grpc.ClientStream }

func (s typedStream) SendMsg(m any) error { return typeStreamErr(s.ClientStream.SendMsg(m)) }
func (s typedStream) RecvMsg(m any) error { return typeStreamErr(s.ClientStream.RecvMsg(m)) }

func typeStreamErr(err error) error {
	if errors.Is(err, io.EOF) {
		return err
	}
	return fromRPC(err)
}
