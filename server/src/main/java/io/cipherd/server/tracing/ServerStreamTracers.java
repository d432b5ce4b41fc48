package io.cipherd.server.tracing;

import io.grpc.Context;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;

/**
 * Several stream tracers of one call as one: each event goes to each, in order. Without {@code
 * messageEvents} the per-message events (a message sent or read, and its sizes) go to none: for
 * grpc-java's OpenTelemetry module they only add span events, which an SDK keeping none would build
 * and drop.
 */
class ServerStreamTracers extends ServerStreamTracer {
  private final ServerStreamTracer[] tracers;
  private final boolean messageEvents;

  /** {@code tracers}, which this owns from now on. */
  ServerStreamTracers(ServerStreamTracer[] tracers, boolean messageEvents) {
    this.tracers = tracers;
    this.messageEvents = messageEvents;
  }

  @Override
  public Context filterContext(Context context) {
    Context filtered = context;
    for (ServerStreamTracer tracer : tracers) {
      filtered = tracer.filterContext(filtered);
    }
    return filtered;
  }

  @Override
  public void serverCallStarted(ServerCallInfo<?, ?> callInfo) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.serverCallStarted(callInfo);
    }
  }

  @Override
  public void streamClosed(Status status) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.streamClosed(status);
    }
  }

  @Override
  public void outboundMessage(int seqNo) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundMessage(seqNo);
    }
  }

  @Override
  public void inboundMessage(int seqNo) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundMessage(seqNo);
    }
  }

  @Override
  public void outboundMessageSent(int seqNo, long optionalWireSize, long optionalUncompressedSize) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundMessageSent(seqNo, optionalWireSize, optionalUncompressedSize);
    }
  }

  @Override
  public void inboundMessageRead(int seqNo, long optionalWireSize, long optionalUncompressedSize) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundMessageRead(seqNo, optionalWireSize, optionalUncompressedSize);
    }
  }

  @Override
  public void outboundWireSize(long bytes) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundWireSize(bytes);
    }
  }

  @Override
  public void outboundUncompressedSize(long bytes) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundUncompressedSize(bytes);
    }
  }

  @Override
  public void inboundWireSize(long bytes) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundWireSize(bytes);
    }
  }

  @Override
  public void inboundUncompressedSize(long bytes) {
    if (!messageEvents) {
      return;
    }
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundUncompressedSize(bytes);
    }
  }
}
