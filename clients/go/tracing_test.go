package cipherd_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cipherd "github.com/cipherd/cipherd/clients/go"
	"github.com/cipherd/cipherd/clients/go/internal/testserver"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// otlpReceiver is an OTLP/gRPC trace receiver on a loopback port: where a cipherd with tracing on
// sends its spans, read back by the test.
type otlpReceiver struct {
	collectortrace.UnimplementedTraceServiceServer
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (r *otlpReceiver) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			r.spans = append(r.spans, ss.GetSpans()...)
		}
	}
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

// serverSpan waits (at most 20s) for the one span named name in traceID.
func (r *otlpReceiver) serverSpan(t *testing.T, traceID, name string) *tracepb.Span {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.mu.Lock()
		var found []*tracepb.Span
		for _, s := range r.spans {
			if hex.EncodeToString(s.GetTraceId()) == traceID && s.GetName() == name {
				found = append(found, s)
			}
		}
		r.mu.Unlock()
		if len(found) == 1 {
			return found[0]
		}
		if len(found) > 1 || time.Now().After(deadline) {
			t.Fatalf("want one span %q in trace %s, got %d", name, traceID, len(found))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func startReceiver(t *testing.T) (*otlpReceiver, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	receiver := &otlpReceiver{}
	srv := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(srv, receiver)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return receiver, "http://" + lis.Addr().String()
}

// A caller's span crosses the hop: the client span WithTracing starts is a child of the caller's,
// and cipherd's server span (as cipherd exported it over OTLP) and its audit record carry the
// caller's trace, with the client span as the server span's parent.
func TestWithTracingMakesTheServerSpanAChildOfTheClientSpan(t *testing.T) {
	if plain == nil {
		t.Skip("no server (jar not built)")
	}
	receiver, endpoint := startReceiver(t)
	audit := filepath.Join(t.TempDir(), "audit.log")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	srv, err := testserver.Start(testserver.Options{Args: []string{
		"--otel-endpoint", endpoint, "--otel-sampling-ratio", "0", "--audit-log", audit}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()

	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
	defer tp.Shutdown(context.Background())
	c := dial(t, srv.Addr, cipherd.WithInsecure(), cipherd.WithTracing(tp))
	key := newKey(t, c, "traced")

	ctx, parent := tp.Tracer("checkout").Start(context.Background(), "checkout")
	if _, err := c.Encrypt(ctx, key, []byte("traced plaintext")); err != nil {
		t.Fatalf("Encrypt: %v", err)
	}
	parent.End()

	traceID := parent.SpanContext().TraceID().String()
	var client sdktrace.ReadOnlySpan
	for _, s := range recorder.Ended() {
		if s.Name() == "cipherd.v1.CryptoService/Encrypt" && s.SpanContext().TraceID().String() == traceID {
			client = s
		}
	}
	if client == nil {
		t.Fatalf("no client span of Encrypt in the caller's trace %s", traceID)
	}
	if client.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("client span's parent = %s, want the caller's span %s", client.Parent().SpanID(), parent.SpanContext().SpanID())
	}
	// Sampling ratio 0: cipherd traces the call only because the caller sampled it.
	server := receiver.serverSpan(t, traceID, "Recv.cipherd.v1.CryptoService.Encrypt")
	if got, want := hex.EncodeToString(server.GetParentSpanId()), client.SpanContext().SpanID().String(); got != want {
		t.Errorf("server span's parent = %s, want the client span %s", got, want)
	}
	if got := auditTraceIDs(t, audit, "/Encrypt"); len(got) != 1 || got[0] != traceID {
		t.Errorf("audit records of Encrypt have trace ids %v, want [%s]", got, traceID)
	}
}

// auditTraceIDs are the trace_id of the call records of methods ending in suffix, once there is one.
func auditTraceIDs(t *testing.T, path, suffix string) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ids []string
		if f, err := os.Open(path); err == nil {
			lines := bufio.NewScanner(f)
			for lines.Scan() {
				var raw map[string]any
				if json.Unmarshal(lines.Bytes(), &raw) != nil {
					continue
				}
				method, _ := raw["method"].(string)
				if raw["type"] == "call" && strings.HasSuffix(method, suffix) {
					id, _ := raw["trace_id"].(string)
					ids = append(ids, id)
				}
			}
			f.Close()
		}
		if len(ids) > 0 || time.Now().After(deadline) {
			return ids
		}
		time.Sleep(50 * time.Millisecond)
	}
}
