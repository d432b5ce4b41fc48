package io.cipherd.server.tracing;

import io.cipherd.server.logging.CallRequest;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.opentelemetry.api.trace.Span;

/**
 * Adds cipherd's attributes to the server span grpc-java's OpenTelemetry module started for a call
 * (made current by that module's interceptor, which runs outside this one), binding it to the
 * call's {@link CallSpan}, which the call's gRPC Context has held since the call was found traced.
 * Runs inside the access-log interceptor, whose view of each request message ({@link CallRequest})
 * it reads. A call that is not traced is passed on untouched: nothing is recorded for it, so
 * nothing is allocated.
 */
final class CallSpanInterceptor implements ServerInterceptor {
  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    CallSpan traced = CallSpan.current();
    Span span = Span.current();
    if (traced == null || !span.isRecording()) {
      return next.startCall(call, headers);
    }
    traced.bind(span, call.getMethodDescriptor());
    ServerCall<Q, A> closing =
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void close(Status status, Metadata trailers) {
            traced.closing(status, trailers);
            super.close(status, trailers);
          }
        };
    ServerCall.Listener<Q> listener = next.startCall(closing, headers);
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
