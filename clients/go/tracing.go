package cipherd

import (
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// WithTracing traces every call with OpenTelemetry's gRPC instrumentation (otelgrpc): a client
// span per call, a child of the span in the call's ctx, started from tp (nil: the global
// TracerProvider), whose context goes to cipherd as a W3C traceparent header. A cipherd with
// tracing on makes its server span a child of it (docs/tracing.md).
//
// Only the W3C trace context is sent, whatever the global propagator is: cipherd reads nothing
// else, and a caller's baggage has no business at a key service.
func WithTracing(tp trace.TracerProvider) Option {
	return func(s *settings) error {
		if tp == nil {
			tp = otel.GetTracerProvider()
		}
		handler := otelgrpc.NewClientHandler(
			otelgrpc.WithTracerProvider(tp),
			otelgrpc.WithPropagators(propagation.TraceContext{}),
		)
		s.dialOptions = append(s.dialOptions, grpc.WithStatsHandler(handler))
		return nil
	}
}
