/**
 * Traces through the hop: a client span per call, a child of the caller's active span, whose context
 * goes to cipherd as a W3C `traceparent` (OpenTelemetry's own W3CTraceContextPropagator), so a cipherd
 * with tracing on makes its server span a child of it. A grpc-js interceptor on @opentelemetry/api,
 * rather than @opentelemetry/instrumentation-grpc: that one patches @grpc/grpc-js as it is loaded, which
 * in this ES module package needs the caller's process started with import-in-the-middle's loader hook
 * and the instrumentation registered before this package is imported; an option of the client works
 * however the caller's process starts. Only the trace context is sent: cipherd reads nothing else,
 * and a caller's baggage has no business at a key service.
 */
import { InterceptingCall, type Interceptor, type Metadata, status as grpcStatus } from "@grpc/grpc-js";
import { context, SpanKind, SpanStatusCode, trace, type TextMapSetter, type TracerProvider } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";

const W3C = new W3CTraceContextPropagator();
const INTO_METADATA: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => metadata.set(key, value),
};

/** The interceptor that traces each call through `provider`'s tracer. */
export function tracingInterceptor(provider: TracerProvider): Interceptor {
  const tracer = provider.getTracer("@cipherd/client");
  return (options, nextCall) => {
    const [service = "", method = ""] = options.method_definition.path.slice(1).split("/");
    const parent = context.active();
    const span = tracer.startSpan(
      `${service}/${method}`,
      { kind: SpanKind.CLIENT, attributes: { "rpc.system": "grpc", "rpc.service": service, "rpc.method": method } },
      parent,
    );
    const traced = trace.setSpan(parent, span);
    return new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        W3C.inject(traced, metadata, INTO_METADATA);
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            span.setAttribute("rpc.grpc.status_code", status.code);
            if (status.code !== grpcStatus.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: status.details });
            span.end();
            nextStatus(status);
          },
        });
      },
    });
  };
}
