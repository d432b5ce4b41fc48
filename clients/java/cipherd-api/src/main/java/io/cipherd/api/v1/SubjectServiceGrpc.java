package io.cipherd.api.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
 * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
 * undecryptable at once, on every replica within the subject cache's lifetime, and in every
 * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
 * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
 * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
 * exists.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class SubjectServiceGrpc {

  private SubjectServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "cipherd.v1.SubjectService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EraseSubjectRequest,
      io.cipherd.api.v1.EraseSubjectResponse> getEraseSubjectMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EraseSubject",
      requestType = io.cipherd.api.v1.EraseSubjectRequest.class,
      responseType = io.cipherd.api.v1.EraseSubjectResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EraseSubjectRequest,
      io.cipherd.api.v1.EraseSubjectResponse> getEraseSubjectMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EraseSubjectRequest, io.cipherd.api.v1.EraseSubjectResponse> getEraseSubjectMethod;
    if ((getEraseSubjectMethod = SubjectServiceGrpc.getEraseSubjectMethod) == null) {
      synchronized (SubjectServiceGrpc.class) {
        if ((getEraseSubjectMethod = SubjectServiceGrpc.getEraseSubjectMethod) == null) {
          SubjectServiceGrpc.getEraseSubjectMethod = getEraseSubjectMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EraseSubjectRequest, io.cipherd.api.v1.EraseSubjectResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EraseSubject"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EraseSubjectRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EraseSubjectResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SubjectServiceMethodDescriptorSupplier("EraseSubject"))
              .build();
        }
      }
    }
    return getEraseSubjectMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EraseSubjectsRequest,
      io.cipherd.api.v1.EraseSubjectsResponse> getEraseSubjectsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EraseSubjects",
      requestType = io.cipherd.api.v1.EraseSubjectsRequest.class,
      responseType = io.cipherd.api.v1.EraseSubjectsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EraseSubjectsRequest,
      io.cipherd.api.v1.EraseSubjectsResponse> getEraseSubjectsMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EraseSubjectsRequest, io.cipherd.api.v1.EraseSubjectsResponse> getEraseSubjectsMethod;
    if ((getEraseSubjectsMethod = SubjectServiceGrpc.getEraseSubjectsMethod) == null) {
      synchronized (SubjectServiceGrpc.class) {
        if ((getEraseSubjectsMethod = SubjectServiceGrpc.getEraseSubjectsMethod) == null) {
          SubjectServiceGrpc.getEraseSubjectsMethod = getEraseSubjectsMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EraseSubjectsRequest, io.cipherd.api.v1.EraseSubjectsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EraseSubjects"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EraseSubjectsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EraseSubjectsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SubjectServiceMethodDescriptorSupplier("EraseSubjects"))
              .build();
        }
      }
    }
    return getEraseSubjectsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.GetSubjectRequest,
      io.cipherd.api.v1.GetSubjectResponse> getGetSubjectMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetSubject",
      requestType = io.cipherd.api.v1.GetSubjectRequest.class,
      responseType = io.cipherd.api.v1.GetSubjectResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.GetSubjectRequest,
      io.cipherd.api.v1.GetSubjectResponse> getGetSubjectMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.GetSubjectRequest, io.cipherd.api.v1.GetSubjectResponse> getGetSubjectMethod;
    if ((getGetSubjectMethod = SubjectServiceGrpc.getGetSubjectMethod) == null) {
      synchronized (SubjectServiceGrpc.class) {
        if ((getGetSubjectMethod = SubjectServiceGrpc.getGetSubjectMethod) == null) {
          SubjectServiceGrpc.getGetSubjectMethod = getGetSubjectMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.GetSubjectRequest, io.cipherd.api.v1.GetSubjectResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetSubject"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GetSubjectRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GetSubjectResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SubjectServiceMethodDescriptorSupplier("GetSubject"))
              .build();
        }
      }
    }
    return getGetSubjectMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static SubjectServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SubjectServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SubjectServiceStub>() {
        @java.lang.Override
        public SubjectServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SubjectServiceStub(channel, callOptions);
        }
      };
    return SubjectServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static SubjectServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SubjectServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SubjectServiceBlockingV2Stub>() {
        @java.lang.Override
        public SubjectServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SubjectServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return SubjectServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static SubjectServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SubjectServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SubjectServiceBlockingStub>() {
        @java.lang.Override
        public SubjectServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SubjectServiceBlockingStub(channel, callOptions);
        }
      };
    return SubjectServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static SubjectServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SubjectServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SubjectServiceFutureStub>() {
        @java.lang.Override
        public SubjectServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SubjectServiceFutureStub(channel, callOptions);
        }
      };
    return SubjectServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
   * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
   * undecryptable at once, on every replica within the subject cache's lifetime, and in every
   * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
   * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
   * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
   * exists.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * EraseSubject erases one subject under a key and returns a receipt.
     * </pre>
     */
    default void eraseSubject(io.cipherd.api.v1.EraseSubjectRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EraseSubjectResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEraseSubjectMethod(), responseObserver);
    }

    /**
     * <pre>
     * EraseSubjects erases many subjects under a key: one result per item, in request order.
     * </pre>
     */
    default void eraseSubjects(io.cipherd.api.v1.EraseSubjectsRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EraseSubjectsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEraseSubjectsMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetSubject tells whether a subject has a key under a key name, and whether it was erased.
     * </pre>
     */
    default void getSubject(io.cipherd.api.v1.GetSubjectRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetSubjectResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetSubjectMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service SubjectService.
   * <pre>
   * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
   * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
   * undecryptable at once, on every replica within the subject cache's lifetime, and in every
   * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
   * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
   * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
   * exists.
   * </pre>
   */
  public static abstract class SubjectServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return SubjectServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service SubjectService.
   * <pre>
   * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
   * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
   * undecryptable at once, on every replica within the subject cache's lifetime, and in every
   * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
   * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
   * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
   * exists.
   * </pre>
   */
  public static final class SubjectServiceStub
      extends io.grpc.stub.AbstractAsyncStub<SubjectServiceStub> {
    private SubjectServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SubjectServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SubjectServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * EraseSubject erases one subject under a key and returns a receipt.
     * </pre>
     */
    public void eraseSubject(io.cipherd.api.v1.EraseSubjectRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EraseSubjectResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEraseSubjectMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * EraseSubjects erases many subjects under a key: one result per item, in request order.
     * </pre>
     */
    public void eraseSubjects(io.cipherd.api.v1.EraseSubjectsRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EraseSubjectsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEraseSubjectsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetSubject tells whether a subject has a key under a key name, and whether it was erased.
     * </pre>
     */
    public void getSubject(io.cipherd.api.v1.GetSubjectRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetSubjectResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetSubjectMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service SubjectService.
   * <pre>
   * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
   * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
   * undecryptable at once, on every replica within the subject cache's lifetime, and in every
   * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
   * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
   * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
   * exists.
   * </pre>
   */
  public static final class SubjectServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<SubjectServiceBlockingV2Stub> {
    private SubjectServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SubjectServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SubjectServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * EraseSubject erases one subject under a key and returns a receipt.
     * </pre>
     */
    public io.cipherd.api.v1.EraseSubjectResponse eraseSubject(io.cipherd.api.v1.EraseSubjectRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEraseSubjectMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EraseSubjects erases many subjects under a key: one result per item, in request order.
     * </pre>
     */
    public io.cipherd.api.v1.EraseSubjectsResponse eraseSubjects(io.cipherd.api.v1.EraseSubjectsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEraseSubjectsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSubject tells whether a subject has a key under a key name, and whether it was erased.
     * </pre>
     */
    public io.cipherd.api.v1.GetSubjectResponse getSubject(io.cipherd.api.v1.GetSubjectRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetSubjectMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service SubjectService.
   * <pre>
   * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
   * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
   * undecryptable at once, on every replica within the subject cache's lifetime, and in every
   * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
   * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
   * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
   * exists.
   * </pre>
   */
  public static final class SubjectServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<SubjectServiceBlockingStub> {
    private SubjectServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SubjectServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SubjectServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * EraseSubject erases one subject under a key and returns a receipt.
     * </pre>
     */
    public io.cipherd.api.v1.EraseSubjectResponse eraseSubject(io.cipherd.api.v1.EraseSubjectRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEraseSubjectMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EraseSubjects erases many subjects under a key: one result per item, in request order.
     * </pre>
     */
    public io.cipherd.api.v1.EraseSubjectsResponse eraseSubjects(io.cipherd.api.v1.EraseSubjectsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEraseSubjectsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSubject tells whether a subject has a key under a key name, and whether it was erased.
     * </pre>
     */
    public io.cipherd.api.v1.GetSubjectResponse getSubject(io.cipherd.api.v1.GetSubjectRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetSubjectMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service SubjectService.
   * <pre>
   * SubjectService erases data subjects: every ciphertext sealed for a subject under a key (the
   * subject field of Encrypt, EncryptBatch, EncryptStream and GenerateDataKey) becomes
   * undecryptable at once, on every replica within the subject cache's lifetime, and in every
   * restored backup once the key versions that wrapped the subject's key are destroyed. Everyone
   * else's data is untouched. Every call needs the `erase` operation on the key, which `admin`
   * does not imply; a caller without it gets the same PERMISSION_DENIED whether or not the subject
   * exists.
   * </pre>
   */
  public static final class SubjectServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<SubjectServiceFutureStub> {
    private SubjectServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SubjectServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SubjectServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * EraseSubject erases one subject under a key and returns a receipt.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EraseSubjectResponse> eraseSubject(
        io.cipherd.api.v1.EraseSubjectRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEraseSubjectMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * EraseSubjects erases many subjects under a key: one result per item, in request order.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EraseSubjectsResponse> eraseSubjects(
        io.cipherd.api.v1.EraseSubjectsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEraseSubjectsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetSubject tells whether a subject has a key under a key name, and whether it was erased.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.GetSubjectResponse> getSubject(
        io.cipherd.api.v1.GetSubjectRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetSubjectMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_ERASE_SUBJECT = 0;
  private static final int METHODID_ERASE_SUBJECTS = 1;
  private static final int METHODID_GET_SUBJECT = 2;

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
        case METHODID_ERASE_SUBJECT:
          serviceImpl.eraseSubject((io.cipherd.api.v1.EraseSubjectRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EraseSubjectResponse>) responseObserver);
          break;
        case METHODID_ERASE_SUBJECTS:
          serviceImpl.eraseSubjects((io.cipherd.api.v1.EraseSubjectsRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EraseSubjectsResponse>) responseObserver);
          break;
        case METHODID_GET_SUBJECT:
          serviceImpl.getSubject((io.cipherd.api.v1.GetSubjectRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetSubjectResponse>) responseObserver);
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
          getEraseSubjectMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EraseSubjectRequest,
              io.cipherd.api.v1.EraseSubjectResponse>(
                service, METHODID_ERASE_SUBJECT)))
        .addMethod(
          getEraseSubjectsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EraseSubjectsRequest,
              io.cipherd.api.v1.EraseSubjectsResponse>(
                service, METHODID_ERASE_SUBJECTS)))
        .addMethod(
          getGetSubjectMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.GetSubjectRequest,
              io.cipherd.api.v1.GetSubjectResponse>(
                service, METHODID_GET_SUBJECT)))
        .build();
  }

  private static abstract class SubjectServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    SubjectServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return io.cipherd.api.v1.SubjectServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("SubjectService");
    }
  }

  private static final class SubjectServiceFileDescriptorSupplier
      extends SubjectServiceBaseDescriptorSupplier {
    SubjectServiceFileDescriptorSupplier() {}
  }

  private static final class SubjectServiceMethodDescriptorSupplier
      extends SubjectServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    SubjectServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (SubjectServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new SubjectServiceFileDescriptorSupplier())
              .addMethod(getEraseSubjectMethod())
              .addMethod(getEraseSubjectsMethod())
              .addMethod(getGetSubjectMethod())
              .build();
        }
      }
    }
    return result;
  }
}
