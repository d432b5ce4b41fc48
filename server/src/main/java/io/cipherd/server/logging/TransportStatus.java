package io.cipherd.server.logging;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;

/**
 * The status the transport closed a call's stream with, for calls the service never answered: a
 * request over the message size limit (RESOURCE_EXHAUSTED), one that could not be decompressed, a
 * deadline that passed, or a client that cancelled. The service sees each of these only as a
 * cancellation; the access log reads the status the client saw from here.
 */
final class TransportStatus extends ServerStreamTracer {
  private static final Context.Key<TransportStatus> KEY = Context.key("cipherd-transport-status");

  /** Makes one per call ({@link AccessLogInterceptor#TRANSPORT_STATUS}). */
  static final ServerStreamTracer.Factory FACTORY =
      new ServerStreamTracer.Factory() {
        @Override
        public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
          return new TransportStatus();
        }
      };

  private volatile Status closed;

  private TransportStatus() {}

  /** The current call's, or null when the server was built without {@link #FACTORY}. */
  static TransportStatus current() {
    return KEY.get();
  }

  @Override
  public Context filterContext(Context context) {
    return context.withValue(KEY, this);
  }

  @Override
  public void streamClosed(Status status) {
    closed = status;
  }

  /**
   * The status the stream closed with, if it closed without the service's answer: then set before
   * the service hears of the cancellation; else null.
   */
  Status closedWith() {
    Status status = closed;
    return status == null || status.isOk() ? null : status;
  }
}
