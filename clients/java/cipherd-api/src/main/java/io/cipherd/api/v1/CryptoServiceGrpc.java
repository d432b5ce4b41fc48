package io.cipherd.api.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * CryptoService encrypts and decrypts with named keys that never leave the service.
 * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
 * version and mode that decrypt it. For AEAD modes the header and the caller's context are
 * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class CryptoServiceGrpc {

  private CryptoServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "cipherd.v1.CryptoService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptRequest,
      io.cipherd.api.v1.EncryptResponse> getEncryptMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Encrypt",
      requestType = io.cipherd.api.v1.EncryptRequest.class,
      responseType = io.cipherd.api.v1.EncryptResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptRequest,
      io.cipherd.api.v1.EncryptResponse> getEncryptMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptRequest, io.cipherd.api.v1.EncryptResponse> getEncryptMethod;
    if ((getEncryptMethod = CryptoServiceGrpc.getEncryptMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getEncryptMethod = CryptoServiceGrpc.getEncryptMethod) == null) {
          CryptoServiceGrpc.getEncryptMethod = getEncryptMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EncryptRequest, io.cipherd.api.v1.EncryptResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Encrypt"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("Encrypt"))
              .build();
        }
      }
    }
    return getEncryptMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptRequest,
      io.cipherd.api.v1.DecryptResponse> getDecryptMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Decrypt",
      requestType = io.cipherd.api.v1.DecryptRequest.class,
      responseType = io.cipherd.api.v1.DecryptResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptRequest,
      io.cipherd.api.v1.DecryptResponse> getDecryptMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptRequest, io.cipherd.api.v1.DecryptResponse> getDecryptMethod;
    if ((getDecryptMethod = CryptoServiceGrpc.getDecryptMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getDecryptMethod = CryptoServiceGrpc.getDecryptMethod) == null) {
          CryptoServiceGrpc.getDecryptMethod = getDecryptMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DecryptRequest, io.cipherd.api.v1.DecryptResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Decrypt"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("Decrypt"))
              .build();
        }
      }
    }
    return getDecryptMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptRequest,
      io.cipherd.api.v1.ReEncryptResponse> getReEncryptMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReEncrypt",
      requestType = io.cipherd.api.v1.ReEncryptRequest.class,
      responseType = io.cipherd.api.v1.ReEncryptResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptRequest,
      io.cipherd.api.v1.ReEncryptResponse> getReEncryptMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptRequest, io.cipherd.api.v1.ReEncryptResponse> getReEncryptMethod;
    if ((getReEncryptMethod = CryptoServiceGrpc.getReEncryptMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getReEncryptMethod = CryptoServiceGrpc.getReEncryptMethod) == null) {
          CryptoServiceGrpc.getReEncryptMethod = getReEncryptMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReEncryptRequest, io.cipherd.api.v1.ReEncryptResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReEncrypt"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ReEncrypt"))
              .build();
        }
      }
    }
    return getReEncryptMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptBatchRequest,
      io.cipherd.api.v1.EncryptBatchResponse> getEncryptBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EncryptBatch",
      requestType = io.cipherd.api.v1.EncryptBatchRequest.class,
      responseType = io.cipherd.api.v1.EncryptBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptBatchRequest,
      io.cipherd.api.v1.EncryptBatchResponse> getEncryptBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptBatchRequest, io.cipherd.api.v1.EncryptBatchResponse> getEncryptBatchMethod;
    if ((getEncryptBatchMethod = CryptoServiceGrpc.getEncryptBatchMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getEncryptBatchMethod = CryptoServiceGrpc.getEncryptBatchMethod) == null) {
          CryptoServiceGrpc.getEncryptBatchMethod = getEncryptBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EncryptBatchRequest, io.cipherd.api.v1.EncryptBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EncryptBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("EncryptBatch"))
              .build();
        }
      }
    }
    return getEncryptBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptBatchRequest,
      io.cipherd.api.v1.DecryptBatchResponse> getDecryptBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DecryptBatch",
      requestType = io.cipherd.api.v1.DecryptBatchRequest.class,
      responseType = io.cipherd.api.v1.DecryptBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptBatchRequest,
      io.cipherd.api.v1.DecryptBatchResponse> getDecryptBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptBatchRequest, io.cipherd.api.v1.DecryptBatchResponse> getDecryptBatchMethod;
    if ((getDecryptBatchMethod = CryptoServiceGrpc.getDecryptBatchMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getDecryptBatchMethod = CryptoServiceGrpc.getDecryptBatchMethod) == null) {
          CryptoServiceGrpc.getDecryptBatchMethod = getDecryptBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DecryptBatchRequest, io.cipherd.api.v1.DecryptBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DecryptBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("DecryptBatch"))
              .build();
        }
      }
    }
    return getDecryptBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptBatchRequest,
      io.cipherd.api.v1.ReEncryptBatchResponse> getReEncryptBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReEncryptBatch",
      requestType = io.cipherd.api.v1.ReEncryptBatchRequest.class,
      responseType = io.cipherd.api.v1.ReEncryptBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptBatchRequest,
      io.cipherd.api.v1.ReEncryptBatchResponse> getReEncryptBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptBatchRequest, io.cipherd.api.v1.ReEncryptBatchResponse> getReEncryptBatchMethod;
    if ((getReEncryptBatchMethod = CryptoServiceGrpc.getReEncryptBatchMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getReEncryptBatchMethod = CryptoServiceGrpc.getReEncryptBatchMethod) == null) {
          CryptoServiceGrpc.getReEncryptBatchMethod = getReEncryptBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReEncryptBatchRequest, io.cipherd.api.v1.ReEncryptBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReEncryptBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ReEncryptBatch"))
              .build();
        }
      }
    }
    return getReEncryptBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptStreamRequest,
      io.cipherd.api.v1.ReEncryptStreamResponse> getReEncryptStreamMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReEncryptStream",
      requestType = io.cipherd.api.v1.ReEncryptStreamRequest.class,
      responseType = io.cipherd.api.v1.ReEncryptStreamResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptStreamRequest,
      io.cipherd.api.v1.ReEncryptStreamResponse> getReEncryptStreamMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReEncryptStreamRequest, io.cipherd.api.v1.ReEncryptStreamResponse> getReEncryptStreamMethod;
    if ((getReEncryptStreamMethod = CryptoServiceGrpc.getReEncryptStreamMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getReEncryptStreamMethod = CryptoServiceGrpc.getReEncryptStreamMethod) == null) {
          CryptoServiceGrpc.getReEncryptStreamMethod = getReEncryptStreamMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReEncryptStreamRequest, io.cipherd.api.v1.ReEncryptStreamResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReEncryptStream"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptStreamRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReEncryptStreamResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ReEncryptStream"))
              .build();
        }
      }
    }
    return getReEncryptStreamMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptStreamRequest,
      io.cipherd.api.v1.EncryptStreamResponse> getEncryptStreamMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EncryptStream",
      requestType = io.cipherd.api.v1.EncryptStreamRequest.class,
      responseType = io.cipherd.api.v1.EncryptStreamResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptStreamRequest,
      io.cipherd.api.v1.EncryptStreamResponse> getEncryptStreamMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EncryptStreamRequest, io.cipherd.api.v1.EncryptStreamResponse> getEncryptStreamMethod;
    if ((getEncryptStreamMethod = CryptoServiceGrpc.getEncryptStreamMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getEncryptStreamMethod = CryptoServiceGrpc.getEncryptStreamMethod) == null) {
          CryptoServiceGrpc.getEncryptStreamMethod = getEncryptStreamMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EncryptStreamRequest, io.cipherd.api.v1.EncryptStreamResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EncryptStream"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptStreamRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EncryptStreamResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("EncryptStream"))
              .build();
        }
      }
    }
    return getEncryptStreamMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptStreamRequest,
      io.cipherd.api.v1.DecryptStreamResponse> getDecryptStreamMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DecryptStream",
      requestType = io.cipherd.api.v1.DecryptStreamRequest.class,
      responseType = io.cipherd.api.v1.DecryptStreamResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptStreamRequest,
      io.cipherd.api.v1.DecryptStreamResponse> getDecryptStreamMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DecryptStreamRequest, io.cipherd.api.v1.DecryptStreamResponse> getDecryptStreamMethod;
    if ((getDecryptStreamMethod = CryptoServiceGrpc.getDecryptStreamMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getDecryptStreamMethod = CryptoServiceGrpc.getDecryptStreamMethod) == null) {
          CryptoServiceGrpc.getDecryptStreamMethod = getDecryptStreamMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DecryptStreamRequest, io.cipherd.api.v1.DecryptStreamResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DecryptStream"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptStreamRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DecryptStreamResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("DecryptStream"))
              .build();
        }
      }
    }
    return getDecryptStreamMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.InspectRequest,
      io.cipherd.api.v1.InspectResponse> getInspectMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Inspect",
      requestType = io.cipherd.api.v1.InspectRequest.class,
      responseType = io.cipherd.api.v1.InspectResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.InspectRequest,
      io.cipherd.api.v1.InspectResponse> getInspectMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.InspectRequest, io.cipherd.api.v1.InspectResponse> getInspectMethod;
    if ((getInspectMethod = CryptoServiceGrpc.getInspectMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getInspectMethod = CryptoServiceGrpc.getInspectMethod) == null) {
          CryptoServiceGrpc.getInspectMethod = getInspectMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.InspectRequest, io.cipherd.api.v1.InspectResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Inspect"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.InspectRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.InspectResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("Inspect"))
              .build();
        }
      }
    }
    return getInspectMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ComputeIndexRequest,
      io.cipherd.api.v1.ComputeIndexResponse> getComputeIndexMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ComputeIndex",
      requestType = io.cipherd.api.v1.ComputeIndexRequest.class,
      responseType = io.cipherd.api.v1.ComputeIndexResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ComputeIndexRequest,
      io.cipherd.api.v1.ComputeIndexResponse> getComputeIndexMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ComputeIndexRequest, io.cipherd.api.v1.ComputeIndexResponse> getComputeIndexMethod;
    if ((getComputeIndexMethod = CryptoServiceGrpc.getComputeIndexMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getComputeIndexMethod = CryptoServiceGrpc.getComputeIndexMethod) == null) {
          CryptoServiceGrpc.getComputeIndexMethod = getComputeIndexMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ComputeIndexRequest, io.cipherd.api.v1.ComputeIndexResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ComputeIndex"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ComputeIndexRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ComputeIndexResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ComputeIndex"))
              .build();
        }
      }
    }
    return getComputeIndexMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ComputeIndexBatchRequest,
      io.cipherd.api.v1.ComputeIndexBatchResponse> getComputeIndexBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ComputeIndexBatch",
      requestType = io.cipherd.api.v1.ComputeIndexBatchRequest.class,
      responseType = io.cipherd.api.v1.ComputeIndexBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ComputeIndexBatchRequest,
      io.cipherd.api.v1.ComputeIndexBatchResponse> getComputeIndexBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ComputeIndexBatchRequest, io.cipherd.api.v1.ComputeIndexBatchResponse> getComputeIndexBatchMethod;
    if ((getComputeIndexBatchMethod = CryptoServiceGrpc.getComputeIndexBatchMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getComputeIndexBatchMethod = CryptoServiceGrpc.getComputeIndexBatchMethod) == null) {
          CryptoServiceGrpc.getComputeIndexBatchMethod = getComputeIndexBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ComputeIndexBatchRequest, io.cipherd.api.v1.ComputeIndexBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ComputeIndexBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ComputeIndexBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ComputeIndexBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ComputeIndexBatch"))
              .build();
        }
      }
    }
    return getComputeIndexBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReIndexRequest,
      io.cipherd.api.v1.ReIndexResponse> getReIndexMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReIndex",
      requestType = io.cipherd.api.v1.ReIndexRequest.class,
      responseType = io.cipherd.api.v1.ReIndexResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReIndexRequest,
      io.cipherd.api.v1.ReIndexResponse> getReIndexMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReIndexRequest, io.cipherd.api.v1.ReIndexResponse> getReIndexMethod;
    if ((getReIndexMethod = CryptoServiceGrpc.getReIndexMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getReIndexMethod = CryptoServiceGrpc.getReIndexMethod) == null) {
          CryptoServiceGrpc.getReIndexMethod = getReIndexMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReIndexRequest, io.cipherd.api.v1.ReIndexResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReIndex"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReIndexRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReIndexResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ReIndex"))
              .build();
        }
      }
    }
    return getReIndexMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ReIndexBatchRequest,
      io.cipherd.api.v1.ReIndexBatchResponse> getReIndexBatchMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ReIndexBatch",
      requestType = io.cipherd.api.v1.ReIndexBatchRequest.class,
      responseType = io.cipherd.api.v1.ReIndexBatchResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ReIndexBatchRequest,
      io.cipherd.api.v1.ReIndexBatchResponse> getReIndexBatchMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ReIndexBatchRequest, io.cipherd.api.v1.ReIndexBatchResponse> getReIndexBatchMethod;
    if ((getReIndexBatchMethod = CryptoServiceGrpc.getReIndexBatchMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getReIndexBatchMethod = CryptoServiceGrpc.getReIndexBatchMethod) == null) {
          CryptoServiceGrpc.getReIndexBatchMethod = getReIndexBatchMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ReIndexBatchRequest, io.cipherd.api.v1.ReIndexBatchResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ReIndexBatch"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReIndexBatchRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ReIndexBatchResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("ReIndexBatch"))
              .build();
        }
      }
    }
    return getReIndexBatchMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.GenerateDataKeyRequest,
      io.cipherd.api.v1.GenerateDataKeyResponse> getGenerateDataKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GenerateDataKey",
      requestType = io.cipherd.api.v1.GenerateDataKeyRequest.class,
      responseType = io.cipherd.api.v1.GenerateDataKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.GenerateDataKeyRequest,
      io.cipherd.api.v1.GenerateDataKeyResponse> getGenerateDataKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.GenerateDataKeyRequest, io.cipherd.api.v1.GenerateDataKeyResponse> getGenerateDataKeyMethod;
    if ((getGenerateDataKeyMethod = CryptoServiceGrpc.getGenerateDataKeyMethod) == null) {
      synchronized (CryptoServiceGrpc.class) {
        if ((getGenerateDataKeyMethod = CryptoServiceGrpc.getGenerateDataKeyMethod) == null) {
          CryptoServiceGrpc.getGenerateDataKeyMethod = getGenerateDataKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.GenerateDataKeyRequest, io.cipherd.api.v1.GenerateDataKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GenerateDataKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GenerateDataKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GenerateDataKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CryptoServiceMethodDescriptorSupplier("GenerateDataKey"))
              .build();
        }
      }
    }
    return getGenerateDataKeyMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static CryptoServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CryptoServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CryptoServiceStub>() {
        @java.lang.Override
        public CryptoServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CryptoServiceStub(channel, callOptions);
        }
      };
    return CryptoServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static CryptoServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CryptoServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CryptoServiceBlockingV2Stub>() {
        @java.lang.Override
        public CryptoServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CryptoServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return CryptoServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static CryptoServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CryptoServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CryptoServiceBlockingStub>() {
        @java.lang.Override
        public CryptoServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CryptoServiceBlockingStub(channel, callOptions);
        }
      };
    return CryptoServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static CryptoServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CryptoServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CryptoServiceFutureStub>() {
        @java.lang.Override
        public CryptoServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CryptoServiceFutureStub(channel, callOptions);
        }
      };
    return CryptoServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * CryptoService encrypts and decrypts with named keys that never leave the service.
   * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
   * version and mode that decrypt it. For AEAD modes the header and the caller's context are
   * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * Encrypt encrypts plaintext with the key's current version (or the version named).
     * </pre>
     */
    default void encrypt(io.cipherd.api.v1.EncryptRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEncryptMethod(), responseObserver);
    }

    /**
     * <pre>
     * Decrypt decrypts a ciphertext with the key version its header names.
     * </pre>
     */
    default void decrypt(io.cipherd.api.v1.DecryptRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDecryptMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReEncrypt rewraps a ciphertext to the current version of its key (or of another key) without
     * returning the plaintext.
     * </pre>
     */
    default void reEncrypt(io.cipherd.api.v1.ReEncryptRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReEncryptMethod(), responseObserver);
    }

    /**
     * <pre>
     * EncryptBatch encrypts many plaintexts with one key; each item succeeds or fails on its own.
     * </pre>
     */
    default void encryptBatch(io.cipherd.api.v1.EncryptBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEncryptBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * DecryptBatch decrypts many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    default void decryptBatch(io.cipherd.api.v1.DecryptBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDecryptBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReEncryptBatch rewraps many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    default void reEncryptBatch(io.cipherd.api.v1.ReEncryptBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReEncryptBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReEncryptStream rewraps a stream of ciphertexts: one response per request, in request order,
     * each with its own result or error. For migrating large tables without holding them in memory.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptStreamRequest> reEncryptStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptStreamResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getReEncryptStreamMethod(), responseObserver);
    }

    /**
     * <pre>
     * EncryptStream encrypts a stream of plaintexts: one response per request, in request order, each
     * with the request's reference and its own result or error. The server reads no further ahead
     * than the client reads responses (flow control), so memory stays bounded however long it runs;
     * a client that loses the stream resumes after the last reference it received.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptStreamRequest> encryptStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptStreamResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getEncryptStreamMethod(), responseObserver);
    }

    /**
     * <pre>
     * DecryptStream decrypts a stream of ciphertexts, with the same ordering, per-item errors, flow
     * control and resumption as EncryptStream.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptStreamRequest> decryptStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptStreamResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getDecryptStreamMethod(), responseObserver);
    }

    /**
     * <pre>
     * Inspect parses a ciphertext's header without decrypting it.
     * </pre>
     */
    default void inspect(io.cipherd.api.v1.InspectRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.InspectResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getInspectMethod(), responseObserver);
    }

    /**
     * <pre>
     * ComputeIndex computes a blind index of a value with an index key (MODE_HMAC): a keyed hash that
     * a table can store next to the value's ciphertext and query by equality. It never encrypts.
     * </pre>
     */
    default void computeIndex(io.cipherd.api.v1.ComputeIndexRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ComputeIndexResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getComputeIndexMethod(), responseObserver);
    }

    /**
     * <pre>
     * ComputeIndexBatch computes the blind indexes of many values with one key and one normalization;
     * each item succeeds or fails on its own.
     * </pre>
     */
    default void computeIndexBatch(io.cipherd.api.v1.ComputeIndexBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ComputeIndexBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getComputeIndexBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReIndex computes the blind index of a ciphertext's plaintext with an index key's current
     * version, the plaintext never leaving the server: the server-side form of re-indexing a column
     * after the index key rotates. Needs the reindex operation on the ciphertext's key and index on
     * the index key; decrypt is not needed.
     * </pre>
     */
    default void reIndex(io.cipherd.api.v1.ReIndexRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReIndexResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReIndexMethod(), responseObserver);
    }

    /**
     * <pre>
     * ReIndexBatch re-indexes many ciphertexts with one index key, normalization and length; each item
     * succeeds or fails on its own.
     * </pre>
     */
    default void reIndexBatch(io.cipherd.api.v1.ReIndexBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReIndexBatchResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getReIndexBatchMethod(), responseObserver);
    }

    /**
     * <pre>
     * GenerateDataKey returns a fresh random data key, in plaintext and wrapped (encrypted) with a
     * named key, for encrypting large objects locally. Decrypt unwraps the wrapped key and ReEncrypt
     * rewraps it, like any other ciphertext.
     * </pre>
     */
    default void generateDataKey(io.cipherd.api.v1.GenerateDataKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GenerateDataKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGenerateDataKeyMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service CryptoService.
   * <pre>
   * CryptoService encrypts and decrypts with named keys that never leave the service.
   * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
   * version and mode that decrypt it. For AEAD modes the header and the caller's context are
   * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
   * </pre>
   */
  public static abstract class CryptoServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return CryptoServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service CryptoService.
   * <pre>
   * CryptoService encrypts and decrypts with named keys that never leave the service.
   * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
   * version and mode that decrypt it. For AEAD modes the header and the caller's context are
   * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
   * </pre>
   */
  public static final class CryptoServiceStub
      extends io.grpc.stub.AbstractAsyncStub<CryptoServiceStub> {
    private CryptoServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CryptoServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CryptoServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Encrypt encrypts plaintext with the key's current version (or the version named).
     * </pre>
     */
    public void encrypt(io.cipherd.api.v1.EncryptRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEncryptMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Decrypt decrypts a ciphertext with the key version its header names.
     * </pre>
     */
    public void decrypt(io.cipherd.api.v1.DecryptRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDecryptMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReEncrypt rewraps a ciphertext to the current version of its key (or of another key) without
     * returning the plaintext.
     * </pre>
     */
    public void reEncrypt(io.cipherd.api.v1.ReEncryptRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReEncryptMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * EncryptBatch encrypts many plaintexts with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public void encryptBatch(io.cipherd.api.v1.EncryptBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEncryptBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DecryptBatch decrypts many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public void decryptBatch(io.cipherd.api.v1.DecryptBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDecryptBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReEncryptBatch rewraps many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public void reEncryptBatch(io.cipherd.api.v1.ReEncryptBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReEncryptBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReEncryptStream rewraps a stream of ciphertexts: one response per request, in request order,
     * each with its own result or error. For migrating large tables without holding them in memory.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptStreamRequest> reEncryptStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptStreamResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getReEncryptStreamMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * EncryptStream encrypts a stream of plaintexts: one response per request, in request order, each
     * with the request's reference and its own result or error. The server reads no further ahead
     * than the client reads responses (flow control), so memory stays bounded however long it runs;
     * a client that loses the stream resumes after the last reference it received.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptStreamRequest> encryptStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptStreamResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getEncryptStreamMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * DecryptStream decrypts a stream of ciphertexts, with the same ordering, per-item errors, flow
     * control and resumption as EncryptStream.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptStreamRequest> decryptStream(
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptStreamResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getDecryptStreamMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * Inspect parses a ciphertext's header without decrypting it.
     * </pre>
     */
    public void inspect(io.cipherd.api.v1.InspectRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.InspectResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getInspectMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ComputeIndex computes a blind index of a value with an index key (MODE_HMAC): a keyed hash that
     * a table can store next to the value's ciphertext and query by equality. It never encrypts.
     * </pre>
     */
    public void computeIndex(io.cipherd.api.v1.ComputeIndexRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ComputeIndexResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getComputeIndexMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ComputeIndexBatch computes the blind indexes of many values with one key and one normalization;
     * each item succeeds or fails on its own.
     * </pre>
     */
    public void computeIndexBatch(io.cipherd.api.v1.ComputeIndexBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ComputeIndexBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getComputeIndexBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReIndex computes the blind index of a ciphertext's plaintext with an index key's current
     * version, the plaintext never leaving the server: the server-side form of re-indexing a column
     * after the index key rotates. Needs the reindex operation on the ciphertext's key and index on
     * the index key; decrypt is not needed.
     * </pre>
     */
    public void reIndex(io.cipherd.api.v1.ReIndexRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReIndexResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReIndexMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ReIndexBatch re-indexes many ciphertexts with one index key, normalization and length; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public void reIndexBatch(io.cipherd.api.v1.ReIndexBatchRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReIndexBatchResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getReIndexBatchMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GenerateDataKey returns a fresh random data key, in plaintext and wrapped (encrypted) with a
     * named key, for encrypting large objects locally. Decrypt unwraps the wrapped key and ReEncrypt
     * rewraps it, like any other ciphertext.
     * </pre>
     */
    public void generateDataKey(io.cipherd.api.v1.GenerateDataKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GenerateDataKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGenerateDataKeyMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service CryptoService.
   * <pre>
   * CryptoService encrypts and decrypts with named keys that never leave the service.
   * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
   * version and mode that decrypt it. For AEAD modes the header and the caller's context are
   * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
   * </pre>
   */
  public static final class CryptoServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<CryptoServiceBlockingV2Stub> {
    private CryptoServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CryptoServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CryptoServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * Encrypt encrypts plaintext with the key's current version (or the version named).
     * </pre>
     */
    public io.cipherd.api.v1.EncryptResponse encrypt(io.cipherd.api.v1.EncryptRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEncryptMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Decrypt decrypts a ciphertext with the key version its header names.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptResponse decrypt(io.cipherd.api.v1.DecryptRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDecryptMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncrypt rewraps a ciphertext to the current version of its key (or of another key) without
     * returning the plaintext.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptResponse reEncrypt(io.cipherd.api.v1.ReEncryptRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReEncryptMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EncryptBatch encrypts many plaintexts with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.EncryptBatchResponse encryptBatch(io.cipherd.api.v1.EncryptBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEncryptBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecryptBatch decrypts many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptBatchResponse decryptBatch(io.cipherd.api.v1.DecryptBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDecryptBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptBatch rewraps many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptBatchResponse reEncryptBatch(io.cipherd.api.v1.ReEncryptBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReEncryptBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptStream rewraps a stream of ciphertexts: one response per request, in request order,
     * each with its own result or error. For migrating large tables without holding them in memory.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<io.cipherd.api.v1.ReEncryptStreamRequest, io.cipherd.api.v1.ReEncryptStreamResponse>
        reEncryptStream() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getReEncryptStreamMethod(), getCallOptions());
    }

    /**
     * <pre>
     * EncryptStream encrypts a stream of plaintexts: one response per request, in request order, each
     * with the request's reference and its own result or error. The server reads no further ahead
     * than the client reads responses (flow control), so memory stays bounded however long it runs;
     * a client that loses the stream resumes after the last reference it received.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<io.cipherd.api.v1.EncryptStreamRequest, io.cipherd.api.v1.EncryptStreamResponse>
        encryptStream() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getEncryptStreamMethod(), getCallOptions());
    }

    /**
     * <pre>
     * DecryptStream decrypts a stream of ciphertexts, with the same ordering, per-item errors, flow
     * control and resumption as EncryptStream.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<io.cipherd.api.v1.DecryptStreamRequest, io.cipherd.api.v1.DecryptStreamResponse>
        decryptStream() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getDecryptStreamMethod(), getCallOptions());
    }

    /**
     * <pre>
     * Inspect parses a ciphertext's header without decrypting it.
     * </pre>
     */
    public io.cipherd.api.v1.InspectResponse inspect(io.cipherd.api.v1.InspectRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getInspectMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ComputeIndex computes a blind index of a value with an index key (MODE_HMAC): a keyed hash that
     * a table can store next to the value's ciphertext and query by equality. It never encrypts.
     * </pre>
     */
    public io.cipherd.api.v1.ComputeIndexResponse computeIndex(io.cipherd.api.v1.ComputeIndexRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getComputeIndexMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ComputeIndexBatch computes the blind indexes of many values with one key and one normalization;
     * each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ComputeIndexBatchResponse computeIndexBatch(io.cipherd.api.v1.ComputeIndexBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getComputeIndexBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReIndex computes the blind index of a ciphertext's plaintext with an index key's current
     * version, the plaintext never leaving the server: the server-side form of re-indexing a column
     * after the index key rotates. Needs the reindex operation on the ciphertext's key and index on
     * the index key; decrypt is not needed.
     * </pre>
     */
    public io.cipherd.api.v1.ReIndexResponse reIndex(io.cipherd.api.v1.ReIndexRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReIndexMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReIndexBatch re-indexes many ciphertexts with one index key, normalization and length; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ReIndexBatchResponse reIndexBatch(io.cipherd.api.v1.ReIndexBatchRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getReIndexBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GenerateDataKey returns a fresh random data key, in plaintext and wrapped (encrypted) with a
     * named key, for encrypting large objects locally. Decrypt unwraps the wrapped key and ReEncrypt
     * rewraps it, like any other ciphertext.
     * </pre>
     */
    public io.cipherd.api.v1.GenerateDataKeyResponse generateDataKey(io.cipherd.api.v1.GenerateDataKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGenerateDataKeyMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service CryptoService.
   * <pre>
   * CryptoService encrypts and decrypts with named keys that never leave the service.
   * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
   * version and mode that decrypt it. For AEAD modes the header and the caller's context are
   * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
   * </pre>
   */
  public static final class CryptoServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<CryptoServiceBlockingStub> {
    private CryptoServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CryptoServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CryptoServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Encrypt encrypts plaintext with the key's current version (or the version named).
     * </pre>
     */
    public io.cipherd.api.v1.EncryptResponse encrypt(io.cipherd.api.v1.EncryptRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEncryptMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Decrypt decrypts a ciphertext with the key version its header names.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptResponse decrypt(io.cipherd.api.v1.DecryptRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDecryptMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncrypt rewraps a ciphertext to the current version of its key (or of another key) without
     * returning the plaintext.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptResponse reEncrypt(io.cipherd.api.v1.ReEncryptRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReEncryptMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EncryptBatch encrypts many plaintexts with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.EncryptBatchResponse encryptBatch(io.cipherd.api.v1.EncryptBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEncryptBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DecryptBatch decrypts many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.DecryptBatchResponse decryptBatch(io.cipherd.api.v1.DecryptBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDecryptBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReEncryptBatch rewraps many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ReEncryptBatchResponse reEncryptBatch(io.cipherd.api.v1.ReEncryptBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReEncryptBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Inspect parses a ciphertext's header without decrypting it.
     * </pre>
     */
    public io.cipherd.api.v1.InspectResponse inspect(io.cipherd.api.v1.InspectRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getInspectMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ComputeIndex computes a blind index of a value with an index key (MODE_HMAC): a keyed hash that
     * a table can store next to the value's ciphertext and query by equality. It never encrypts.
     * </pre>
     */
    public io.cipherd.api.v1.ComputeIndexResponse computeIndex(io.cipherd.api.v1.ComputeIndexRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getComputeIndexMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ComputeIndexBatch computes the blind indexes of many values with one key and one normalization;
     * each item succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ComputeIndexBatchResponse computeIndexBatch(io.cipherd.api.v1.ComputeIndexBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getComputeIndexBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReIndex computes the blind index of a ciphertext's plaintext with an index key's current
     * version, the plaintext never leaving the server: the server-side form of re-indexing a column
     * after the index key rotates. Needs the reindex operation on the ciphertext's key and index on
     * the index key; decrypt is not needed.
     * </pre>
     */
    public io.cipherd.api.v1.ReIndexResponse reIndex(io.cipherd.api.v1.ReIndexRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReIndexMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ReIndexBatch re-indexes many ciphertexts with one index key, normalization and length; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public io.cipherd.api.v1.ReIndexBatchResponse reIndexBatch(io.cipherd.api.v1.ReIndexBatchRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getReIndexBatchMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GenerateDataKey returns a fresh random data key, in plaintext and wrapped (encrypted) with a
     * named key, for encrypting large objects locally. Decrypt unwraps the wrapped key and ReEncrypt
     * rewraps it, like any other ciphertext.
     * </pre>
     */
    public io.cipherd.api.v1.GenerateDataKeyResponse generateDataKey(io.cipherd.api.v1.GenerateDataKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGenerateDataKeyMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service CryptoService.
   * <pre>
   * CryptoService encrypts and decrypts with named keys that never leave the service.
   * A ciphertext is the text "&lt;NAME/vVERSION:MODE&gt;BASE64" (see proto/README.md): it names the key,
   * version and mode that decrypt it. For AEAD modes the header and the caller's context are
   * authenticated, so a ciphertext moved to another key, version, mode or context fails to decrypt.
   * </pre>
   */
  public static final class CryptoServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<CryptoServiceFutureStub> {
    private CryptoServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CryptoServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CryptoServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Encrypt encrypts plaintext with the key's current version (or the version named).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EncryptResponse> encrypt(
        io.cipherd.api.v1.EncryptRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEncryptMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Decrypt decrypts a ciphertext with the key version its header names.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.DecryptResponse> decrypt(
        io.cipherd.api.v1.DecryptRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDecryptMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReEncrypt rewraps a ciphertext to the current version of its key (or of another key) without
     * returning the plaintext.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ReEncryptResponse> reEncrypt(
        io.cipherd.api.v1.ReEncryptRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReEncryptMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * EncryptBatch encrypts many plaintexts with one key; each item succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EncryptBatchResponse> encryptBatch(
        io.cipherd.api.v1.EncryptBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEncryptBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DecryptBatch decrypts many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.DecryptBatchResponse> decryptBatch(
        io.cipherd.api.v1.DecryptBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDecryptBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReEncryptBatch rewraps many ciphertexts; each item succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ReEncryptBatchResponse> reEncryptBatch(
        io.cipherd.api.v1.ReEncryptBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReEncryptBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Inspect parses a ciphertext's header without decrypting it.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.InspectResponse> inspect(
        io.cipherd.api.v1.InspectRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getInspectMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ComputeIndex computes a blind index of a value with an index key (MODE_HMAC): a keyed hash that
     * a table can store next to the value's ciphertext and query by equality. It never encrypts.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ComputeIndexResponse> computeIndex(
        io.cipherd.api.v1.ComputeIndexRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getComputeIndexMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ComputeIndexBatch computes the blind indexes of many values with one key and one normalization;
     * each item succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ComputeIndexBatchResponse> computeIndexBatch(
        io.cipherd.api.v1.ComputeIndexBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getComputeIndexBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReIndex computes the blind index of a ciphertext's plaintext with an index key's current
     * version, the plaintext never leaving the server: the server-side form of re-indexing a column
     * after the index key rotates. Needs the reindex operation on the ciphertext's key and index on
     * the index key; decrypt is not needed.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ReIndexResponse> reIndex(
        io.cipherd.api.v1.ReIndexRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReIndexMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ReIndexBatch re-indexes many ciphertexts with one index key, normalization and length; each item
     * succeeds or fails on its own.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ReIndexBatchResponse> reIndexBatch(
        io.cipherd.api.v1.ReIndexBatchRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getReIndexBatchMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GenerateDataKey returns a fresh random data key, in plaintext and wrapped (encrypted) with a
     * named key, for encrypting large objects locally. Decrypt unwraps the wrapped key and ReEncrypt
     * rewraps it, like any other ciphertext.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.GenerateDataKeyResponse> generateDataKey(
        io.cipherd.api.v1.GenerateDataKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGenerateDataKeyMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_ENCRYPT = 0;
  private static final int METHODID_DECRYPT = 1;
  private static final int METHODID_RE_ENCRYPT = 2;
  private static final int METHODID_ENCRYPT_BATCH = 3;
  private static final int METHODID_DECRYPT_BATCH = 4;
  private static final int METHODID_RE_ENCRYPT_BATCH = 5;
  private static final int METHODID_INSPECT = 6;
  private static final int METHODID_COMPUTE_INDEX = 7;
  private static final int METHODID_COMPUTE_INDEX_BATCH = 8;
  private static final int METHODID_RE_INDEX = 9;
  private static final int METHODID_RE_INDEX_BATCH = 10;
  private static final int METHODID_GENERATE_DATA_KEY = 11;
  private static final int METHODID_RE_ENCRYPT_STREAM = 12;
  private static final int METHODID_ENCRYPT_STREAM = 13;
  private static final int METHODID_DECRYPT_STREAM = 14;

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
        case METHODID_ENCRYPT:
          serviceImpl.encrypt((io.cipherd.api.v1.EncryptRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptResponse>) responseObserver);
          break;
        case METHODID_DECRYPT:
          serviceImpl.decrypt((io.cipherd.api.v1.DecryptRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptResponse>) responseObserver);
          break;
        case METHODID_RE_ENCRYPT:
          serviceImpl.reEncrypt((io.cipherd.api.v1.ReEncryptRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptResponse>) responseObserver);
          break;
        case METHODID_ENCRYPT_BATCH:
          serviceImpl.encryptBatch((io.cipherd.api.v1.EncryptBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptBatchResponse>) responseObserver);
          break;
        case METHODID_DECRYPT_BATCH:
          serviceImpl.decryptBatch((io.cipherd.api.v1.DecryptBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptBatchResponse>) responseObserver);
          break;
        case METHODID_RE_ENCRYPT_BATCH:
          serviceImpl.reEncryptBatch((io.cipherd.api.v1.ReEncryptBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptBatchResponse>) responseObserver);
          break;
        case METHODID_INSPECT:
          serviceImpl.inspect((io.cipherd.api.v1.InspectRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.InspectResponse>) responseObserver);
          break;
        case METHODID_COMPUTE_INDEX:
          serviceImpl.computeIndex((io.cipherd.api.v1.ComputeIndexRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ComputeIndexResponse>) responseObserver);
          break;
        case METHODID_COMPUTE_INDEX_BATCH:
          serviceImpl.computeIndexBatch((io.cipherd.api.v1.ComputeIndexBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ComputeIndexBatchResponse>) responseObserver);
          break;
        case METHODID_RE_INDEX:
          serviceImpl.reIndex((io.cipherd.api.v1.ReIndexRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReIndexResponse>) responseObserver);
          break;
        case METHODID_RE_INDEX_BATCH:
          serviceImpl.reIndexBatch((io.cipherd.api.v1.ReIndexBatchRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReIndexBatchResponse>) responseObserver);
          break;
        case METHODID_GENERATE_DATA_KEY:
          serviceImpl.generateDataKey((io.cipherd.api.v1.GenerateDataKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.GenerateDataKeyResponse>) responseObserver);
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
        case METHODID_RE_ENCRYPT_STREAM:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.reEncryptStream(
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ReEncryptStreamResponse>) responseObserver);
        case METHODID_ENCRYPT_STREAM:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.encryptStream(
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EncryptStreamResponse>) responseObserver);
        case METHODID_DECRYPT_STREAM:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.decryptStream(
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DecryptStreamResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getEncryptMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EncryptRequest,
              io.cipherd.api.v1.EncryptResponse>(
                service, METHODID_ENCRYPT)))
        .addMethod(
          getDecryptMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.DecryptRequest,
              io.cipherd.api.v1.DecryptResponse>(
                service, METHODID_DECRYPT)))
        .addMethod(
          getReEncryptMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReEncryptRequest,
              io.cipherd.api.v1.ReEncryptResponse>(
                service, METHODID_RE_ENCRYPT)))
        .addMethod(
          getEncryptBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EncryptBatchRequest,
              io.cipherd.api.v1.EncryptBatchResponse>(
                service, METHODID_ENCRYPT_BATCH)))
        .addMethod(
          getDecryptBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.DecryptBatchRequest,
              io.cipherd.api.v1.DecryptBatchResponse>(
                service, METHODID_DECRYPT_BATCH)))
        .addMethod(
          getReEncryptBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReEncryptBatchRequest,
              io.cipherd.api.v1.ReEncryptBatchResponse>(
                service, METHODID_RE_ENCRYPT_BATCH)))
        .addMethod(
          getReEncryptStreamMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReEncryptStreamRequest,
              io.cipherd.api.v1.ReEncryptStreamResponse>(
                service, METHODID_RE_ENCRYPT_STREAM)))
        .addMethod(
          getEncryptStreamMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              io.cipherd.api.v1.EncryptStreamRequest,
              io.cipherd.api.v1.EncryptStreamResponse>(
                service, METHODID_ENCRYPT_STREAM)))
        .addMethod(
          getDecryptStreamMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              io.cipherd.api.v1.DecryptStreamRequest,
              io.cipherd.api.v1.DecryptStreamResponse>(
                service, METHODID_DECRYPT_STREAM)))
        .addMethod(
          getInspectMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.InspectRequest,
              io.cipherd.api.v1.InspectResponse>(
                service, METHODID_INSPECT)))
        .addMethod(
          getComputeIndexMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ComputeIndexRequest,
              io.cipherd.api.v1.ComputeIndexResponse>(
                service, METHODID_COMPUTE_INDEX)))
        .addMethod(
          getComputeIndexBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ComputeIndexBatchRequest,
              io.cipherd.api.v1.ComputeIndexBatchResponse>(
                service, METHODID_COMPUTE_INDEX_BATCH)))
        .addMethod(
          getReIndexMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReIndexRequest,
              io.cipherd.api.v1.ReIndexResponse>(
                service, METHODID_RE_INDEX)))
        .addMethod(
          getReIndexBatchMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ReIndexBatchRequest,
              io.cipherd.api.v1.ReIndexBatchResponse>(
                service, METHODID_RE_INDEX_BATCH)))
        .addMethod(
          getGenerateDataKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.GenerateDataKeyRequest,
              io.cipherd.api.v1.GenerateDataKeyResponse>(
                service, METHODID_GENERATE_DATA_KEY)))
        .build();
  }

  private static abstract class CryptoServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    CryptoServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return io.cipherd.api.v1.CryptoServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("CryptoService");
    }
  }

  private static final class CryptoServiceFileDescriptorSupplier
      extends CryptoServiceBaseDescriptorSupplier {
    CryptoServiceFileDescriptorSupplier() {}
  }

  private static final class CryptoServiceMethodDescriptorSupplier
      extends CryptoServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    CryptoServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (CryptoServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new CryptoServiceFileDescriptorSupplier())
              .addMethod(getEncryptMethod())
              .addMethod(getDecryptMethod())
              .addMethod(getReEncryptMethod())
              .addMethod(getEncryptBatchMethod())
              .addMethod(getDecryptBatchMethod())
              .addMethod(getReEncryptBatchMethod())
              .addMethod(getReEncryptStreamMethod())
              .addMethod(getEncryptStreamMethod())
              .addMethod(getDecryptStreamMethod())
              .addMethod(getInspectMethod())
              .addMethod(getComputeIndexMethod())
              .addMethod(getComputeIndexBatchMethod())
              .addMethod(getReIndexMethod())
              .addMethod(getReIndexBatchMethod())
              .addMethod(getGenerateDataKeyMethod())
              .build();
        }
      }
    }
    return result;
  }
}
