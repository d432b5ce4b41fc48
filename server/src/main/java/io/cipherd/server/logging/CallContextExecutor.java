package io.cipherd.server.logging;

import io.grpc.Context;
import java.util.concurrent.Executor;
import org.slf4j.MDC;

/**
 * Runs work handed from a call's thread to another pool with the call's gRPC {@link Context} (which
 * carries the caller identity) and its request id in the MDC, so its log lines still name the call.
 */
public final class CallContextExecutor {
  private CallContextExecutor() {}

  public static Executor propagating(Executor delegate) {
    return command -> {
      Runnable inContext = Context.current().wrap(command);
      String requestId = MDC.get(RequestIds.MDC_KEY);
      if (requestId == null) {
        delegate.execute(inContext);
        return;
      }
      delegate.execute(
          () -> {
            MDC.put(RequestIds.MDC_KEY, requestId);
            try {
              inContext.run();
            } finally {
              MDC.remove(RequestIds.MDC_KEY);
            }
          });
    };
  }
}
