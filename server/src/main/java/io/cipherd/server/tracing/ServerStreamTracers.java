package io.cipherd.server.tracing;

import io.grpc.Context;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.List;

/** Several stream tracers of one call as one: each event goes to each, in order. */
class ServerStreamTracers extends ServerStreamTracer {
  private final List<ServerStreamTracer> tracers;

  ServerStreamTracers(List<ServerStreamTracer> tracers) {
    this.tracers = List.copyOf(tracers);
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
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundMessage(seqNo);
    }
  }

  @Override
  public void inboundMessage(int seqNo) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundMessage(seqNo);
    }
  }

  @Override
  public void outboundMessageSent(int seqNo, long optionalWireSize, long optionalUncompressedSize) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundMessageSent(seqNo, optionalWireSize, optionalUncompressedSize);
    }
  }

  @Override
  public void inboundMessageRead(int seqNo, long optionalWireSize, long optionalUncompressedSize) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundMessageRead(seqNo, optionalWireSize, optionalUncompressedSize);
    }
  }

  @Override
  public void outboundWireSize(long bytes) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundWireSize(bytes);
    }
  }

  @Override
  public void outboundUncompressedSize(long bytes) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.outboundUncompressedSize(bytes);
    }
  }

  @Override
  public void inboundWireSize(long bytes) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundWireSize(bytes);
    }
  }

  @Override
  public void inboundUncompressedSize(long bytes) {
    for (ServerStreamTracer tracer : tracers) {
      tracer.inboundUncompressedSize(bytes);
    }
  }
}
