package io.cipherd.api.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
 * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
 * NIST SP 800-38G, under a versioned key that never leaves the service.
 * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
 * which key version made it, or whether it was made by cipherd at all. Every answer therefore
 * returns the key version, which the caller stores beside the value; DecryptFormatted,
 * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
 * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
 * they give a wrong plaintext of the right shape, never an error.
 * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
 * unauthenticated (every value of the format decrypts to something). The tweak is
 * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
 * makes the same value encrypt differently in different columns, and must be given again to decrypt.
 * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
 * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
 * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class FormatPreservingServiceGrpc {

  private FormatPreservingServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "cipherd.v1.FormatPreservingService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedRequest,
      io.cipherd.api.v1.EncryptFormattedResponse> getEncryptFormattedMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EncryptFormatted",
      requestType = io.cipherd.api.v1.EncryptFormattedRequest.class,
      responseType = io.cipherd.api.v1.EncryptFormattedResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedRequest,
      io.cipherd.api.v1.EncryptFormattedResponse> getEncryptFormattedMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedRequest, io.cipherd.api.v1.EncryptFormattedResponse> getEncryptFormattedMethod;
    if ((getEncryptFormattedMethod = FormatPreservingServiceGrpc.getEncryptFormattedMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getEncryptFormattedMethod = FormatPreservingServiceGrpc.getEncryptFormattedMethod) == null) {
          FormatPreservingServiceGrpc.getEncryptFormattedMethod = getEncryptFormattedMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EncryptFormattedRequest, io.cipherd.api.v1.EncryptFormattedResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EncryptFormatted"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptFormattedRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptFormattedResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("EncryptFormatted"))
              .build();
        }
      }
    }
    return getEncryptFormattedMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedRequest,
      io.cipherd.api.v1.DecryptFormattedResponse> getDecryptFormattedMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DecryptFormatted",
      requestType = io.cipherd.api.v1.DecryptFormattedRequest.class,
      responseType = io.cipherd.api.v1.DecryptFormattedResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedRequest,
      io.cipherd.api.v1.DecryptFormattedResponse> getDecryptFormattedMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedRequest, io.cipherd.api.v1.DecryptFormattedResponse> getDecryptFormattedMethod;
    if ((getDecryptFormattedMethod = FormatPreservingServiceGrpc.getDecryptFormattedMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getDecryptFormattedMethod = FormatPreservingServiceGrpc.getDecryptFormattedMethod) == null) {
          FormatPreservingServiceGrpc.getDecryptFormattedMethod = getDecryptFormattedMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DecryptFormattedRequest, io.cipherd.api.v1.DecryptFormattedResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DecryptFormatted"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptFormattedRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptFormattedResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("DecryptFormatted"))
              .build();
        }
      }
    }
    return getDecryptFormattedMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedRequest,
      io.cipherd.api.v1.ReEncryptFormattedResponse> getReEncryptFormattedMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReEncryptFormatted",
      requestType = io.cipherd.api.v1.ReEncryptFormattedRequest.class,
      responseType = io.cipherd.api.v1.ReEncryptFormattedResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedRequest,
      io.cipherd.api.v1.ReEncryptFormattedResponse> getReEncryptFormattedMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedRequest, io.cipherd.api.v1.ReEncryptFormattedResponse> getReEncryptFormattedMethod;
    if ((getReEncryptFormattedMethod = FormatPreservingServiceGrpc.getReEncryptFormattedMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getReEncryptFormattedMethod = FormatPreservingServiceGrpc.getReEncryptFormattedMethod) == null) {
          FormatPreservingServiceGrpc.getReEncryptFormattedMethod = getReEncryptFormattedMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReEncryptFormattedRequest, io.cipherd.api.v1.ReEncryptFormattedResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReEncryptFormatted"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptFormattedRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptFormattedResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("ReEncryptFormatted"))
              .build();
        }
      }
    }
    return getReEncryptFormattedMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.MaskFormattedRequest,
      io.cipherd.api.v1.MaskFormattedResponse> getMaskFormattedMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "MaskFormatted",
      requestType = io.cipherd.api.v1.MaskFormattedRequest.class,
      responseType = io.cipherd.api.v1.MaskFormattedResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.MaskFormattedRequest,
      io.cipherd.api.v1.MaskFormattedResponse> getMaskFormattedMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.MaskFormattedRequest, io.cipherd.api.v1.MaskFormattedResponse> getMaskFormattedMethod;
    if ((getMaskFormattedMethod = FormatPreservingServiceGrpc.getMaskFormattedMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getMaskFormattedMethod = FormatPreservingServiceGrpc.getMaskFormattedMethod) == null) {
          FormatPreservingServiceGrpc.getMaskFormattedMethod = getMaskFormattedMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.MaskFormattedRequest, io.cipherd.api.v1.MaskFormattedResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "MaskFormatted"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.MaskFormattedRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.MaskFormattedResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("MaskFormatted"))
              .build();
        }
      }
    }
    return getMaskFormattedMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedBatchRequest,
      io.cipherd.api.v1.EncryptFormattedBatchResponse> getEncryptFormattedBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EncryptFormattedBatch",
      requestType = io.cipherd.api.v1.EncryptFormattedBatchRequest.class,
      responseType = io.cipherd.api.v1.EncryptFormattedBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedBatchRequest,
      io.cipherd.api.v1.EncryptFormattedBatchResponse> getEncryptFormattedBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedBatchRequest, io.cipherd.api.v1.EncryptFormattedBatchResponse> getEncryptFormattedBatchMethod;
    if ((getEncryptFormattedBatchMethod = FormatPreservingServiceGrpc.getEncryptFormattedBatchMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getEncryptFormattedBatchMethod = FormatPreservingServiceGrpc.getEncryptFormattedBatchMethod) == null) {
          FormatPreservingServiceGrpc.getEncryptFormattedBatchMethod = getEncryptFormattedBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EncryptFormattedBatchRequest, io.cipherd.api.v1.EncryptFormattedBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EncryptFormattedBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptFormattedBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptFormattedBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("EncryptFormattedBatch"))
              .build();
        }
      }
    }
    return getEncryptFormattedBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedBatchRequest,
      io.cipherd.api.v1.DecryptFormattedBatchResponse> getDecryptFormattedBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DecryptFormattedBatch",
      requestType = io.cipherd.api.v1.DecryptFormattedBatchRequest.class,
      responseType = io.cipherd.api.v1.DecryptFormattedBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedBatchRequest,
      io.cipherd.api.v1.DecryptFormattedBatchResponse> getDecryptFormattedBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedBatchRequest, io.cipherd.api.v1.DecryptFormattedBatchResponse> getDecryptFormattedBatchMethod;
    if ((getDecryptFormattedBatchMethod = FormatPreservingServiceGrpc.getDecryptFormattedBatchMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getDecryptFormattedBatchMethod = FormatPreservingServiceGrpc.getDecryptFormattedBatchMethod) == null) {
          FormatPreservingServiceGrpc.getDecryptFormattedBatchMethod = getDecryptFormattedBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DecryptFormattedBatchRequest, io.cipherd.api.v1.DecryptFormattedBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DecryptFormattedBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptFormattedBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptFormattedBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("DecryptFormattedBatch"))
              .build();
        }
      }
    }
    return getDecryptFormattedBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedBatchRequest,
      io.cipherd.api.v1.ReEncryptFormattedBatchResponse> getReEncryptFormattedBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReEncryptFormattedBatch",
      requestType = io.cipherd.api.v1.ReEncryptFormattedBatchRequest.class,
      responseType = io.cipherd.api.v1.ReEncryptFormattedBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedBatchRequest,
      io.cipherd.api.v1.ReEncryptFormattedBatchResponse> getReEncryptFormattedBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedBatchRequest, io.cipherd.api.v1.ReEncryptFormattedBatchResponse> getReEncryptFormattedBatchMethod;
    if ((getReEncryptFormattedBatchMethod = FormatPreservingServiceGrpc.getReEncryptFormattedBatchMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getReEncryptFormattedBatchMethod = FormatPreservingServiceGrpc.getReEncryptFormattedBatchMethod) == null) {
          FormatPreservingServiceGrpc.getReEncryptFormattedBatchMethod = getReEncryptFormattedBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReEncryptFormattedBatchRequest, io.cipherd.api.v1.ReEncryptFormattedBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReEncryptFormattedBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptFormattedBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptFormattedBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("ReEncryptFormattedBatch"))
              .build();
        }
      }
    }
    return getReEncryptFormattedBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedStreamRequest,
      io.cipherd.api.v1.EncryptFormattedStreamResponse> getEncryptFormattedStreamMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EncryptFormattedStream",
      requestType = io.cipherd.api.v1.EncryptFormattedStreamRequest.class,
      responseType = io.cipherd.api.v1.EncryptFormattedStreamResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedStreamRequest,
      io.cipherd.api.v1.EncryptFormattedStreamResponse> getEncryptFormattedStreamMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptFormattedStreamRequest, io.cipherd.api.v1.EncryptFormattedStreamResponse> getEncryptFormattedStreamMethod;
    if ((getEncryptFormattedStreamMethod = FormatPreservingServiceGrpc.getEncryptFormattedStreamMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getEncryptFormattedStreamMethod = FormatPreservingServiceGrpc.getEncryptFormattedStreamMethod) == null) {
          FormatPreservingServiceGrpc.getEncryptFormattedStreamMethod = getEncryptFormattedStreamMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EncryptFormattedStreamRequest, io.cipherd.api.v1.EncryptFormattedStreamResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EncryptFormattedStream"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptFormattedStreamRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptFormattedStreamResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("EncryptFormattedStream"))
              .build();
        }
      }
    }
    return getEncryptFormattedStreamMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedStreamRequest,
      io.cipherd.api.v1.DecryptFormattedStreamResponse> getDecryptFormattedStreamMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DecryptFormattedStream",
      requestType = io.cipherd.api.v1.DecryptFormattedStreamRequest.class,
      responseType = io.cipherd.api.v1.DecryptFormattedStreamResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedStreamRequest,
      io.cipherd.api.v1.DecryptFormattedStreamResponse> getDecryptFormattedStreamMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptFormattedStreamRequest, io.cipherd.api.v1.DecryptFormattedStreamResponse> getDecryptFormattedStreamMethod;
    if ((getDecryptFormattedStreamMethod = FormatPreservingServiceGrpc.getDecryptFormattedStreamMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getDecryptFormattedStreamMethod = FormatPreservingServiceGrpc.getDecryptFormattedStreamMethod) == null) {
          FormatPreservingServiceGrpc.getDecryptFormattedStreamMethod = getDecryptFormattedStreamMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DecryptFormattedStreamRequest, io.cipherd.api.v1.DecryptFormattedStreamResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DecryptFormattedStream"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptFormattedStreamRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptFormattedStreamResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("DecryptFormattedStream"))
              .build();
        }
      }
    }
    return getDecryptFormattedStreamMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedStreamRequest,
      io.cipherd.api.v1.ReEncryptFormattedStreamResponse> getReEncryptFormattedStreamMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReEncryptFormattedStream",
      requestType = io.cipherd.api.v1.ReEncryptFormattedStreamRequest.class,
      responseType = io.cipherd.api.v1.ReEncryptFormattedStreamResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedStreamRequest,
      io.cipherd.api.v1.ReEncryptFormattedStreamResponse> getReEncryptFormattedStreamMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptFormattedStreamRequest, io.cipherd.api.v1.ReEncryptFormattedStreamResponse> getReEncryptFormattedStreamMethod;
    if ((getReEncryptFormattedStreamMethod = FormatPreservingServiceGrpc.getReEncryptFormattedStreamMethod) == null) {
      synchronized (FormatPreservingServiceGrpc.class) {
        if ((getReEncryptFormattedStreamMethod = FormatPreservingServiceGrpc.getReEncryptFormattedStreamMethod) == null) {
          FormatPreservingServiceGrpc.getReEncryptFormattedStreamMethod = getReEncryptFormattedStreamMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReEncryptFormattedStreamRequest, io.cipherd.api.v1.ReEncryptFormattedStreamResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReEncryptFormattedStream"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptFormattedStreamRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptFormattedStreamResponse.getDefaultInstance()))
              .setSchemaDescriptor(new FormatPreservingServiceMethodDescriptorSupplier("ReEncryptFormattedStream"))
              .build();
        }
      }
    }
    return getReEncryptFormattedStreamMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static FormatPreservingServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceStub>() {
        @java.lang.Override
        public FormatPreservingServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new FormatPreservingServiceStub(channel, callOptions);
        }
      };
    return FormatPreservingServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static FormatPreservingServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceBlockingV2Stub>() {
        @java.lang.Override
        public FormatPreservingServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new FormatPreservingServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return FormatPreservingServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static FormatPreservingServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceBlockingStub>() {
        @java.lang.Override
        public FormatPreservingServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new FormatPreservingServiceBlockingStub(channel, callOptions);
        }
      };
    return FormatPreservingServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static FormatPreservingServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<FormatPreservingServiceFutureStub>() {
        @java.lang.Override
        public FormatPreservingServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new FormatPreservingServiceFutureStub(channel, callOptions);
        }
      };
    return FormatPreservingServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
   * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
   * NIST SP 800-38G, under a versioned key that never leaves the service.
   * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
   * which key version made it, or whether it was made by cipherd at all. Every answer therefore
   * returns the key version, which the caller stores beside the value; DecryptFormatted,
   * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
   * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
   * they give a wrong plaintext of the right shape, never an error.
   * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
   * unauthenticated (every value of the format decrypts to something). The tweak is
   * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
   * makes the same value encrypt differently in different columns, and must be given again to decrypt.
   * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
   * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
   * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * EncryptFormatted encrypts one value with the key's current version.
     * </pre>
     */
    default void encryptFormatted(io.cipherd.api.v1.EncryptFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEncryptFormattedMethod(), responseObserver);
    }

    /**
     * <pre>
     * DecryptFormatted decrypts one value with the version named.
     * </pre>
     */
    default void decryptFormatted(io.cipherd.api.v1.DecryptFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDecryptFormattedMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReEncryptFormatted re-encrypts one value from the version named to the key's current version,
     * without returning the plaintext.
     * </pre>
     */
    default void reEncryptFormatted(io.cipherd.api.v1.ReEncryptFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReEncryptFormattedMethod(), responseObserver);
    }

    /**
     * <pre>
     * MaskFormatted returns the display mask of a value's plaintext (e.g. "•••• •••• •••• 4242"), as
     * the key's format defines it, never the plaintext.
     * </pre>
     */
    default void maskFormatted(io.cipherd.api.v1.MaskFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.MaskFormattedResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getMaskFormattedMethod(), responseObserver);
    }

    /**
     * <pre>
     * EncryptFormattedBatch encrypts many values with one key; each item succeeds or fails on its own.
     * </pre>
     */
    default void encryptFormattedBatch(io.cipherd.api.v1.EncryptFormattedBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEncryptFormattedBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * DecryptFormattedBatch decrypts many values of one key; each item succeeds or fails on its own.
     * </pre>
     */
    default void decryptFormattedBatch(io.cipherd.api.v1.DecryptFormattedBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDecryptFormattedBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReEncryptFormattedBatch re-encrypts many values of one key to its current version; each item
     * succeeds or fails on its own.
     * </pre>
     */
    default void reEncryptFormattedBatch(io.cipherd.api.v1.ReEncryptFormattedBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReEncryptFormattedBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * EncryptFormattedStream encrypts a stream of values: one response per request, in request order,
     * each with the request's reference and its own result or error. The server reads no further ahead
     * than the client reads responses (flow control), so memory stays bounded however long it runs; a
     * client that loses the stream resumes after the last reference it received.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedStreamRequest> encryptFormattedStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedStreamResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getEncryptFormattedStreamMethod(), responseObserver);
    }

    /**
     * <pre>
     * DecryptFormattedStream decrypts a stream of values, with the same ordering, per-item errors, flow
     * control and resumption as EncryptFormattedStream.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedStreamRequest> decryptFormattedStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedStreamResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getDecryptFormattedStreamMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReEncryptFormattedStream re-encrypts a stream of values to their key's current version, without
     * returning plaintexts, with the same ordering, per-item errors, flow control and resumption as
     * EncryptFormattedStream. For moving a whole column after a rotation.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedStreamRequest> reEncryptFormattedStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedStreamResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getReEncryptFormattedStreamMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service FormatPreservingService.
   * <pre>
   * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
   * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
   * NIST SP 800-38G, under a versioned key that never leaves the service.
   * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
   * which key version made it, or whether it was made by cipherd at all. Every answer therefore
   * returns the key version, which the caller stores beside the value; DecryptFormatted,
   * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
   * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
   * they give a wrong plaintext of the right shape, never an error.
   * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
   * unauthenticated (every value of the format decrypts to something). The tweak is
   * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
   * makes the same value encrypt differently in different columns, and must be given again to decrypt.
   * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
   * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
   * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
   * </pre>
   */
  public static abstract class FormatPreservingServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return FormatPreservingServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service FormatPreservingService.
   * <pre>
   * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
   * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
   * NIST SP 800-38G, under a versioned key that never leaves the service.
   * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
   * which key version made it, or whether it was made by cipherd at all. Every answer therefore
   * returns the key version, which the caller stores beside the value; DecryptFormatted,
   * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
   * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
   * they give a wrong plaintext of the right shape, never an error.
   * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
   * unauthenticated (every value of the format decrypts to something). The tweak is
   * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
   * makes the same value encrypt differently in different columns, and must be given again to decrypt.
   * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
   * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
   * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
   * </pre>
   */
  public static final class FormatPreservingServiceStub
      extends io.grpc.stub.AbstractAsyncStub<FormatPreservingServiceStub> {
    private FormatPreservingServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected FormatPreservingServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new FormatPreservingServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * EncryptFormatted encrypts one value with the key's current version.
     * </pre>
     */
    public void encryptFormatted(io.cipherd.api.v1.EncryptFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEncryptFormattedMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DecryptFormatted decrypts one value with the version named.
     * </pre>
     */
    public void decryptFormatted(io.cipherd.api.v1.DecryptFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDecryptFormattedMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReEncryptFormatted re-encrypts one value from the version named to the key's current version,
     * without returning the plaintext.
     * </pre>
     */
    public void reEncryptFormatted(io.cipherd.api.v1.ReEncryptFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReEncryptFormattedMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * MaskFormatted returns the display mask of a value's plaintext (e.g. "•••• •••• •••• 4242"), as
     * the key's format defines it, never the plaintext.
     * </pre>
     */
    public void maskFormatted(io.cipherd.api.v1.MaskFormattedRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.MaskFormattedResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getMaskFormattedMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * EncryptFormattedBatch encrypts many values with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public void encryptFormattedBatch(io.cipherd.api.v1.EncryptFormattedBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEncryptFormattedBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DecryptFormattedBatch decrypts many values of one key; each item succeeds or fails on its own.
     * </pre>
     */
    public void decryptFormattedBatch(io.cipherd.api.v1.DecryptFormattedBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDecryptFormattedBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReEncryptFormattedBatch re-encrypts many values of one key to its current version; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public void reEncryptFormattedBatch(io.cipherd.api.v1.ReEncryptFormattedBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReEncryptFormattedBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * EncryptFormattedStream encrypts a stream of values: one response per request, in request order,
     * each with the request's reference and its own result or error. The server reads no further ahead
     * than the client reads responses (flow control), so memory stays bounded however long it runs; a
     * client that loses the stream resumes after the last reference it received.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedStreamRequest> encryptFormattedStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedStreamResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getEncryptFormattedStreamMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * DecryptFormattedStream decrypts a stream of values, with the same ordering, per-item errors, flow
     * control and resumption as EncryptFormattedStream.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedStreamRequest> decryptFormattedStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedStreamResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getDecryptFormattedStreamMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * ReEncryptFormattedStream re-encrypts a stream of values to their key's current version, without
     * returning plaintexts, with the same ordering, per-item errors, flow control and resumption as
     * EncryptFormattedStream. For moving a whole column after a rotation.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedStreamRequest> reEncryptFormattedStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedStreamResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getReEncryptFormattedStreamMethod(), getCallOptions()), responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service FormatPreservingService.
   * <pre>
   * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
   * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
   * NIST SP 800-38G, under a versioned key that never leaves the service.
   * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
   * which key version made it, or whether it was made by cipherd at all. Every answer therefore
   * returns the key version, which the caller stores beside the value; DecryptFormatted,
   * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
   * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
   * they give a wrong plaintext of the right shape, never an error.
   * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
   * unauthenticated (every value of the format decrypts to something). The tweak is
   * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
   * makes the same value encrypt differently in different columns, and must be given again to decrypt.
   * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
   * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
   * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
   * </pre>
   */
  public static final class FormatPreservingServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<FormatPreservingServiceBlockingV2Stub> {
    private FormatPreservingServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected FormatPreservingServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new FormatPreservingServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * EncryptFormatted encrypts one value with the key's current version.
     * </pre>
     */
    public io.cipherd.api.v1.EncryptFormattedResponse encryptFormatted(io.cipherd.api.v1.EncryptFormattedRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEncryptFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecryptFormatted decrypts one value with the version named.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptFormattedResponse decryptFormatted(io.cipherd.api.v1.DecryptFormattedRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDecryptFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptFormatted re-encrypts one value from the version named to the key's current version,
     * without returning the plaintext.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptFormattedResponse reEncryptFormatted(io.cipherd.api.v1.ReEncryptFormattedRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReEncryptFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * MaskFormatted returns the display mask of a value's plaintext (e.g. "•••• •••• •••• 4242"), as
     * the key's format defines it, never the plaintext.
     * </pre>
     */
    public io.cipherd.api.v1.MaskFormattedResponse maskFormatted(io.cipherd.api.v1.MaskFormattedRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getMaskFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EncryptFormattedBatch encrypts many values with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.EncryptFormattedBatchResponse encryptFormattedBatch(io.cipherd.api.v1.EncryptFormattedBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEncryptFormattedBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecryptFormattedBatch decrypts many values of one key; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptFormattedBatchResponse decryptFormattedBatch(io.cipherd.api.v1.DecryptFormattedBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDecryptFormattedBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptFormattedBatch re-encrypts many values of one key to its current version; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptFormattedBatchResponse reEncryptFormattedBatch(io.cipherd.api.v1.ReEncryptFormattedBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReEncryptFormattedBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EncryptFormattedStream encrypts a stream of values: one response per request, in request order,
     * each with the request's reference and its own result or error. The server reads no further ahead
     * than the client reads responses (flow control), so memory stays bounded however long it runs; a
     * client that loses the stream resumes after the last reference it received.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<io.cipherd.api.v1.EncryptFormattedStreamRequest, io.cipherd.api.v1.EncryptFormattedStreamResponse>
        encryptFormattedStream() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getEncryptFormattedStreamMethod(), getCallOptions());
    }

    /**
     * <pre>
     * DecryptFormattedStream decrypts a stream of values, with the same ordering, per-item errors, flow
     * control and resumption as EncryptFormattedStream.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<io.cipherd.api.v1.DecryptFormattedStreamRequest, io.cipherd.api.v1.DecryptFormattedStreamResponse>
        decryptFormattedStream() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getDecryptFormattedStreamMethod(), getCallOptions());
    }

    /**
     * <pre>
     * ReEncryptFormattedStream re-encrypts a stream of values to their key's current version, without
     * returning plaintexts, with the same ordering, per-item errors, flow control and resumption as
     * EncryptFormattedStream. For moving a whole column after a rotation.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<io.cipherd.api.v1.ReEncryptFormattedStreamRequest, io.cipherd.api.v1.ReEncryptFormattedStreamResponse>
        reEncryptFormattedStream() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getReEncryptFormattedStreamMethod(), getCallOptions());
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service FormatPreservingService.
   * <pre>
   * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
   * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
   * NIST SP 800-38G, under a versioned key that never leaves the service.
   * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
   * which key version made it, or whether it was made by cipherd at all. Every answer therefore
   * returns the key version, which the caller stores beside the value; DecryptFormatted,
   * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
   * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
   * they give a wrong plaintext of the right shape, never an error.
   * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
   * unauthenticated (every value of the format decrypts to something). The tweak is
   * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
   * makes the same value encrypt differently in different columns, and must be given again to decrypt.
   * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
   * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
   * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
   * </pre>
   */
  public static final class FormatPreservingServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<FormatPreservingServiceBlockingStub> {
    private FormatPreservingServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected FormatPreservingServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new FormatPreservingServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * EncryptFormatted encrypts one value with the key's current version.
     * </pre>
     */
    public io.cipherd.api.v1.EncryptFormattedResponse encryptFormatted(io.cipherd.api.v1.EncryptFormattedRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEncryptFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecryptFormatted decrypts one value with the version named.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptFormattedResponse decryptFormatted(io.cipherd.api.v1.DecryptFormattedRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDecryptFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptFormatted re-encrypts one value from the version named to the key's current version,
     * without returning the plaintext.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptFormattedResponse reEncryptFormatted(io.cipherd.api.v1.ReEncryptFormattedRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReEncryptFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * MaskFormatted returns the display mask of a value's plaintext (e.g. "•••• •••• •••• 4242"), as
     * the key's format defines it, never the plaintext.
     * </pre>
     */
    public io.cipherd.api.v1.MaskFormattedResponse maskFormatted(io.cipherd.api.v1.MaskFormattedRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getMaskFormattedMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EncryptFormattedBatch encrypts many values with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.EncryptFormattedBatchResponse encryptFormattedBatch(io.cipherd.api.v1.EncryptFormattedBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEncryptFormattedBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecryptFormattedBatch decrypts many values of one key; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptFormattedBatchResponse decryptFormattedBatch(io.cipherd.api.v1.DecryptFormattedBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDecryptFormattedBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptFormattedBatch re-encrypts many values of one key to its current version; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptFormattedBatchResponse reEncryptFormattedBatch(io.cipherd.api.v1.ReEncryptFormattedBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReEncryptFormattedBatchMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service FormatPreservingService.
   * <pre>
   * FormatPreservingService encrypts values that must keep their shape (a card number, a phone
   * number, an id of fixed length over an alphabet) with format-preserving keys (MODE_FF1): FF1,
   * NIST SP 800-38G, under a versioned key that never leaves the service.
   * A formatted ciphertext has no header: it is a value of the key's format, and nothing in it tells
   * which key version made it, or whether it was made by cipherd at all. Every answer therefore
   * returns the key version, which the caller stores beside the value; DecryptFormatted,
   * ReEncryptFormatted and MaskFormatted require it back (key_version 0 is refused) unless the key's
   * format reserves a version prefix. FF1 cannot tell a wrong version or context from a right one:
   * they give a wrong plaintext of the right shape, never an error.
   * FF1 is deterministic (equal values under one key version and context give equal ciphertexts) and
   * unauthenticated (every value of the format decrypts to something). The tweak is
   * SHA-256("cipherd-ff1" ‖ 0x00 ‖ key name ‖ 0x00 ‖ context): a context such as "users.card_number"
   * makes the same value encrypt differently in different columns, and must be given again to decrypt.
   * Encrypt and decrypt need the encrypt and decrypt operations; ReEncryptFormatted needs reencrypt (or
   * decrypt and encrypt) and never returns the plaintext; MaskFormatted needs mask, which allows nothing
   * else, or decrypt, which implies it (a caller who may decrypt could compute the mask).
   * </pre>
   */
  public static final class FormatPreservingServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<FormatPreservingServiceFutureStub> {
    private FormatPreservingServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected FormatPreservingServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new FormatPreservingServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * EncryptFormatted encrypts one value with the key's current version.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EncryptFormattedResponse> encryptFormatted(
        io.cipherd.api.v1.EncryptFormattedRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEncryptFormattedMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DecryptFormatted decrypts one value with the version named.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.DecryptFormattedResponse> decryptFormatted(
        io.cipherd.api.v1.DecryptFormattedRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDecryptFormattedMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReEncryptFormatted re-encrypts one value from the version named to the key's current version,
     * without returning the plaintext.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ReEncryptFormattedResponse> reEncryptFormatted(
        io.cipherd.api.v1.ReEncryptFormattedRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReEncryptFormattedMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * MaskFormatted returns the display mask of a value's plaintext (e.g. "•••• •••• •••• 4242"), as
     * the key's format defines it, never the plaintext.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.MaskFormattedResponse> maskFormatted(
        io.cipherd.api.v1.MaskFormattedRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getMaskFormattedMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * EncryptFormattedBatch encrypts many values with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EncryptFormattedBatchResponse> encryptFormattedBatch(
        io.cipherd.api.v1.EncryptFormattedBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEncryptFormattedBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DecryptFormattedBatch decrypts many values of one key; each item succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.DecryptFormattedBatchResponse> decryptFormattedBatch(
        io.cipherd.api.v1.DecryptFormattedBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDecryptFormattedBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReEncryptFormattedBatch re-encrypts many values of one key to its current version; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ReEncryptFormattedBatchResponse> reEncryptFormattedBatch(
        io.cipherd.api.v1.ReEncryptFormattedBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReEncryptFormattedBatchMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_ENCRYPT_FORMATTED = 0;
  private static final int METHODID_DECRYPT_FORMATTED = 1;
  private static final int METHODID_RE_ENCRYPT_FORMATTED = 2;
  private static final int METHODID_MASK_FORMATTED = 3;
  private static final int METHODID_ENCRYPT_FORMATTED_BATCH = 4;
  private static final int METHODID_DECRYPT_FORMATTED_BATCH = 5;
  private static final int METHODID_RE_ENCRYPT_FORMATTED_BATCH = 6;
  private static final int METHODID_ENCRYPT_FORMATTED_STREAM = 7;
  private static final int METHODID_DECRYPT_FORMATTED_STREAM = 8;
  private static final int METHODID_RE_ENCRYPT_FORMATTED_STREAM = 9;

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
        case METHODID_ENCRYPT_FORMATTED:
          serviceImpl.encryptFormatted((io.cipherd.api.v1.EncryptFormattedRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedResponse>) responseObserver);
          break;
        case METHODID_DECRYPT_FORMATTED:
          serviceImpl.decryptFormatted((io.cipherd.api.v1.DecryptFormattedRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedResponse>) responseObserver);
          break;
        case METHODID_RE_ENCRYPT_FORMATTED:
          serviceImpl.reEncryptFormatted((io.cipherd.api.v1.ReEncryptFormattedRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedResponse>) responseObserver);
          break;
        case METHODID_MASK_FORMATTED:
          serviceImpl.maskFormatted((io.cipherd.api.v1.MaskFormattedRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.MaskFormattedResponse>) responseObserver);
          break;
        case METHODID_ENCRYPT_FORMATTED_BATCH:
          serviceImpl.encryptFormattedBatch((io.cipherd.api.v1.EncryptFormattedBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedBatchResponse>) responseObserver);
          break;
        case METHODID_DECRYPT_FORMATTED_BATCH:
          serviceImpl.decryptFormattedBatch((io.cipherd.api.v1.DecryptFormattedBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedBatchResponse>) responseObserver);
          break;
        case METHODID_RE_ENCRYPT_FORMATTED_BATCH:
          serviceImpl.reEncryptFormattedBatch((io.cipherd.api.v1.ReEncryptFormattedBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedBatchResponse>) responseObserver);
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
        case METHODID_ENCRYPT_FORMATTED_STREAM:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.encryptFormattedStream(
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptFormattedStreamResponse>) responseObserver);
        case METHODID_DECRYPT_FORMATTED_STREAM:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.decryptFormattedStream(
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptFormattedStreamResponse>) responseObserver);
        case METHODID_RE_ENCRYPT_FORMATTED_STREAM:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.reEncryptFormattedStream(
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptFormattedStreamResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getEncryptFormattedMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EncryptFormattedRequest,
              io.cipherd.api.v1.EncryptFormattedResponse>(
                service, METHODID_ENCRYPT_FORMATTED)))
        .addMethod(
          getDecryptFormattedMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.DecryptFormattedRequest,
              io.cipherd.api.v1.DecryptFormattedResponse>(
                service, METHODID_DECRYPT_FORMATTED)))
        .addMethod(
          getReEncryptFormattedMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReEncryptFormattedRequest,
              io.cipherd.api.v1.ReEncryptFormattedResponse>(
                service, METHODID_RE_ENCRYPT_FORMATTED)))
        .addMethod(
          getMaskFormattedMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.MaskFormattedRequest,
              io.cipherd.api.v1.MaskFormattedResponse>(
                service, METHODID_MASK_FORMATTED)))
        .addMethod(
          getEncryptFormattedBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EncryptFormattedBatchRequest,
              io.cipherd.api.v1.EncryptFormattedBatchResponse>(
                service, METHODID_ENCRYPT_FORMATTED_BATCH)))
        .addMethod(
          getDecryptFormattedBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.DecryptFormattedBatchRequest,
              io.cipherd.api.v1.DecryptFormattedBatchResponse>(
                service, METHODID_DECRYPT_FORMATTED_BATCH)))
        .addMethod(
          getReEncryptFormattedBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReEncryptFormattedBatchRequest,
              io.cipherd.api.v1.ReEncryptFormattedBatchResponse>(
                service, METHODID_RE_ENCRYPT_FORMATTED_BATCH)))
        .addMethod(
          getEncryptFormattedStreamMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              io.cipherd.api.v1.EncryptFormattedStreamRequest,
              io.cipherd.api.v1.EncryptFormattedStreamResponse>(
                service, METHODID_ENCRYPT_FORMATTED_STREAM)))
        .addMethod(
          getDecryptFormattedStreamMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              io.cipherd.api.v1.DecryptFormattedStreamRequest,
              io.cipherd.api.v1.DecryptFormattedStreamResponse>(
                service, METHODID_DECRYPT_FORMATTED_STREAM)))
        .addMethod(
          getReEncryptFormattedStreamMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReEncryptFormattedStreamRequest,
              io.cipherd.api.v1.ReEncryptFormattedStreamResponse>(
                service, METHODID_RE_ENCRYPT_FORMATTED_STREAM)))
        .build();
  }

  private static abstract class FormatPreservingServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    FormatPreservingServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return io.cipherd.api.v1.FormatPreservingServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("FormatPreservingService");
    }
  }

  private static final class FormatPreservingServiceFileDescriptorSupplier
      extends FormatPreservingServiceBaseDescriptorSupplier {
    FormatPreservingServiceFileDescriptorSupplier() {}
  }

  private static final class FormatPreservingServiceMethodDescriptorSupplier
      extends FormatPreservingServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    FormatPreservingServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (FormatPreservingServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new FormatPreservingServiceFileDescriptorSupplier())
              .addMethod(getEncryptFormattedMethod())
              .addMethod(getDecryptFormattedMethod())
              .addMethod(getReEncryptFormattedMethod())
              .addMethod(getMaskFormattedMethod())
              .addMethod(getEncryptFormattedBatchMethod())
              .addMethod(getDecryptFormattedBatchMethod())
              .addMethod(getReEncryptFormattedBatchMethod())
              .addMethod(getEncryptFormattedStreamMethod())
              .addMethod(getDecryptFormattedStreamMethod())
              .addMethod(getReEncryptFormattedStreamMethod())
              .build();
        }
      }
    }
    return result;
  }
}
