package io.cipherd.server.tracing;

import io.cipherd.server.logging.CallRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.opentelemetry.api.trace.Span;

/**
 * Adds cipherd's attributes to the server span grpc-java's OpenTelemetry module started for a call
 * (made current by that module's interceptor, which runs outside this one) and keeps it in the
 * call's gRPC Context as a {@link CallSpan}. Runs inside the access-log interceptor, whose view of
 * each request message ({@link CallRequest}) it reads. A call that is not sampled is passed on
 * untouched: nothing is recorded for it, so nothing is allocated.
 */
final class CallSpanInterceptor implements ServerInterceptor {
  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    Span span = Span.current();
    if (!span.isRecording()) {
      return next.startCall(call, headers);
    }
    CallSpan traced = new CallSpan(span);
    MethodDescriptor<Q, A> method = call.getMethodDescriptor();
    span.setAttribute(CallSpan.RPC_SYSTEM, "grpc");
    span.setAttribute(CallSpan.RPC_SERVICE, method.getServiceName());
    span.setAttribute(CallSpan.RPC_METHOD, method.getBareMethodName());
    ServerCall<Q, A> closing =
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void close(Status status, Metadata trailers) {
            traced.closed(status, trailers);
            super.close(status, trailers);
          }
        };
    ServerCall.Listener<Q> listener =
        Contexts.interceptCall(traced.in(Context.current()), closing, headers, next);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        // The access-log interceptor, outside this one, has read the message.
        CallRequest request = CallRequest.current();
        if (request != null) {
          traced.sawRequest(request);
        }
        super.onMessage(message);
      }
    };
  }
}
