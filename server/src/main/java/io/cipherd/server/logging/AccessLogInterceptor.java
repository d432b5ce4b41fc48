package io.cipherd.server.logging;

import io.cipherd.server.api.CallerIdentity;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Gives every call a request id (in the MDC while the call's code runs) and writes one line to the
 * {@code cipherd.access} logger when it ends: method, key name, caller, status and duration. It is
 * the outermost interceptor, so calls that inner interceptors reject are logged too. The line never
 * holds request bodies: the key name is taken from {@code key_name} or a ciphertext's header only.
 */
public final class AccessLogInterceptor implements ServerInterceptor {
  /** The access log's logger name, so operators can route it to its own appender. */
  public static final String LOGGER = "cipherd.access";
  private static final Logger access = LoggerFactory.getLogger(LOGGER);

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    AccessRecord record = new AccessRecord(call, RequestIds.of(headers), System.nanoTime());
    ServerCall<Q, A> logged = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        // Logged first, so the line exists by the time the caller sees the answer.
        record.finish(status);
        super.close(status, trailers);
      }
    };
    ServerCall.Listener<Q> listener = record.inMdc(() -> next.startCall(logged, headers));
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        record.sawRequest(message);
        record.inMdc(() -> {
          super.onMessage(message);
          return null;
        });
      }

      @Override
      public void onHalfClose() {
        record.inMdc(() -> {
          super.onHalfClose();
          return null;
        });
      }

      @Override
      public void onCancel() {
        record.inMdc(() -> {
          super.onCancel();
          return null;
        });
        // The service may never close a cancelled call; it still gets its line.
        record.finish(Status.CANCELLED);
      }

      @Override
      public void onComplete() {
        record.inMdc(() -> {
          super.onComplete();
          return null;
        });
      }

      @Override
      public void onReady() {
        record.inMdc(() -> {
          super.onReady();
          return null;
        });
      }
    };
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
    private final long startNanos;
    /** The identity an outer interceptor set, in case the call ends where its context is not attached. */
    private final String identityAtStart = CallerIdentity.KEY.get();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile String keyName = RequestKeyName.NONE;
    private volatile boolean sawRequest;

    AccessRecord(ServerCall<?, ?> call, String requestId, long startNanos) {
      this.call = call;
      this.requestId = requestId;
      this.startNanos = startNanos;
    }

    void sawRequest(Object message) {
      if (!sawRequest) {
        sawRequest = true;
        keyName = RequestKeyName.of(message);
      }
    }

    <T> T inMdc(java.util.function.Supplier<T> work) {
      String outer = MDC.get(RequestIds.MDC_KEY);
      MDC.put(RequestIds.MDC_KEY, requestId);
      try {
        return work.get();
      } finally {
        if (outer == null) {
          MDC.remove(RequestIds.MDC_KEY);
        } else {
          MDC.put(RequestIds.MDC_KEY, outer);
        }
      }
    }

    void finish(Status status) {
      if (!finished.compareAndSet(false, true) || !access.isInfoEnabled()) {
        return;
      }
      String identity = CallerIdentity.KEY.get();
      String caller = identity != null ? identity
          : identityAtStart != null ? identityAtStart
          : CallerIdentity.peer(call);
      String duration = millis(System.nanoTime() - startNanos);
      inMdc(() -> {
        access.atInfo()
            .addKeyValue("method", call.getMethodDescriptor().getFullMethodName())
            .addKeyValue("key", keyName)
            .addKeyValue("caller", caller)
            .addKeyValue("status", status.getCode().name())
            .addKeyValue("duration_ms", duration)
            .log("method={} key={} caller={} status={} duration_ms={}",
                call.getMethodDescriptor().getFullMethodName(), keyName, caller, status.getCode(), duration);
        return null;
      });
    }
  }
}
