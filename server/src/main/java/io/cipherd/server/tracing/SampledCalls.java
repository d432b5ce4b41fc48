package io.cipherd.server.tracing;

import io.grpc.Context;
import io.grpc.ForwardingServerBuilder;
import io.grpc.Metadata;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import java.util.ArrayList;
import java.util.List;

/**
 * grpc-java's OpenTelemetry module behind cipherd's sampling decision ({@link CallSampler}): the
 * module's stream tracers and interceptors see only the calls that are traced. Left to itself the
 * module starts a span for every call and lets the SDK's sampler drop it afterwards, which costs an
 * unsampled call a span name, a propagator's parse of its headers, a non-recording span, context
 * switches around each callback and the attributes of its message events (about 2 µs and 2 KB a
 * call here, at any sampling ratio). Here an unsampled call costs one random draw.
 */
final class SampledCalls {
  private static final ServerStreamTracer NOT_TRACED = new ServerStreamTracer() {};

  private SampledCalls() {}

  /**
   * Adds {@code module}'s server tracing to {@code builder}, behind {@code sampler}; the module
   * hears of each message only with {@code messageEvents} (when its SDK keeps span events). Its
   * metrics are left out: cipherd's are Prometheus's.
   */
  static <T extends ServerBuilder<T>> T install(
      GrpcOpenTelemetry module, CallSampler sampler, boolean messageEvents, T builder) {
    Capture capture = new Capture(builder);
    module.configureServerBuilder(capture);
    builder.addStreamTracerFactory(
        new Gate(sampler, List.copyOf(capture.tracingFactories()), messageEvents));
    for (ServerInterceptor interceptor : capture.interceptors) {
      builder.intercept(new OnlyTraced(interceptor));
    }
    return builder;
  }

  /** What the module adds to a server: its stream tracer factories and interceptors, kept back. */
  private static final class Capture extends ForwardingServerBuilder<Capture> {
    private final ServerBuilder<?> delegate;
    private final List<ServerStreamTracer.Factory> factories = new ArrayList<>();
    private final List<ServerInterceptor> interceptors = new ArrayList<>();
    private int beforeFirstInterceptor = -1;

    Capture(ServerBuilder<?> delegate) {
      this.delegate = delegate;
    }

    @Override
    protected ServerBuilder<?> delegate() {
      return delegate;
    }

    @Override
    public Capture addStreamTracerFactory(ServerStreamTracer.Factory factory) {
      factories.add(factory);
      return this;
    }

    @Override
    public Capture intercept(ServerInterceptor interceptor) {
      if (interceptors.isEmpty()) {
        beforeFirstInterceptor = factories.size();
      }
      interceptors.add(interceptor);
      return this;
    }

    /**
     * The tracing module's factories: those added before its interceptor. The module adds its
     * tracing's factory and interceptor before its metrics' factory (so that metrics see the
     * caller's baggage); a metrics tracer with every metric disabled measures nothing, yet builds
     * attributes and a context for each traced call.
     */
    List<ServerStreamTracer.Factory> tracingFactories() {
      return beforeFirstInterceptor < 0 ? List.of() : factories.subList(0, beforeFirstInterceptor);
    }
  }

  /** One decision per call: the module's tracers for a traced call, none for the others. */
  private static final class Gate extends ServerStreamTracer.Factory {
    private final CallSampler sampler;
    private final List<ServerStreamTracer.Factory> traced;
    private final boolean messageEvents;

    Gate(CallSampler sampler, List<ServerStreamTracer.Factory> traced, boolean messageEvents) {
      this.sampler = sampler;
      this.traced = traced;
      this.messageEvents = messageEvents;
    }

    @Override
    public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
      if (!sampler.sampled(headers)) {
        return NOT_TRACED;
      }
      ServerStreamTracer[] tracers = new ServerStreamTracer[traced.size()];
      for (int i = 0; i < tracers.length; i++) {
        tracers[i] = traced.get(i).newServerStreamTracer(fullMethodName, headers);
      }
      return new TracedCall(tracers, messageEvents);
    }
  }

  /**
   * The module's tracers of one traced call, and its {@link CallSpan}, which its interceptors look
   * for and which puts cipherd's attributes on the span as the stream ends, before the module ends
   * the span.
   */
  private static final class TracedCall extends ServerStreamTracers {
    private final CallSpan call = new CallSpan();

    TracedCall(ServerStreamTracer[] tracers, boolean messageEvents) {
      super(tracers, messageEvents);
    }

    @Override
    public Context filterContext(Context context) {
      return call.in(super.filterContext(context));
    }

    @Override
    public void streamClosed(Status status) {
      call.ended();
      super.streamClosed(status);
    }
  }

  /** One of the module's interceptors, for traced calls only. */
  private static final class OnlyTraced implements ServerInterceptor {
    private final ServerInterceptor module;

    OnlyTraced(ServerInterceptor module) {
      this.module = module;
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
      return CallSpan.current() == null
          ? next.startCall(call, headers)
          : module.interceptCall(call, headers, next);
    }
  }
}
