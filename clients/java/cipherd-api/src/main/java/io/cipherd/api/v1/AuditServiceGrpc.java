package io.cipherd.api.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * AuditService answers what an investigator needs from the audit key without ever handing it out:
 * the keyed hash of a known value, to find the records of calls that carried it, and whether the
 * checkpoints of an audit file were made by this server's audit key. With an access policy both
 * need the audit operation. The audit file's format and the verification rules are in
 * docs/audit.md.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class AuditServiceGrpc {

  private AuditServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "cipherd.v1.AuditService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.HashAuditValueRequest,
      io.cipherd.api.v1.HashAuditValueResponse> getHashAuditValueMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "HashAuditValue",
      requestType = io.cipherd.api.v1.HashAuditValueRequest.class,
      responseType = io.cipherd.api.v1.HashAuditValueResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.HashAuditValueRequest,
      io.cipherd.api.v1.HashAuditValueResponse> getHashAuditValueMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.HashAuditValueRequest, io.cipherd.api.v1.HashAuditValueResponse> getHashAuditValueMethod;
    if ((getHashAuditValueMethod = AuditServiceGrpc.getHashAuditValueMethod) == null) {
      synchronized (AuditServiceGrpc.class) {
        if ((getHashAuditValueMethod = AuditServiceGrpc.getHashAuditValueMethod) == null) {
          AuditServiceGrpc.getHashAuditValueMethod = getHashAuditValueMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.HashAuditValueRequest, io.cipherd.api.v1.HashAuditValueResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "HashAuditValue"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.HashAuditValueRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.HashAuditValueResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuditServiceMethodDescriptorSupplier("HashAuditValue"))
              .build();
        }
      }
    }
    return getHashAuditValueMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.VerifyAuditCheckpointsRequest,
      io.cipherd.api.v1.VerifyAuditCheckpointsResponse> getVerifyAuditCheckpointsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "VerifyAuditCheckpoints",
      requestType = io.cipherd.api.v1.VerifyAuditCheckpointsRequest.class,
      responseType = io.cipherd.api.v1.VerifyAuditCheckpointsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.VerifyAuditCheckpointsRequest,
      io.cipherd.api.v1.VerifyAuditCheckpointsResponse> getVerifyAuditCheckpointsMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.VerifyAuditCheckpointsRequest, io.cipherd.api.v1.VerifyAuditCheckpointsResponse> getVerifyAuditCheckpointsMethod;
    if ((getVerifyAuditCheckpointsMethod = AuditServiceGrpc.getVerifyAuditCheckpointsMethod) == null) {
      synchronized (AuditServiceGrpc.class) {
        if ((getVerifyAuditCheckpointsMethod = AuditServiceGrpc.getVerifyAuditCheckpointsMethod) == null) {
          AuditServiceGrpc.getVerifyAuditCheckpointsMethod = getVerifyAuditCheckpointsMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.VerifyAuditCheckpointsRequest, io.cipherd.api.v1.VerifyAuditCheckpointsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "VerifyAuditCheckpoints"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.VerifyAuditCheckpointsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.VerifyAuditCheckpointsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuditServiceMethodDescriptorSupplier("VerifyAuditCheckpoints"))
              .build();
        }
      }
    }
    return getVerifyAuditCheckpointsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static AuditServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuditServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuditServiceStub>() {
        @java.lang.Override
        public AuditServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuditServiceStub(channel, callOptions);
        }
      };
    return AuditServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static AuditServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuditServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuditServiceBlockingV2Stub>() {
        @java.lang.Override
        public AuditServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuditServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return AuditServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static AuditServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuditServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuditServiceBlockingStub>() {
        @java.lang.Override
        public AuditServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuditServiceBlockingStub(channel, callOptions);
        }
      };
    return AuditServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static AuditServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuditServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuditServiceFutureStub>() {
        @java.lang.Override
        public AuditServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuditServiceFutureStub(channel, callOptions);
        }
      };
    return AuditServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * AuditService answers what an investigator needs from the audit key without ever handing it out:
   * the keyed hash of a known value, to find the records of calls that carried it, and whether the
   * checkpoints of an audit file were made by this server's audit key. With an access policy both
   * need the audit operation. The audit file's format and the verification rules are in
   * docs/audit.md.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * HashAuditValue returns the keyed hash that audit records carry for a caller's context equal to
     * value ("hmac-sha256:&lt;hex&gt;").
     * </pre>
     */
    default void hashAuditValue(io.cipherd.api.v1.HashAuditValueRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.HashAuditValueResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getHashAuditValueMethod(), responseObserver);
    }

    /**
     * <pre>
     * VerifyAuditCheckpoints says, for each checkpoint, whether its MAC is the audit key's MAC of its
     * sequence number, time and previous line's hash. A chain whose hashes link up but whose
     * checkpoints fail here was rewritten by someone without the audit key. It also returns the
     * trail's head as anchored in the key store, outside the audit file: a trail that does not start
     * at its genesis or at the anchored first line, or does not reach the anchored head, was cut.
     * </pre>
     */
    default void verifyAuditCheckpoints(io.cipherd.api.v1.VerifyAuditCheckpointsRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.VerifyAuditCheckpointsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getVerifyAuditCheckpointsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service AuditService.
   * <pre>
   * AuditService answers what an investigator needs from the audit key without ever handing it out:
   * the keyed hash of a known value, to find the records of calls that carried it, and whether the
   * checkpoints of an audit file were made by this server's audit key. With an access policy both
   * need the audit operation. The audit file's format and the verification rules are in
   * docs/audit.md.
   * </pre>
   */
  public static abstract class AuditServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return AuditServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service AuditService.
   * <pre>
   * AuditService answers what an investigator needs from the audit key without ever handing it out:
   * the keyed hash of a known value, to find the records of calls that carried it, and whether the
   * checkpoints of an audit file were made by this server's audit key. With an access policy both
   * need the audit operation. The audit file's format and the verification rules are in
   * docs/audit.md.
   * </pre>
   */
  public static final class AuditServiceStub
      extends io.grpc.stub.AbstractAsyncStub<AuditServiceStub> {
    private AuditServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuditServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuditServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * HashAuditValue returns the keyed hash that audit records carry for a caller's context equal to
     * value ("hmac-sha256:&lt;hex&gt;").
     * </pre>
     */
    public void hashAuditValue(io.cipherd.api.v1.HashAuditValueRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.HashAuditValueResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getHashAuditValueMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * VerifyAuditCheckpoints says, for each checkpoint, whether its MAC is the audit key's MAC of its
     * sequence number, time and previous line's hash. A chain whose hashes link up but whose
     * checkpoints fail here was rewritten by someone without the audit key. It also returns the
     * trail's head as anchored in the key store, outside the audit file: a trail that does not start
     * at its genesis or at the anchored first line, or does not reach the anchored head, was cut.
     * </pre>
     */
    public void verifyAuditCheckpoints(io.cipherd.api.v1.VerifyAuditCheckpointsRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.VerifyAuditCheckpointsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getVerifyAuditCheckpointsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service AuditService.
   * <pre>
   * AuditService answers what an investigator needs from the audit key without ever handing it out:
   * the keyed hash of a known value, to find the records of calls that carried it, and whether the
   * checkpoints of an audit file were made by this server's audit key. With an access policy both
   * need the audit operation. The audit file's format and the verification rules are in
   * docs/audit.md.
   * </pre>
   */
  public static final class AuditServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<AuditServiceBlockingV2Stub> {
    private AuditServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuditServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuditServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * HashAuditValue returns the keyed hash that audit records carry for a caller's context equal to
     * value ("hmac-sha256:&lt;hex&gt;").
     * </pre>
     */
    public io.cipherd.api.v1.HashAuditValueResponse hashAuditValue(io.cipherd.api.v1.HashAuditValueRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getHashAuditValueMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * VerifyAuditCheckpoints says, for each checkpoint, whether its MAC is the audit key's MAC of its
     * sequence number, time and previous line's hash. A chain whose hashes link up but whose
     * checkpoints fail here was rewritten by someone without the audit key. It also returns the
     * trail's head as anchored in the key store, outside the audit file: a trail that does not start
     * at its genesis or at the anchored first line, or does not reach the anchored head, was cut.
     * </pre>
     */
    public io.cipherd.api.v1.VerifyAuditCheckpointsResponse verifyAuditCheckpoints(io.cipherd.api.v1.VerifyAuditCheckpointsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getVerifyAuditCheckpointsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service AuditService.
   * <pre>
   * AuditService answers what an investigator needs from the audit key without ever handing it out:
   * the keyed hash of a known value, to find the records of calls that carried it, and whether the
   * checkpoints of an audit file were made by this server's audit key. With an access policy both
   * need the audit operation. The audit file's format and the verification rules are in
   * docs/audit.md.
   * </pre>
   */
  public static final class AuditServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<AuditServiceBlockingStub> {
    private AuditServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuditServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuditServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * HashAuditValue returns the keyed hash that audit records carry for a caller's context equal to
     * value ("hmac-sha256:&lt;hex&gt;").
     * </pre>
     */
    public io.cipherd.api.v1.HashAuditValueResponse hashAuditValue(io.cipherd.api.v1.HashAuditValueRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getHashAuditValueMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * VerifyAuditCheckpoints says, for each checkpoint, whether its MAC is the audit key's MAC of its
     * sequence number, time and previous line's hash. A chain whose hashes link up but whose
     * checkpoints fail here was rewritten by someone without the audit key. It also returns the
     * trail's head as anchored in the key store, outside the audit file: a trail that does not start
     * at its genesis or at the anchored first line, or does not reach the anchored head, was cut.
     * </pre>
     */
    public io.cipherd.api.v1.VerifyAuditCheckpointsResponse verifyAuditCheckpoints(io.cipherd.api.v1.VerifyAuditCheckpointsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getVerifyAuditCheckpointsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service AuditService.
   * <pre>
   * AuditService answers what an investigator needs from the audit key without ever handing it out:
   * the keyed hash of a known value, to find the records of calls that carried it, and whether the
   * checkpoints of an audit file were made by this server's audit key. With an access policy both
   * need the audit operation. The audit file's format and the verification rules are in
   * docs/audit.md.
   * </pre>
   */
  public static final class AuditServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<AuditServiceFutureStub> {
    private AuditServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuditServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuditServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * HashAuditValue returns the keyed hash that audit records carry for a caller's context equal to
     * value ("hmac-sha256:&lt;hex&gt;").
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.HashAuditValueResponse> hashAuditValue(
        io.cipherd.api.v1.HashAuditValueRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getHashAuditValueMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * VerifyAuditCheckpoints says, for each checkpoint, whether its MAC is the audit key's MAC of its
     * sequence number, time and previous line's hash. A chain whose hashes link up but whose
     * checkpoints fail here was rewritten by someone without the audit key. It also returns the
     * trail's head as anchored in the key store, outside the audit file: a trail that does not start
     * at its genesis or at the anchored first line, or does not reach the anchored head, was cut.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.VerifyAuditCheckpointsResponse> verifyAuditCheckpoints(
        io.cipherd.api.v1.VerifyAuditCheckpointsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getVerifyAuditCheckpointsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_HASH_AUDIT_VALUE = 0;
  private static final int METHODID_VERIFY_AUDIT_CHECKPOINTS = 1;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_HASH_AUDIT_VALUE:
          serviceImpl.hashAuditValue((io.cipherd.api.v1.HashAuditValueRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.HashAuditValueResponse>) responseObserver);
          break;
        case METHODID_VERIFY_AUDIT_CHECKPOINTS:
          serviceImpl.verifyAuditCheckpoints((io.cipherd.api.v1.VerifyAuditCheckpointsRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.VerifyAuditCheckpointsResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getHashAuditValueMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.HashAuditValueRequest,
              io.cipherd.api.v1.HashAuditValueResponse>(
                service, METHODID_HASH_AUDIT_VALUE)))
        .addMethod(
          getVerifyAuditCheckpointsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.VerifyAuditCheckpointsRequest,
              io.cipherd.api.v1.VerifyAuditCheckpointsResponse>(
                service, METHODID_VERIFY_AUDIT_CHECKPOINTS)))
        .build();
  }

  private static abstract class AuditServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    AuditServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return io.cipherd.api.v1.AuditServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("AuditService");
    }
  }

  private static final class AuditServiceFileDescriptorSupplier
      extends AuditServiceBaseDescriptorSupplier {
    AuditServiceFileDescriptorSupplier() {}
  }

  private static final class AuditServiceMethodDescriptorSupplier
      extends AuditServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    AuditServiceMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (AuditServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new AuditServiceFileDescriptorSupplier())
              .addMethod(getHashAuditValueMethod())
              .addMethod(getVerifyAuditCheckpointsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
