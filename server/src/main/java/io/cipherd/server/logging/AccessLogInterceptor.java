package io.cipherd.server.logging;

import io.cipherd.server.security.CallerIdentity;
import io.grpc.Context;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Gives every call a request id of its own (in the MDC while the call's code runs) and writes one
 * line to the {@code cipherd.access} logger when it ends: method, key name, caller, status and
 * duration, and the trace id of the call's server span when tracing is on and the call is sampled
 * (the id the audit record and the tracing backend show). It is the outermost interceptor, so calls
 * that inner interceptors reject are logged too, and with {@link #TRANSPORT_STATUS} on the server,
 * calls the transport ended (a deadline that passed) with the status their client saw. Calls their
 * peer ended before any answer (reset or dropped by the client, a request the transport refused for
 * its bytes) get no line each: they are counted in {@link PeerErrors}, which writes one summary
 * line a minute, so a client resetting thousands of streams a second (HTTP/2 rapid reset) cannot
 * flood the log. The line never holds request bodies: the key name is taken from {@code key_name}
 * or a ciphertext's header only.
 *
 * <p>Being the first to see each request message, it reads it once into a {@link CallRequest}, kept
 * in the call's gRPC Context for the interceptors and the service inside it.
 */
public final class AccessLogInterceptor implements ServerInterceptor {
  /** The access log's logger name, so operators can route it to its own appender. */
  public static final String LOGGER = "cipherd.access";

  /**
   * Add to the server with the interceptor: the access line of a call the transport ended then has
   * the status its client saw ({@link TransportStatus}).
   */
  public static final ServerStreamTracer.Factory TRANSPORT_STATUS = TransportStatus.FACTORY;

  private static final Logger access = LoggerFactory.getLogger(LOGGER);

  private final Function<Object, ? extends CallRequest> requests;

  /** Reads each request message with {@code requests}, once per message. */
  public AccessLogInterceptor(Function<Object, ? extends CallRequest> requests) {
    this.requests = requests;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    // Off (e.g. at WARN), the record only keeps the request id: no key name, clock or identity.
    AccessRecord record =
        new AccessRecord(
            call, RequestIds.next(), RequestIds.ofClientForLog(headers), access.isInfoEnabled());
    TransportStatus transport = TransportStatus.current();
    ServerCall<Q, A> logged =
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void sendHeaders(Metadata headers) {
            record.answered = true;
            super.sendHeaders(headers);
          }

          @Override
          public void close(Status status, Metadata trailers) {
            // Logged first, so the line exists by the time the caller sees the answer.
            record.answered = true;
            record.finish(status);
            super.close(status, trailers);
          }
        };
    CallRequest.Received received = new CallRequest.Received();
    boolean streaming = !call.getMethodDescriptor().getType().clientSendsOneMessage();
    Context context = Context.current().withValue(CallRequest.Received.KEY, received);
    String outer = record.enterMdc();
    Context previous = context.attach();
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(logged, headers);
    } finally {
      context.detach(previous);
      record.exitMdc(outer);
    }
    // Each callback puts the request id in the MDC inline: a lambda per callback would allocate.
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        CallRequest request = requests.apply(message);
        received.last = request;
        record.sawRequest(request);
        String outer = record.enterMdc();
        Context previous = context.attach();
        try {
          super.onMessage(message);
        } finally {
          context.detach(previous);
          record.exitMdc(outer);
          if (streaming) {
            // A stream's item was served (or handed on) in that callback: its bytes are not kept.
            received.last = null;
          }
        }
      }

      @Override
      public void onHalfClose() {
        String outer = record.enterMdc();
        Context previous = context.attach();
        try {
          super.onHalfClose();
        } finally {
          context.detach(previous);
          record.exitMdc(outer);
          // A unary call's work started in that callback, with the request it holds.
          received.last = null;
        }
      }

      @Override
      public void onCancel() {
        String outer = record.enterMdc();
        Context previous = context.attach();
        try {
          super.onCancel();
        } finally {
          context.detach(previous);
          record.exitMdc(outer);
        }
        // The service may never close a cancelled call; it still gets its line, with the status
        // the client saw: the transport's (DEADLINE_EXCEEDED), CANCELLED when the client went away
        // after the answer had started.
        Status closed = transport == null ? null : transport.closedWith();
        Status status = closed == null ? Status.CANCELLED : closed;
        if (!record.answered && peerEnded(status.getCode())) {
          // Before any answer: a reset (or a request the transport refused, which
          // TransportErrorLines counts) is counted, not a line each, so rapid resets cannot flood
          // the log.
          if (status.getCode() == Status.Code.CANCELLED) {
            PeerErrors.GLOBAL.count(PeerErrors.Kind.RESET_BEFORE_ANSWER);
          }
          record.skip();
          return;
        }
        record.finish(status);
      }

      @Override
      public void onComplete() {
        String outer = record.enterMdc();
        Context previous = context.attach();
        try {
          super.onComplete();
        } finally {
          context.detach(previous);
          record.exitMdc(outer);
        }
      }

      @Override
      public void onReady() {
        String outer = record.enterMdc();
        Context previous = context.attach();
        try {
          super.onReady();
        } finally {
          context.detach(previous);
          record.exitMdc(outer);
        }
      }
    };
  }

  /**
   * Whether a call the service never answered ended because of its peer: reset or dropped by the
   * client (CANCELLED), or refused by the transport for its bytes (a message over the size limit,
   * RESOURCE_EXHAUSTED; truncated or not decompressible, INTERNAL). DEADLINE_EXCEEDED is the server
   * being slow, and keeps its line.
   */
  private static boolean peerEnded(Status.Code code) {
    return code == Status.Code.CANCELLED
        || code == Status.Code.RESOURCE_EXHAUSTED
        || code == Status.Code.INTERNAL;
  }

  /** Milliseconds with three decimals, without String.format's cost on every call. */
  static String millis(long nanos) {
    long micros = Math.max(0, nanos) / 1000;
    long fraction = micros % 1000;
    return (micros / 1000) + (fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".") + fraction;
  }

  /** What the access line of one call says, filled in as the call goes. */
  private static final class AccessRecord {
    private final ServerCall<?, ?> call;
    private final String requestId;

    /** The caller's own {@code x-request-id} when it is a short token, else null. */
    private final String clientRequestId;

    /** Whether the access logger was on when the call started; if not, the call writes no line. */
    private final boolean logged;

    private final long startNanos;

    /**
     * The identity an outer interceptor set, in case the call ends where its context is not
     * attached.
     */
    private final String identityAtStart;

    private final AtomicBoolean finished;

    /** The sampled server span's trace id, null when the call is not traced. */
    private final String traceId;

    private volatile String keyName = CallRequest.NONE;

    /** Whether the service started its answer: sent response headers, or closed the call. */
    private volatile boolean answered;

    private volatile boolean sawRequest;

    AccessRecord(ServerCall<?, ?> call, String requestId, String clientRequestId, boolean logged) {
      this.call = call;
      this.requestId = requestId;
      this.clientRequestId = clientRequestId;
      this.logged = logged;
      this.startNanos = logged ? System.nanoTime() : 0;
      this.identityAtStart = logged ? CallerIdentity.KEY.get() : null;
      this.finished = logged ? new AtomicBoolean() : null;
      this.traceId = logged ? SampledTraceId.current() : null;
    }

    void sawRequest(CallRequest request) {
      if (logged && !sawRequest) {
        sawRequest = true;
        keyName = request.keyName();
      }
    }

    /** Puts the request id in the MDC; returns the value it replaced, for {@link #exitMdc}. */
    String enterMdc() {
      String outer = MDC.get(RequestIds.MDC_KEY);
      MDC.put(RequestIds.MDC_KEY, requestId);
      return outer;
    }

    void exitMdc(String outer) {
      if (outer == null) {
        MDC.remove(RequestIds.MDC_KEY);
      } else {
        MDC.put(RequestIds.MDC_KEY, outer);
      }
    }

    /** Ends the record without a line: the call is counted elsewhere. */
    void skip() {
      if (logged) {
        finished.set(true);
      }
    }

    void finish(Status status) {
      if (!logged || !finished.compareAndSet(false, true)) {
        return;
      }
      String identity = CallerIdentity.KEY.get();
      String caller =
          identity != null
              ? identity
              : identityAtStart != null ? identityAtStart : CallerIdentity.peer(call);
      String duration = millis(System.nanoTime() - startNanos);
      String outer = enterMdc();
      try {
        var line =
            access
                .atInfo()
                .addKeyValue("method", call.getMethodDescriptor().getFullMethodName())
                .addKeyValue("key", keyName)
                .addKeyValue("caller", caller)
                .addKeyValue("status", status.getCode().name())
                .addKeyValue("duration_ms", duration);
        StringBuilder format =
            new StringBuilder("method={} key={} caller={} status={} duration_ms={}");
        List<Object> values = new ArrayList<>(7);
        Collections.addAll(
            values,
            call.getMethodDescriptor().getFullMethodName(),
            keyName,
            caller,
            status.getCode(),
            duration);
        if (clientRequestId != null) {
          line.addKeyValue("client_request_id", clientRequestId);
          format.append(" client_request_id={}");
          values.add(clientRequestId);
        }
        if (traceId != null) {
          line.addKeyValue("trace_id", traceId);
          format.append(" trace_id={}");
          values.add(traceId);
        }
        line.log(format.toString(), values.toArray());
      } finally {
        exitMdc(outer);
      }
    }
  }
}
