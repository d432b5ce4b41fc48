package io.cipherd.api.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class KeyAdminServiceGrpc {

  private KeyAdminServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "cipherd.v1.KeyAdminService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.CreateKeyRequest,
      io.cipherd.api.v1.CreateKeyResponse> getCreateKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateKey",
      requestType = io.cipherd.api.v1.CreateKeyRequest.class,
      responseType = io.cipherd.api.v1.CreateKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.CreateKeyRequest,
      io.cipherd.api.v1.CreateKeyResponse> getCreateKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.CreateKeyRequest, io.cipherd.api.v1.CreateKeyResponse> getCreateKeyMethod;
    if ((getCreateKeyMethod = KeyAdminServiceGrpc.getCreateKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getCreateKeyMethod = KeyAdminServiceGrpc.getCreateKeyMethod) == null) {
          KeyAdminServiceGrpc.getCreateKeyMethod = getCreateKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.CreateKeyRequest, io.cipherd.api.v1.CreateKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CreateKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CreateKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("CreateKey"))
              .build();
        }
      }
    }
    return getCreateKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.GetKeyRequest,
      io.cipherd.api.v1.GetKeyResponse> getGetKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetKey",
      requestType = io.cipherd.api.v1.GetKeyRequest.class,
      responseType = io.cipherd.api.v1.GetKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.GetKeyRequest,
      io.cipherd.api.v1.GetKeyResponse> getGetKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.GetKeyRequest, io.cipherd.api.v1.GetKeyResponse> getGetKeyMethod;
    if ((getGetKeyMethod = KeyAdminServiceGrpc.getGetKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getGetKeyMethod = KeyAdminServiceGrpc.getGetKeyMethod) == null) {
          KeyAdminServiceGrpc.getGetKeyMethod = getGetKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.GetKeyRequest, io.cipherd.api.v1.GetKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GetKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GetKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("GetKey"))
              .build();
        }
      }
    }
    return getGetKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ListKeysRequest,
      io.cipherd.api.v1.ListKeysResponse> getListKeysMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListKeys",
      requestType = io.cipherd.api.v1.ListKeysRequest.class,
      responseType = io.cipherd.api.v1.ListKeysResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ListKeysRequest,
      io.cipherd.api.v1.ListKeysResponse> getListKeysMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ListKeysRequest, io.cipherd.api.v1.ListKeysResponse> getListKeysMethod;
    if ((getListKeysMethod = KeyAdminServiceGrpc.getListKeysMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getListKeysMethod = KeyAdminServiceGrpc.getListKeysMethod) == null) {
          KeyAdminServiceGrpc.getListKeysMethod = getListKeysMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ListKeysRequest, io.cipherd.api.v1.ListKeysResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListKeys"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ListKeysRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ListKeysResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("ListKeys"))
              .build();
        }
      }
    }
    return getListKeysMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.RotateKeyRequest,
      io.cipherd.api.v1.RotateKeyResponse> getRotateKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RotateKey",
      requestType = io.cipherd.api.v1.RotateKeyRequest.class,
      responseType = io.cipherd.api.v1.RotateKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.RotateKeyRequest,
      io.cipherd.api.v1.RotateKeyResponse> getRotateKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.RotateKeyRequest, io.cipherd.api.v1.RotateKeyResponse> getRotateKeyMethod;
    if ((getRotateKeyMethod = KeyAdminServiceGrpc.getRotateKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getRotateKeyMethod = KeyAdminServiceGrpc.getRotateKeyMethod) == null) {
          KeyAdminServiceGrpc.getRotateKeyMethod = getRotateKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.RotateKeyRequest, io.cipherd.api.v1.RotateKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RotateKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.RotateKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.RotateKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("RotateKey"))
              .build();
        }
      }
    }
    return getRotateKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.UpdateKeyPolicyRequest,
      io.cipherd.api.v1.UpdateKeyPolicyResponse> getUpdateKeyPolicyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "UpdateKeyPolicy",
      requestType = io.cipherd.api.v1.UpdateKeyPolicyRequest.class,
      responseType = io.cipherd.api.v1.UpdateKeyPolicyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.UpdateKeyPolicyRequest,
      io.cipherd.api.v1.UpdateKeyPolicyResponse> getUpdateKeyPolicyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.UpdateKeyPolicyRequest, io.cipherd.api.v1.UpdateKeyPolicyResponse> getUpdateKeyPolicyMethod;
    if ((getUpdateKeyPolicyMethod = KeyAdminServiceGrpc.getUpdateKeyPolicyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getUpdateKeyPolicyMethod = KeyAdminServiceGrpc.getUpdateKeyPolicyMethod) == null) {
          KeyAdminServiceGrpc.getUpdateKeyPolicyMethod = getUpdateKeyPolicyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.UpdateKeyPolicyRequest, io.cipherd.api.v1.UpdateKeyPolicyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "UpdateKeyPolicy"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.UpdateKeyPolicyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.UpdateKeyPolicyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("UpdateKeyPolicy"))
              .build();
        }
      }
    }
    return getUpdateKeyPolicyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ImportKeyRequest,
      io.cipherd.api.v1.ImportKeyResponse> getImportKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ImportKey",
      requestType = io.cipherd.api.v1.ImportKeyRequest.class,
      responseType = io.cipherd.api.v1.ImportKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ImportKeyRequest,
      io.cipherd.api.v1.ImportKeyResponse> getImportKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ImportKeyRequest, io.cipherd.api.v1.ImportKeyResponse> getImportKeyMethod;
    if ((getImportKeyMethod = KeyAdminServiceGrpc.getImportKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getImportKeyMethod = KeyAdminServiceGrpc.getImportKeyMethod) == null) {
          KeyAdminServiceGrpc.getImportKeyMethod = getImportKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ImportKeyRequest, io.cipherd.api.v1.ImportKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ImportKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ImportKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ImportKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("ImportKey"))
              .build();
        }
      }
    }
    return getImportKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.CreateImportJobRequest,
      io.cipherd.api.v1.CreateImportJobResponse> getCreateImportJobMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateImportJob",
      requestType = io.cipherd.api.v1.CreateImportJobRequest.class,
      responseType = io.cipherd.api.v1.CreateImportJobResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.CreateImportJobRequest,
      io.cipherd.api.v1.CreateImportJobResponse> getCreateImportJobMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.CreateImportJobRequest, io.cipherd.api.v1.CreateImportJobResponse> getCreateImportJobMethod;
    if ((getCreateImportJobMethod = KeyAdminServiceGrpc.getCreateImportJobMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getCreateImportJobMethod = KeyAdminServiceGrpc.getCreateImportJobMethod) == null) {
          KeyAdminServiceGrpc.getCreateImportJobMethod = getCreateImportJobMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.CreateImportJobRequest, io.cipherd.api.v1.CreateImportJobResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateImportJob"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CreateImportJobRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CreateImportJobResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("CreateImportJob"))
              .build();
        }
      }
    }
    return getCreateImportJobMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.SetKeyExportableRequest,
      io.cipherd.api.v1.SetKeyExportableResponse> getSetKeyExportableMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SetKeyExportable",
      requestType = io.cipherd.api.v1.SetKeyExportableRequest.class,
      responseType = io.cipherd.api.v1.SetKeyExportableResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.SetKeyExportableRequest,
      io.cipherd.api.v1.SetKeyExportableResponse> getSetKeyExportableMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.SetKeyExportableRequest, io.cipherd.api.v1.SetKeyExportableResponse> getSetKeyExportableMethod;
    if ((getSetKeyExportableMethod = KeyAdminServiceGrpc.getSetKeyExportableMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getSetKeyExportableMethod = KeyAdminServiceGrpc.getSetKeyExportableMethod) == null) {
          KeyAdminServiceGrpc.getSetKeyExportableMethod = getSetKeyExportableMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.SetKeyExportableRequest, io.cipherd.api.v1.SetKeyExportableResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SetKeyExportable"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.SetKeyExportableRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.SetKeyExportableResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("SetKeyExportable"))
              .build();
        }
      }
    }
    return getSetKeyExportableMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.BackupKeyRequest,
      io.cipherd.api.v1.BackupKeyResponse> getBackupKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "BackupKey",
      requestType = io.cipherd.api.v1.BackupKeyRequest.class,
      responseType = io.cipherd.api.v1.BackupKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.BackupKeyRequest,
      io.cipherd.api.v1.BackupKeyResponse> getBackupKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.BackupKeyRequest, io.cipherd.api.v1.BackupKeyResponse> getBackupKeyMethod;
    if ((getBackupKeyMethod = KeyAdminServiceGrpc.getBackupKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getBackupKeyMethod = KeyAdminServiceGrpc.getBackupKeyMethod) == null) {
          KeyAdminServiceGrpc.getBackupKeyMethod = getBackupKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.BackupKeyRequest, io.cipherd.api.v1.BackupKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "BackupKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.BackupKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.BackupKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("BackupKey"))
              .build();
        }
      }
    }
    return getBackupKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.RestoreKeyRequest,
      io.cipherd.api.v1.RestoreKeyResponse> getRestoreKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RestoreKey",
      requestType = io.cipherd.api.v1.RestoreKeyRequest.class,
      responseType = io.cipherd.api.v1.RestoreKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.RestoreKeyRequest,
      io.cipherd.api.v1.RestoreKeyResponse> getRestoreKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.RestoreKeyRequest, io.cipherd.api.v1.RestoreKeyResponse> getRestoreKeyMethod;
    if ((getRestoreKeyMethod = KeyAdminServiceGrpc.getRestoreKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getRestoreKeyMethod = KeyAdminServiceGrpc.getRestoreKeyMethod) == null) {
          KeyAdminServiceGrpc.getRestoreKeyMethod = getRestoreKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.RestoreKeyRequest, io.cipherd.api.v1.RestoreKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RestoreKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.RestoreKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.RestoreKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("RestoreKey"))
              .build();
        }
      }
    }
    return getRestoreKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.GetKeyCensusRequest,
      io.cipherd.api.v1.GetKeyCensusResponse> getGetKeyCensusMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetKeyCensus",
      requestType = io.cipherd.api.v1.GetKeyCensusRequest.class,
      responseType = io.cipherd.api.v1.GetKeyCensusResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.GetKeyCensusRequest,
      io.cipherd.api.v1.GetKeyCensusResponse> getGetKeyCensusMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.GetKeyCensusRequest, io.cipherd.api.v1.GetKeyCensusResponse> getGetKeyCensusMethod;
    if ((getGetKeyCensusMethod = KeyAdminServiceGrpc.getGetKeyCensusMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getGetKeyCensusMethod = KeyAdminServiceGrpc.getGetKeyCensusMethod) == null) {
          KeyAdminServiceGrpc.getGetKeyCensusMethod = getGetKeyCensusMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.GetKeyCensusRequest, io.cipherd.api.v1.GetKeyCensusResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetKeyCensus"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GetKeyCensusRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.GetKeyCensusResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("GetKeyCensus"))
              .build();
        }
      }
    }
    return getGetKeyCensusMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.DisableKeyRequest,
      io.cipherd.api.v1.DisableKeyResponse> getDisableKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DisableKey",
      requestType = io.cipherd.api.v1.DisableKeyRequest.class,
      responseType = io.cipherd.api.v1.DisableKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.DisableKeyRequest,
      io.cipherd.api.v1.DisableKeyResponse> getDisableKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.DisableKeyRequest, io.cipherd.api.v1.DisableKeyResponse> getDisableKeyMethod;
    if ((getDisableKeyMethod = KeyAdminServiceGrpc.getDisableKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getDisableKeyMethod = KeyAdminServiceGrpc.getDisableKeyMethod) == null) {
          KeyAdminServiceGrpc.getDisableKeyMethod = getDisableKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.DisableKeyRequest, io.cipherd.api.v1.DisableKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DisableKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DisableKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.DisableKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("DisableKey"))
              .build();
        }
      }
    }
    return getDisableKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.EnableKeyRequest,
      io.cipherd.api.v1.EnableKeyResponse> getEnableKeyMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "EnableKey",
      requestType = io.cipherd.api.v1.EnableKeyRequest.class,
      responseType = io.cipherd.api.v1.EnableKeyResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.EnableKeyRequest,
      io.cipherd.api.v1.EnableKeyResponse> getEnableKeyMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.EnableKeyRequest, io.cipherd.api.v1.EnableKeyResponse> getEnableKeyMethod;
    if ((getEnableKeyMethod = KeyAdminServiceGrpc.getEnableKeyMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getEnableKeyMethod = KeyAdminServiceGrpc.getEnableKeyMethod) == null) {
          KeyAdminServiceGrpc.getEnableKeyMethod = getEnableKeyMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.EnableKeyRequest, io.cipherd.api.v1.EnableKeyResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "EnableKey"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EnableKeyRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.EnableKeyResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("EnableKey"))
              .build();
        }
      }
    }
    return getEnableKeyMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest,
      io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse> getScheduleKeyVersionDestructionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ScheduleKeyVersionDestruction",
      requestType = io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest.class,
      responseType = io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest,
      io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse> getScheduleKeyVersionDestructionMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest, io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse> getScheduleKeyVersionDestructionMethod;
    if ((getScheduleKeyVersionDestructionMethod = KeyAdminServiceGrpc.getScheduleKeyVersionDestructionMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getScheduleKeyVersionDestructionMethod = KeyAdminServiceGrpc.getScheduleKeyVersionDestructionMethod) == null) {
          KeyAdminServiceGrpc.getScheduleKeyVersionDestructionMethod = getScheduleKeyVersionDestructionMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest, io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ScheduleKeyVersionDestruction"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("ScheduleKeyVersionDestruction"))
              .build();
        }
      }
    }
    return getScheduleKeyVersionDestructionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.CancelKeyVersionDestructionRequest,
      io.cipherd.api.v1.CancelKeyVersionDestructionResponse> getCancelKeyVersionDestructionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CancelKeyVersionDestruction",
      requestType = io.cipherd.api.v1.CancelKeyVersionDestructionRequest.class,
      responseType = io.cipherd.api.v1.CancelKeyVersionDestructionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.CancelKeyVersionDestructionRequest,
      io.cipherd.api.v1.CancelKeyVersionDestructionResponse> getCancelKeyVersionDestructionMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.CancelKeyVersionDestructionRequest, io.cipherd.api.v1.CancelKeyVersionDestructionResponse> getCancelKeyVersionDestructionMethod;
    if ((getCancelKeyVersionDestructionMethod = KeyAdminServiceGrpc.getCancelKeyVersionDestructionMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getCancelKeyVersionDestructionMethod = KeyAdminServiceGrpc.getCancelKeyVersionDestructionMethod) == null) {
          KeyAdminServiceGrpc.getCancelKeyVersionDestructionMethod = getCancelKeyVersionDestructionMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.CancelKeyVersionDestructionRequest, io.cipherd.api.v1.CancelKeyVersionDestructionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CancelKeyVersionDestruction"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CancelKeyVersionDestructionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CancelKeyVersionDestructionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("CancelKeyVersionDestruction"))
              .build();
        }
      }
    }
    return getCancelKeyVersionDestructionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.ScheduleKeyDeletionRequest,
      io.cipherd.api.v1.ScheduleKeyDeletionResponse> getScheduleKeyDeletionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ScheduleKeyDeletion",
      requestType = io.cipherd.api.v1.ScheduleKeyDeletionRequest.class,
      responseType = io.cipherd.api.v1.ScheduleKeyDeletionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.ScheduleKeyDeletionRequest,
      io.cipherd.api.v1.ScheduleKeyDeletionResponse> getScheduleKeyDeletionMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.ScheduleKeyDeletionRequest, io.cipherd.api.v1.ScheduleKeyDeletionResponse> getScheduleKeyDeletionMethod;
    if ((getScheduleKeyDeletionMethod = KeyAdminServiceGrpc.getScheduleKeyDeletionMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getScheduleKeyDeletionMethod = KeyAdminServiceGrpc.getScheduleKeyDeletionMethod) == null) {
          KeyAdminServiceGrpc.getScheduleKeyDeletionMethod = getScheduleKeyDeletionMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.ScheduleKeyDeletionRequest, io.cipherd.api.v1.ScheduleKeyDeletionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ScheduleKeyDeletion"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ScheduleKeyDeletionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.ScheduleKeyDeletionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("ScheduleKeyDeletion"))
              .build();
        }
      }
    }
    return getScheduleKeyDeletionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.CancelKeyDeletionRequest,
      io.cipherd.api.v1.CancelKeyDeletionResponse> getCancelKeyDeletionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CancelKeyDeletion",
      requestType = io.cipherd.api.v1.CancelKeyDeletionRequest.class,
      responseType = io.cipherd.api.v1.CancelKeyDeletionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.CancelKeyDeletionRequest,
      io.cipherd.api.v1.CancelKeyDeletionResponse> getCancelKeyDeletionMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.CancelKeyDeletionRequest, io.cipherd.api.v1.CancelKeyDeletionResponse> getCancelKeyDeletionMethod;
    if ((getCancelKeyDeletionMethod = KeyAdminServiceGrpc.getCancelKeyDeletionMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getCancelKeyDeletionMethod = KeyAdminServiceGrpc.getCancelKeyDeletionMethod) == null) {
          KeyAdminServiceGrpc.getCancelKeyDeletionMethod = getCancelKeyDeletionMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.CancelKeyDeletionRequest, io.cipherd.api.v1.CancelKeyDeletionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CancelKeyDeletion"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CancelKeyDeletionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.CancelKeyDeletionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("CancelKeyDeletion"))
              .build();
        }
      }
    }
    return getCancelKeyDeletionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.cipherd.api.v1.RetireKeyVersionsRequest,
      io.cipherd.api.v1.RetireKeyVersionsResponse> getRetireKeyVersionsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RetireKeyVersions",
      requestType = io.cipherd.api.v1.RetireKeyVersionsRequest.class,
      responseType = io.cipherd.api.v1.RetireKeyVersionsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.cipherd.api.v1.RetireKeyVersionsRequest,
      io.cipherd.api.v1.RetireKeyVersionsResponse> getRetireKeyVersionsMethod() {
    io.grpc.MethodDescriptor<io.cipherd.api.v1.RetireKeyVersionsRequest, io.cipherd.api.v1.RetireKeyVersionsResponse> getRetireKeyVersionsMethod;
    if ((getRetireKeyVersionsMethod = KeyAdminServiceGrpc.getRetireKeyVersionsMethod) == null) {
      synchronized (KeyAdminServiceGrpc.class) {
        if ((getRetireKeyVersionsMethod = KeyAdminServiceGrpc.getRetireKeyVersionsMethod) == null) {
          KeyAdminServiceGrpc.getRetireKeyVersionsMethod = getRetireKeyVersionsMethod =
              io.grpc.MethodDescriptor.<io.cipherd.api.v1.RetireKeyVersionsRequest, io.cipherd.api.v1.RetireKeyVersionsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RetireKeyVersions"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.RetireKeyVersionsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.cipherd.api.v1.RetireKeyVersionsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new KeyAdminServiceMethodDescriptorSupplier("RetireKeyVersions"))
              .build();
        }
      }
    }
    return getRetireKeyVersionsMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static KeyAdminServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceStub>() {
        @java.lang.Override
        public KeyAdminServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new KeyAdminServiceStub(channel, callOptions);
        }
      };
    return KeyAdminServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static KeyAdminServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceBlockingV2Stub>() {
        @java.lang.Override
        public KeyAdminServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new KeyAdminServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return KeyAdminServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static KeyAdminServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceBlockingStub>() {
        @java.lang.Override
        public KeyAdminServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new KeyAdminServiceBlockingStub(channel, callOptions);
        }
      };
    return KeyAdminServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static KeyAdminServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<KeyAdminServiceFutureStub>() {
        @java.lang.Override
        public KeyAdminServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new KeyAdminServiceFutureStub(channel, callOptions);
        }
      };
    return KeyAdminServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateKey creates a key with version 1. ALREADY_EXISTS if the name is taken.
     * </pre>
     */
    default void createKey(io.cipherd.api.v1.CreateKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CreateKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetKey returns a key's versions and policy. NOT_FOUND if there is no such key.
     * </pre>
     */
    default void getKey(io.cipherd.api.v1.GetKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListKeys returns the keys the caller may inspect or administer, in name order, a page at a
     * time; a page token only ever names a key the caller was shown.
     * </pre>
     */
    default void listKeys(io.cipherd.api.v1.ListKeysRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ListKeysResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListKeysMethod(), responseObserver);
    }

    /**
     * <pre>
     * RotateKey adds a new version and makes it current; every older version stays and still decrypts.
     * </pre>
     */
    default void rotateKey(io.cipherd.api.v1.RotateKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.RotateKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRotateKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * UpdateKeyPolicy replaces a key's policy. FAILED_PRECONDITION if a minimum exceeds the current version.
     * </pre>
     */
    default void updateKeyPolicy(io.cipherd.api.v1.UpdateKeyPolicyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.UpdateKeyPolicyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getUpdateKeyPolicyMethod(), responseObserver);
    }

    /**
     * <pre>
     * ImportKey adds caller-supplied key bytes as a new version (creating the key if it does not
     * exist), so data encrypted elsewhere can be decrypted and rewrapped here. With an access policy
     * it needs the import operation, which admin does not include.
     * </pre>
     */
    default void importKey(io.cipherd.api.v1.ImportKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ImportKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getImportKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * CreateImportJob hands out a fresh RSA public key for importing key material wrapped, never in
     * the clear (as AWS KMS, Cloud KMS and Vault take keys): the caller wraps the material for it
     * (CKM_RSA_AES_KEY_WRAP: see ImportWrappingAlgorithm) and passes the result to ImportKey as
     * wrapped_key_material with the job's id. A job imports into the one key it names, opens exactly
     * one ImportKey, and expires; its private key never leaves the server and unwraps nothing else.
     * Needs the import operation.
     * </pre>
     */
    default void createImportJob(io.cipherd.api.v1.CreateImportJobRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CreateImportJobResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateImportJobMethod(), responseObserver);
    }

    /**
     * <pre>
     * SetKeyExportable marks a key exportable, for good: from then on BackupKey may write it out. The
     * flag is never cleared (as Vault Transit's exportable). Needs the admin operation; BackupKey
     * needs export, which admin does not imply, so neither grant alone takes a key out.
     * </pre>
     */
    default void setKeyExportable(io.cipherd.api.v1.SetKeyExportableRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.SetKeyExportableResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSetKeyExportableMethod(), responseObserver);
    }

    /**
     * <pre>
     * BackupKey writes a key whole (every version's material, state and destruction schedule, its
     * policy, state and settings) as a KeyBackupFile wrapped for a recipient RSA public key that the
     * operator keeps offline: RSA-OAEP-SHA-256 of a fresh AES-256 key, then the RFC 5649 key wrap of
     * the serialized KeyBackup under it, the layout of ImportWrappingAlgorithm. Only an exportable key
     * (FAILED_PRECONDITION, KEY_NOT_EXPORTABLE otherwise); destroyed versions are written as destroyed,
     * without bytes. Every backup is an audit record. Needs the export operation.
     * </pre>
     */
    default void backupKey(io.cipherd.api.v1.BackupKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.BackupKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getBackupKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * RestoreKey creates a key from a backup. The recipient key's holder opens the backup file offline
     * and wraps its KeyBackup again for an import job of this server (CreateImportJob for the key's
     * name), as cipherctl keys restore does, so the material never crosses the wire in the clear. The
     * key keeps its version numbers, version states, destruction schedules, policy, state and
     * exportable flag. ALREADY_EXISTS (KEY_ALREADY_EXISTS) if the key exists: a restore never
     * overwrites. A blob that does not unwrap fails with INVALID_ARGUMENT, saying only that. Needs the
     * import operation on key_name, which must be the job's key and the backup's.
     * </pre>
     */
    default void restoreKey(io.cipherd.api.v1.RestoreKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.RestoreKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRestoreKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetKeyCensus reports which versions of a key still see traffic, so an operator knows how far
     * min_decryption_version can be raised without refusing data that is still read.
     * </pre>
     */
    default void getKeyCensus(io.cipherd.api.v1.GetKeyCensusRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetKeyCensusResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetKeyCensusMethod(), responseObserver);
    }

    /**
     * <pre>
     * DisableKey makes a key refuse every cryptographic call until EnableKey; its versions and policy
     * stay. Disabling a disabled key is a no-op.
     * </pre>
     */
    default void disableKey(io.cipherd.api.v1.DisableKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DisableKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDisableKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * EnableKey serves a disabled key again. FAILED_PRECONDITION for a key scheduled for deletion
     * (use CancelKeyDeletion) or deleted.
     * </pre>
     */
    default void enableKey(io.cipherd.api.v1.EnableKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EnableKeyResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getEnableKeyMethod(), responseObserver);
    }

    /**
     * <pre>
     * ScheduleKeyVersionDestruction schedules versions for destruction after a pending window; they
     * refuse every call at once. FAILED_PRECONDITION for the current version. With an access policy
     * it needs the destroy operation, which admin does not include.
     * </pre>
     */
    default void scheduleKeyVersionDestruction(io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getScheduleKeyVersionDestructionMethod(), responseObserver);
    }

    /**
     * <pre>
     * CancelKeyVersionDestruction restores versions scheduled for destruction whose window has not
     * passed. FAILED_PRECONDITION for a version already destroyed. Needs the destroy operation.
     * </pre>
     */
    default void cancelKeyVersionDestruction(io.cipherd.api.v1.CancelKeyVersionDestructionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CancelKeyVersionDestructionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCancelKeyVersionDestructionMethod(), responseObserver);
    }

    /**
     * <pre>
     * ScheduleKeyDeletion schedules every version of a key for destruction after a pending window,
     * leaving its name as a tombstone; the key refuses every call at once. Needs the destroy
     * operation.
     * </pre>
     */
    default void scheduleKeyDeletion(io.cipherd.api.v1.ScheduleKeyDeletionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ScheduleKeyDeletionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getScheduleKeyDeletionMethod(), responseObserver);
    }

    /**
     * <pre>
     * CancelKeyDeletion restores a key scheduled for deletion whose window has not passed; it comes
     * back disabled. Needs the destroy operation.
     * </pre>
     */
    default void cancelKeyDeletion(io.cipherd.api.v1.CancelKeyDeletionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CancelKeyDeletionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCancelKeyDeletionMethod(), responseObserver);
    }

    /**
     * <pre>
     * RetireKeyVersions is the safe path to destroying old versions: it refuses (FAILED_PRECONDITION,
     * listing them) while any version below below_version was used (or failed to decrypt) within the
     * quiet period on any replica, or while an inventory of the data given with the request still
     * counts ciphertexts under one, else raises min_decryption_version to below_version and schedules every older version
     * for destruction, with one check-and-set write. validate_only answers the plan without acting.
     * Needs the destroy operation.
     * </pre>
     */
    default void retireKeyVersions(io.cipherd.api.v1.RetireKeyVersionsRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.RetireKeyVersionsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRetireKeyVersionsMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service KeyAdminService.
   * <pre>
   * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
   * </pre>
   */
  public static abstract class KeyAdminServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return KeyAdminServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service KeyAdminService.
   * <pre>
   * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
   * </pre>
   */
  public static final class KeyAdminServiceStub
      extends io.grpc.stub.AbstractAsyncStub<KeyAdminServiceStub> {
    private KeyAdminServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected KeyAdminServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new KeyAdminServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateKey creates a key with version 1. ALREADY_EXISTS if the name is taken.
     * </pre>
     */
    public void createKey(io.cipherd.api.v1.CreateKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CreateKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetKey returns a key's versions and policy. NOT_FOUND if there is no such key.
     * </pre>
     */
    public void getKey(io.cipherd.api.v1.GetKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListKeys returns the keys the caller may inspect or administer, in name order, a page at a
     * time; a page token only ever names a key the caller was shown.
     * </pre>
     */
    public void listKeys(io.cipherd.api.v1.ListKeysRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ListKeysResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListKeysMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RotateKey adds a new version and makes it current; every older version stays and still decrypts.
     * </pre>
     */
    public void rotateKey(io.cipherd.api.v1.RotateKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.RotateKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRotateKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * UpdateKeyPolicy replaces a key's policy. FAILED_PRECONDITION if a minimum exceeds the current version.
     * </pre>
     */
    public void updateKeyPolicy(io.cipherd.api.v1.UpdateKeyPolicyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.UpdateKeyPolicyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getUpdateKeyPolicyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ImportKey adds caller-supplied key bytes as a new version (creating the key if it does not
     * exist), so data encrypted elsewhere can be decrypted and rewrapped here. With an access policy
     * it needs the import operation, which admin does not include.
     * </pre>
     */
    public void importKey(io.cipherd.api.v1.ImportKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ImportKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getImportKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CreateImportJob hands out a fresh RSA public key for importing key material wrapped, never in
     * the clear (as AWS KMS, Cloud KMS and Vault take keys): the caller wraps the material for it
     * (CKM_RSA_AES_KEY_WRAP: see ImportWrappingAlgorithm) and passes the result to ImportKey as
     * wrapped_key_material with the job's id. A job imports into the one key it names, opens exactly
     * one ImportKey, and expires; its private key never leaves the server and unwraps nothing else.
     * Needs the import operation.
     * </pre>
     */
    public void createImportJob(io.cipherd.api.v1.CreateImportJobRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CreateImportJobResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateImportJobMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SetKeyExportable marks a key exportable, for good: from then on BackupKey may write it out. The
     * flag is never cleared (as Vault Transit's exportable). Needs the admin operation; BackupKey
     * needs export, which admin does not imply, so neither grant alone takes a key out.
     * </pre>
     */
    public void setKeyExportable(io.cipherd.api.v1.SetKeyExportableRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.SetKeyExportableResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSetKeyExportableMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * BackupKey writes a key whole (every version's material, state and destruction schedule, its
     * policy, state and settings) as a KeyBackupFile wrapped for a recipient RSA public key that the
     * operator keeps offline: RSA-OAEP-SHA-256 of a fresh AES-256 key, then the RFC 5649 key wrap of
     * the serialized KeyBackup under it, the layout of ImportWrappingAlgorithm. Only an exportable key
     * (FAILED_PRECONDITION, KEY_NOT_EXPORTABLE otherwise); destroyed versions are written as destroyed,
     * without bytes. Every backup is an audit record. Needs the export operation.
     * </pre>
     */
    public void backupKey(io.cipherd.api.v1.BackupKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.BackupKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getBackupKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RestoreKey creates a key from a backup. The recipient key's holder opens the backup file offline
     * and wraps its KeyBackup again for an import job of this server (CreateImportJob for the key's
     * name), as cipherctl keys restore does, so the material never crosses the wire in the clear. The
     * key keeps its version numbers, version states, destruction schedules, policy, state and
     * exportable flag. ALREADY_EXISTS (KEY_ALREADY_EXISTS) if the key exists: a restore never
     * overwrites. A blob that does not unwrap fails with INVALID_ARGUMENT, saying only that. Needs the
     * import operation on key_name, which must be the job's key and the backup's.
     * </pre>
     */
    public void restoreKey(io.cipherd.api.v1.RestoreKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.RestoreKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRestoreKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetKeyCensus reports which versions of a key still see traffic, so an operator knows how far
     * min_decryption_version can be raised without refusing data that is still read.
     * </pre>
     */
    public void getKeyCensus(io.cipherd.api.v1.GetKeyCensusRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetKeyCensusResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetKeyCensusMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DisableKey makes a key refuse every cryptographic call until EnableKey; its versions and policy
     * stay. Disabling a disabled key is a no-op.
     * </pre>
     */
    public void disableKey(io.cipherd.api.v1.DisableKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.DisableKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDisableKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * EnableKey serves a disabled key again. FAILED_PRECONDITION for a key scheduled for deletion
     * (use CancelKeyDeletion) or deleted.
     * </pre>
     */
    public void enableKey(io.cipherd.api.v1.EnableKeyRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.EnableKeyResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getEnableKeyMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ScheduleKeyVersionDestruction schedules versions for destruction after a pending window; they
     * refuse every call at once. FAILED_PRECONDITION for the current version. With an access policy
     * it needs the destroy operation, which admin does not include.
     * </pre>
     */
    public void scheduleKeyVersionDestruction(io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getScheduleKeyVersionDestructionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CancelKeyVersionDestruction restores versions scheduled for destruction whose window has not
     * passed. FAILED_PRECONDITION for a version already destroyed. Needs the destroy operation.
     * </pre>
     */
    public void cancelKeyVersionDestruction(io.cipherd.api.v1.CancelKeyVersionDestructionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CancelKeyVersionDestructionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCancelKeyVersionDestructionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ScheduleKeyDeletion schedules every version of a key for destruction after a pending window,
     * leaving its name as a tombstone; the key refuses every call at once. Needs the destroy
     * operation.
     * </pre>
     */
    public void scheduleKeyDeletion(io.cipherd.api.v1.ScheduleKeyDeletionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.ScheduleKeyDeletionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getScheduleKeyDeletionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CancelKeyDeletion restores a key scheduled for deletion whose window has not passed; it comes
     * back disabled. Needs the destroy operation.
     * </pre>
     */
    public void cancelKeyDeletion(io.cipherd.api.v1.CancelKeyDeletionRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.CancelKeyDeletionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCancelKeyDeletionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RetireKeyVersions is the safe path to destroying old versions: it refuses (FAILED_PRECONDITION,
     * listing them) while any version below below_version was used (or failed to decrypt) within the
     * quiet period on any replica, or while an inventory of the data given with the request still
     * counts ciphertexts under one, else raises min_decryption_version to below_version and schedules every older version
     * for destruction, with one check-and-set write. validate_only answers the plan without acting.
     * Needs the destroy operation.
     * </pre>
     */
    public void retireKeyVersions(io.cipherd.api.v1.RetireKeyVersionsRequest request,
        io.grpc.stub.StreamObserver<io.cipherd.api.v1.RetireKeyVersionsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRetireKeyVersionsMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service KeyAdminService.
   * <pre>
   * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
   * </pre>
   */
  public static final class KeyAdminServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<KeyAdminServiceBlockingV2Stub> {
    private KeyAdminServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected KeyAdminServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new KeyAdminServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateKey creates a key with version 1. ALREADY_EXISTS if the name is taken.
     * </pre>
     */
    public io.cipherd.api.v1.CreateKeyResponse createKey(io.cipherd.api.v1.CreateKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetKey returns a key's versions and policy. NOT_FOUND if there is no such key.
     * </pre>
     */
    public io.cipherd.api.v1.GetKeyResponse getKey(io.cipherd.api.v1.GetKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListKeys returns the keys the caller may inspect or administer, in name order, a page at a
     * time; a page token only ever names a key the caller was shown.
     * </pre>
     */
    public io.cipherd.api.v1.ListKeysResponse listKeys(io.cipherd.api.v1.ListKeysRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListKeysMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RotateKey adds a new version and makes it current; every older version stays and still decrypts.
     * </pre>
     */
    public io.cipherd.api.v1.RotateKeyResponse rotateKey(io.cipherd.api.v1.RotateKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRotateKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * UpdateKeyPolicy replaces a key's policy. FAILED_PRECONDITION if a minimum exceeds the current version.
     * </pre>
     */
    public io.cipherd.api.v1.UpdateKeyPolicyResponse updateKeyPolicy(io.cipherd.api.v1.UpdateKeyPolicyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getUpdateKeyPolicyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ImportKey adds caller-supplied key bytes as a new version (creating the key if it does not
     * exist), so data encrypted elsewhere can be decrypted and rewrapped here. With an access policy
     * it needs the import operation, which admin does not include.
     * </pre>
     */
    public io.cipherd.api.v1.ImportKeyResponse importKey(io.cipherd.api.v1.ImportKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getImportKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CreateImportJob hands out a fresh RSA public key for importing key material wrapped, never in
     * the clear (as AWS KMS, Cloud KMS and Vault take keys): the caller wraps the material for it
     * (CKM_RSA_AES_KEY_WRAP: see ImportWrappingAlgorithm) and passes the result to ImportKey as
     * wrapped_key_material with the job's id. A job imports into the one key it names, opens exactly
     * one ImportKey, and expires; its private key never leaves the server and unwraps nothing else.
     * Needs the import operation.
     * </pre>
     */
    public io.cipherd.api.v1.CreateImportJobResponse createImportJob(io.cipherd.api.v1.CreateImportJobRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateImportJobMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SetKeyExportable marks a key exportable, for good: from then on BackupKey may write it out. The
     * flag is never cleared (as Vault Transit's exportable). Needs the admin operation; BackupKey
     * needs export, which admin does not imply, so neither grant alone takes a key out.
     * </pre>
     */
    public io.cipherd.api.v1.SetKeyExportableResponse setKeyExportable(io.cipherd.api.v1.SetKeyExportableRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSetKeyExportableMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * BackupKey writes a key whole (every version's material, state and destruction schedule, its
     * policy, state and settings) as a KeyBackupFile wrapped for a recipient RSA public key that the
     * operator keeps offline: RSA-OAEP-SHA-256 of a fresh AES-256 key, then the RFC 5649 key wrap of
     * the serialized KeyBackup under it, the layout of ImportWrappingAlgorithm. Only an exportable key
     * (FAILED_PRECONDITION, KEY_NOT_EXPORTABLE otherwise); destroyed versions are written as destroyed,
     * without bytes. Every backup is an audit record. Needs the export operation.
     * </pre>
     */
    public io.cipherd.api.v1.BackupKeyResponse backupKey(io.cipherd.api.v1.BackupKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getBackupKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RestoreKey creates a key from a backup. The recipient key's holder opens the backup file offline
     * and wraps its KeyBackup again for an import job of this server (CreateImportJob for the key's
     * name), as cipherctl keys restore does, so the material never crosses the wire in the clear. The
     * key keeps its version numbers, version states, destruction schedules, policy, state and
     * exportable flag. ALREADY_EXISTS (KEY_ALREADY_EXISTS) if the key exists: a restore never
     * overwrites. A blob that does not unwrap fails with INVALID_ARGUMENT, saying only that. Needs the
     * import operation on key_name, which must be the job's key and the backup's.
     * </pre>
     */
    public io.cipherd.api.v1.RestoreKeyResponse restoreKey(io.cipherd.api.v1.RestoreKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRestoreKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetKeyCensus reports which versions of a key still see traffic, so an operator knows how far
     * min_decryption_version can be raised without refusing data that is still read.
     * </pre>
     */
    public io.cipherd.api.v1.GetKeyCensusResponse getKeyCensus(io.cipherd.api.v1.GetKeyCensusRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetKeyCensusMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DisableKey makes a key refuse every cryptographic call until EnableKey; its versions and policy
     * stay. Disabling a disabled key is a no-op.
     * </pre>
     */
    public io.cipherd.api.v1.DisableKeyResponse disableKey(io.cipherd.api.v1.DisableKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDisableKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EnableKey serves a disabled key again. FAILED_PRECONDITION for a key scheduled for deletion
     * (use CancelKeyDeletion) or deleted.
     * </pre>
     */
    public io.cipherd.api.v1.EnableKeyResponse enableKey(io.cipherd.api.v1.EnableKeyRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getEnableKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ScheduleKeyVersionDestruction schedules versions for destruction after a pending window; they
     * refuse every call at once. FAILED_PRECONDITION for the current version. With an access policy
     * it needs the destroy operation, which admin does not include.
     * </pre>
     */
    public io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse scheduleKeyVersionDestruction(io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getScheduleKeyVersionDestructionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CancelKeyVersionDestruction restores versions scheduled for destruction whose window has not
     * passed. FAILED_PRECONDITION for a version already destroyed. Needs the destroy operation.
     * </pre>
     */
    public io.cipherd.api.v1.CancelKeyVersionDestructionResponse cancelKeyVersionDestruction(io.cipherd.api.v1.CancelKeyVersionDestructionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCancelKeyVersionDestructionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ScheduleKeyDeletion schedules every version of a key for destruction after a pending window,
     * leaving its name as a tombstone; the key refuses every call at once. Needs the destroy
     * operation.
     * </pre>
     */
    public io.cipherd.api.v1.ScheduleKeyDeletionResponse scheduleKeyDeletion(io.cipherd.api.v1.ScheduleKeyDeletionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getScheduleKeyDeletionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CancelKeyDeletion restores a key scheduled for deletion whose window has not passed; it comes
     * back disabled. Needs the destroy operation.
     * </pre>
     */
    public io.cipherd.api.v1.CancelKeyDeletionResponse cancelKeyDeletion(io.cipherd.api.v1.CancelKeyDeletionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCancelKeyDeletionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RetireKeyVersions is the safe path to destroying old versions: it refuses (FAILED_PRECONDITION,
     * listing them) while any version below below_version was used (or failed to decrypt) within the
     * quiet period on any replica, or while an inventory of the data given with the request still
     * counts ciphertexts under one, else raises min_decryption_version to below_version and schedules every older version
     * for destruction, with one check-and-set write. validate_only answers the plan without acting.
     * Needs the destroy operation.
     * </pre>
     */
    public io.cipherd.api.v1.RetireKeyVersionsResponse retireKeyVersions(io.cipherd.api.v1.RetireKeyVersionsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRetireKeyVersionsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service KeyAdminService.
   * <pre>
   * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
   * </pre>
   */
  public static final class KeyAdminServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<KeyAdminServiceBlockingStub> {
    private KeyAdminServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected KeyAdminServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new KeyAdminServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateKey creates a key with version 1. ALREADY_EXISTS if the name is taken.
     * </pre>
     */
    public io.cipherd.api.v1.CreateKeyResponse createKey(io.cipherd.api.v1.CreateKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetKey returns a key's versions and policy. NOT_FOUND if there is no such key.
     * </pre>
     */
    public io.cipherd.api.v1.GetKeyResponse getKey(io.cipherd.api.v1.GetKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListKeys returns the keys the caller may inspect or administer, in name order, a page at a
     * time; a page token only ever names a key the caller was shown.
     * </pre>
     */
    public io.cipherd.api.v1.ListKeysResponse listKeys(io.cipherd.api.v1.ListKeysRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListKeysMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RotateKey adds a new version and makes it current; every older version stays and still decrypts.
     * </pre>
     */
    public io.cipherd.api.v1.RotateKeyResponse rotateKey(io.cipherd.api.v1.RotateKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRotateKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * UpdateKeyPolicy replaces a key's policy. FAILED_PRECONDITION if a minimum exceeds the current version.
     * </pre>
     */
    public io.cipherd.api.v1.UpdateKeyPolicyResponse updateKeyPolicy(io.cipherd.api.v1.UpdateKeyPolicyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getUpdateKeyPolicyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ImportKey adds caller-supplied key bytes as a new version (creating the key if it does not
     * exist), so data encrypted elsewhere can be decrypted and rewrapped here. With an access policy
     * it needs the import operation, which admin does not include.
     * </pre>
     */
    public io.cipherd.api.v1.ImportKeyResponse importKey(io.cipherd.api.v1.ImportKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getImportKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CreateImportJob hands out a fresh RSA public key for importing key material wrapped, never in
     * the clear (as AWS KMS, Cloud KMS and Vault take keys): the caller wraps the material for it
     * (CKM_RSA_AES_KEY_WRAP: see ImportWrappingAlgorithm) and passes the result to ImportKey as
     * wrapped_key_material with the job's id. A job imports into the one key it names, opens exactly
     * one ImportKey, and expires; its private key never leaves the server and unwraps nothing else.
     * Needs the import operation.
     * </pre>
     */
    public io.cipherd.api.v1.CreateImportJobResponse createImportJob(io.cipherd.api.v1.CreateImportJobRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateImportJobMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SetKeyExportable marks a key exportable, for good: from then on BackupKey may write it out. The
     * flag is never cleared (as Vault Transit's exportable). Needs the admin operation; BackupKey
     * needs export, which admin does not imply, so neither grant alone takes a key out.
     * </pre>
     */
    public io.cipherd.api.v1.SetKeyExportableResponse setKeyExportable(io.cipherd.api.v1.SetKeyExportableRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSetKeyExportableMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * BackupKey writes a key whole (every version's material, state and destruction schedule, its
     * policy, state and settings) as a KeyBackupFile wrapped for a recipient RSA public key that the
     * operator keeps offline: RSA-OAEP-SHA-256 of a fresh AES-256 key, then the RFC 5649 key wrap of
     * the serialized KeyBackup under it, the layout of ImportWrappingAlgorithm. Only an exportable key
     * (FAILED_PRECONDITION, KEY_NOT_EXPORTABLE otherwise); destroyed versions are written as destroyed,
     * without bytes. Every backup is an audit record. Needs the export operation.
     * </pre>
     */
    public io.cipherd.api.v1.BackupKeyResponse backupKey(io.cipherd.api.v1.BackupKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getBackupKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RestoreKey creates a key from a backup. The recipient key's holder opens the backup file offline
     * and wraps its KeyBackup again for an import job of this server (CreateImportJob for the key's
     * name), as cipherctl keys restore does, so the material never crosses the wire in the clear. The
     * key keeps its version numbers, version states, destruction schedules, policy, state and
     * exportable flag. ALREADY_EXISTS (KEY_ALREADY_EXISTS) if the key exists: a restore never
     * overwrites. A blob that does not unwrap fails with INVALID_ARGUMENT, saying only that. Needs the
     * import operation on key_name, which must be the job's key and the backup's.
     * </pre>
     */
    public io.cipherd.api.v1.RestoreKeyResponse restoreKey(io.cipherd.api.v1.RestoreKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRestoreKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetKeyCensus reports which versions of a key still see traffic, so an operator knows how far
     * min_decryption_version can be raised without refusing data that is still read.
     * </pre>
     */
    public io.cipherd.api.v1.GetKeyCensusResponse getKeyCensus(io.cipherd.api.v1.GetKeyCensusRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetKeyCensusMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DisableKey makes a key refuse every cryptographic call until EnableKey; its versions and policy
     * stay. Disabling a disabled key is a no-op.
     * </pre>
     */
    public io.cipherd.api.v1.DisableKeyResponse disableKey(io.cipherd.api.v1.DisableKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDisableKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * EnableKey serves a disabled key again. FAILED_PRECONDITION for a key scheduled for deletion
     * (use CancelKeyDeletion) or deleted.
     * </pre>
     */
    public io.cipherd.api.v1.EnableKeyResponse enableKey(io.cipherd.api.v1.EnableKeyRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getEnableKeyMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ScheduleKeyVersionDestruction schedules versions for destruction after a pending window; they
     * refuse every call at once. FAILED_PRECONDITION for the current version. With an access policy
     * it needs the destroy operation, which admin does not include.
     * </pre>
     */
    public io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse scheduleKeyVersionDestruction(io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getScheduleKeyVersionDestructionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CancelKeyVersionDestruction restores versions scheduled for destruction whose window has not
     * passed. FAILED_PRECONDITION for a version already destroyed. Needs the destroy operation.
     * </pre>
     */
    public io.cipherd.api.v1.CancelKeyVersionDestructionResponse cancelKeyVersionDestruction(io.cipherd.api.v1.CancelKeyVersionDestructionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCancelKeyVersionDestructionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ScheduleKeyDeletion schedules every version of a key for destruction after a pending window,
     * leaving its name as a tombstone; the key refuses every call at once. Needs the destroy
     * operation.
     * </pre>
     */
    public io.cipherd.api.v1.ScheduleKeyDeletionResponse scheduleKeyDeletion(io.cipherd.api.v1.ScheduleKeyDeletionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getScheduleKeyDeletionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CancelKeyDeletion restores a key scheduled for deletion whose window has not passed; it comes
     * back disabled. Needs the destroy operation.
     * </pre>
     */
    public io.cipherd.api.v1.CancelKeyDeletionResponse cancelKeyDeletion(io.cipherd.api.v1.CancelKeyDeletionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCancelKeyDeletionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RetireKeyVersions is the safe path to destroying old versions: it refuses (FAILED_PRECONDITION,
     * listing them) while any version below below_version was used (or failed to decrypt) within the
     * quiet period on any replica, or while an inventory of the data given with the request still
     * counts ciphertexts under one, else raises min_decryption_version to below_version and schedules every older version
     * for destruction, with one check-and-set write. validate_only answers the plan without acting.
     * Needs the destroy operation.
     * </pre>
     */
    public io.cipherd.api.v1.RetireKeyVersionsResponse retireKeyVersions(io.cipherd.api.v1.RetireKeyVersionsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRetireKeyVersionsMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service KeyAdminService.
   * <pre>
   * KeyAdminService manages named, versioned keys. Its answers carry metadata only, never key bytes.
   * </pre>
   */
  public static final class KeyAdminServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<KeyAdminServiceFutureStub> {
    private KeyAdminServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected KeyAdminServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new KeyAdminServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateKey creates a key with version 1. ALREADY_EXISTS if the name is taken.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.CreateKeyResponse> createKey(
        io.cipherd.api.v1.CreateKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetKey returns a key's versions and policy. NOT_FOUND if there is no such key.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.GetKeyResponse> getKey(
        io.cipherd.api.v1.GetKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListKeys returns the keys the caller may inspect or administer, in name order, a page at a
     * time; a page token only ever names a key the caller was shown.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ListKeysResponse> listKeys(
        io.cipherd.api.v1.ListKeysRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListKeysMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RotateKey adds a new version and makes it current; every older version stays and still decrypts.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.RotateKeyResponse> rotateKey(
        io.cipherd.api.v1.RotateKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRotateKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * UpdateKeyPolicy replaces a key's policy. FAILED_PRECONDITION if a minimum exceeds the current version.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.UpdateKeyPolicyResponse> updateKeyPolicy(
        io.cipherd.api.v1.UpdateKeyPolicyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getUpdateKeyPolicyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ImportKey adds caller-supplied key bytes as a new version (creating the key if it does not
     * exist), so data encrypted elsewhere can be decrypted and rewrapped here. With an access policy
     * it needs the import operation, which admin does not include.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ImportKeyResponse> importKey(
        io.cipherd.api.v1.ImportKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getImportKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CreateImportJob hands out a fresh RSA public key for importing key material wrapped, never in
     * the clear (as AWS KMS, Cloud KMS and Vault take keys): the caller wraps the material for it
     * (CKM_RSA_AES_KEY_WRAP: see ImportWrappingAlgorithm) and passes the result to ImportKey as
     * wrapped_key_material with the job's id. A job imports into the one key it names, opens exactly
     * one ImportKey, and expires; its private key never leaves the server and unwraps nothing else.
     * Needs the import operation.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.CreateImportJobResponse> createImportJob(
        io.cipherd.api.v1.CreateImportJobRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateImportJobMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * SetKeyExportable marks a key exportable, for good: from then on BackupKey may write it out. The
     * flag is never cleared (as Vault Transit's exportable). Needs the admin operation; BackupKey
     * needs export, which admin does not imply, so neither grant alone takes a key out.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.SetKeyExportableResponse> setKeyExportable(
        io.cipherd.api.v1.SetKeyExportableRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSetKeyExportableMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * BackupKey writes a key whole (every version's material, state and destruction schedule, its
     * policy, state and settings) as a KeyBackupFile wrapped for a recipient RSA public key that the
     * operator keeps offline: RSA-OAEP-SHA-256 of a fresh AES-256 key, then the RFC 5649 key wrap of
     * the serialized KeyBackup under it, the layout of ImportWrappingAlgorithm. Only an exportable key
     * (FAILED_PRECONDITION, KEY_NOT_EXPORTABLE otherwise); destroyed versions are written as destroyed,
     * without bytes. Every backup is an audit record. Needs the export operation.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.BackupKeyResponse> backupKey(
        io.cipherd.api.v1.BackupKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getBackupKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RestoreKey creates a key from a backup. The recipient key's holder opens the backup file offline
     * and wraps its KeyBackup again for an import job of this server (CreateImportJob for the key's
     * name), as cipherctl keys restore does, so the material never crosses the wire in the clear. The
     * key keeps its version numbers, version states, destruction schedules, policy, state and
     * exportable flag. ALREADY_EXISTS (KEY_ALREADY_EXISTS) if the key exists: a restore never
     * overwrites. A blob that does not unwrap fails with INVALID_ARGUMENT, saying only that. Needs the
     * import operation on key_name, which must be the job's key and the backup's.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.RestoreKeyResponse> restoreKey(
        io.cipherd.api.v1.RestoreKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRestoreKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetKeyCensus reports which versions of a key still see traffic, so an operator knows how far
     * min_decryption_version can be raised without refusing data that is still read.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.GetKeyCensusResponse> getKeyCensus(
        io.cipherd.api.v1.GetKeyCensusRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetKeyCensusMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DisableKey makes a key refuse every cryptographic call until EnableKey; its versions and policy
     * stay. Disabling a disabled key is a no-op.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.DisableKeyResponse> disableKey(
        io.cipherd.api.v1.DisableKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDisableKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * EnableKey serves a disabled key again. FAILED_PRECONDITION for a key scheduled for deletion
     * (use CancelKeyDeletion) or deleted.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.EnableKeyResponse> enableKey(
        io.cipherd.api.v1.EnableKeyRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getEnableKeyMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ScheduleKeyVersionDestruction schedules versions for destruction after a pending window; they
     * refuse every call at once. FAILED_PRECONDITION for the current version. With an access policy
     * it needs the destroy operation, which admin does not include.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse> scheduleKeyVersionDestruction(
        io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getScheduleKeyVersionDestructionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CancelKeyVersionDestruction restores versions scheduled for destruction whose window has not
     * passed. FAILED_PRECONDITION for a version already destroyed. Needs the destroy operation.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.CancelKeyVersionDestructionResponse> cancelKeyVersionDestruction(
        io.cipherd.api.v1.CancelKeyVersionDestructionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCancelKeyVersionDestructionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ScheduleKeyDeletion schedules every version of a key for destruction after a pending window,
     * leaving its name as a tombstone; the key refuses every call at once. Needs the destroy
     * operation.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.ScheduleKeyDeletionResponse> scheduleKeyDeletion(
        io.cipherd.api.v1.ScheduleKeyDeletionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getScheduleKeyDeletionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CancelKeyDeletion restores a key scheduled for deletion whose window has not passed; it comes
     * back disabled. Needs the destroy operation.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.CancelKeyDeletionResponse> cancelKeyDeletion(
        io.cipherd.api.v1.CancelKeyDeletionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCancelKeyDeletionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RetireKeyVersions is the safe path to destroying old versions: it refuses (FAILED_PRECONDITION,
     * listing them) while any version below below_version was used (or failed to decrypt) within the
     * quiet period on any replica, or while an inventory of the data given with the request still
     * counts ciphertexts under one, else raises min_decryption_version to below_version and schedules every older version
     * for destruction, with one check-and-set write. validate_only answers the plan without acting.
     * Needs the destroy operation.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.cipherd.api.v1.RetireKeyVersionsResponse> retireKeyVersions(
        io.cipherd.api.v1.RetireKeyVersionsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRetireKeyVersionsMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_KEY = 0;
  private static final int METHODID_GET_KEY = 1;
  private static final int METHODID_LIST_KEYS = 2;
  private static final int METHODID_ROTATE_KEY = 3;
  private static final int METHODID_UPDATE_KEY_POLICY = 4;
  private static final int METHODID_IMPORT_KEY = 5;
  private static final int METHODID_CREATE_IMPORT_JOB = 6;
  private static final int METHODID_SET_KEY_EXPORTABLE = 7;
  private static final int METHODID_BACKUP_KEY = 8;
  private static final int METHODID_RESTORE_KEY = 9;
  private static final int METHODID_GET_KEY_CENSUS = 10;
  private static final int METHODID_DISABLE_KEY = 11;
  private static final int METHODID_ENABLE_KEY = 12;
  private static final int METHODID_SCHEDULE_KEY_VERSION_DESTRUCTION = 13;
  private static final int METHODID_CANCEL_KEY_VERSION_DESTRUCTION = 14;
  private static final int METHODID_SCHEDULE_KEY_DELETION = 15;
  private static final int METHODID_CANCEL_KEY_DELETION = 16;
  private static final int METHODID_RETIRE_KEY_VERSIONS = 17;

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
        case METHODID_CREATE_KEY:
          serviceImpl.createKey((io.cipherd.api.v1.CreateKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.CreateKeyResponse>) responseObserver);
          break;
        case METHODID_GET_KEY:
          serviceImpl.getKey((io.cipherd.api.v1.GetKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetKeyResponse>) responseObserver);
          break;
        case METHODID_LIST_KEYS:
          serviceImpl.listKeys((io.cipherd.api.v1.ListKeysRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ListKeysResponse>) responseObserver);
          break;
        case METHODID_ROTATE_KEY:
          serviceImpl.rotateKey((io.cipherd.api.v1.RotateKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.RotateKeyResponse>) responseObserver);
          break;
        case METHODID_UPDATE_KEY_POLICY:
          serviceImpl.updateKeyPolicy((io.cipherd.api.v1.UpdateKeyPolicyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.UpdateKeyPolicyResponse>) responseObserver);
          break;
        case METHODID_IMPORT_KEY:
          serviceImpl.importKey((io.cipherd.api.v1.ImportKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ImportKeyResponse>) responseObserver);
          break;
        case METHODID_CREATE_IMPORT_JOB:
          serviceImpl.createImportJob((io.cipherd.api.v1.CreateImportJobRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.CreateImportJobResponse>) responseObserver);
          break;
        case METHODID_SET_KEY_EXPORTABLE:
          serviceImpl.setKeyExportable((io.cipherd.api.v1.SetKeyExportableRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.SetKeyExportableResponse>) responseObserver);
          break;
        case METHODID_BACKUP_KEY:
          serviceImpl.backupKey((io.cipherd.api.v1.BackupKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.BackupKeyResponse>) responseObserver);
          break;
        case METHODID_RESTORE_KEY:
          serviceImpl.restoreKey((io.cipherd.api.v1.RestoreKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.RestoreKeyResponse>) responseObserver);
          break;
        case METHODID_GET_KEY_CENSUS:
          serviceImpl.getKeyCensus((io.cipherd.api.v1.GetKeyCensusRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.GetKeyCensusResponse>) responseObserver);
          break;
        case METHODID_DISABLE_KEY:
          serviceImpl.disableKey((io.cipherd.api.v1.DisableKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.DisableKeyResponse>) responseObserver);
          break;
        case METHODID_ENABLE_KEY:
          serviceImpl.enableKey((io.cipherd.api.v1.EnableKeyRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.EnableKeyResponse>) responseObserver);
          break;
        case METHODID_SCHEDULE_KEY_VERSION_DESTRUCTION:
          serviceImpl.scheduleKeyVersionDestruction((io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse>) responseObserver);
          break;
        case METHODID_CANCEL_KEY_VERSION_DESTRUCTION:
          serviceImpl.cancelKeyVersionDestruction((io.cipherd.api.v1.CancelKeyVersionDestructionRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.CancelKeyVersionDestructionResponse>) responseObserver);
          break;
        case METHODID_SCHEDULE_KEY_DELETION:
          serviceImpl.scheduleKeyDeletion((io.cipherd.api.v1.ScheduleKeyDeletionRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.ScheduleKeyDeletionResponse>) responseObserver);
          break;
        case METHODID_CANCEL_KEY_DELETION:
          serviceImpl.cancelKeyDeletion((io.cipherd.api.v1.CancelKeyDeletionRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.CancelKeyDeletionResponse>) responseObserver);
          break;
        case METHODID_RETIRE_KEY_VERSIONS:
          serviceImpl.retireKeyVersions((io.cipherd.api.v1.RetireKeyVersionsRequest) request,
              (io.grpc.stub.StreamObserver<io.cipherd.api.v1.RetireKeyVersionsResponse>) responseObserver);
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
          getCreateKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.CreateKeyRequest,
              io.cipherd.api.v1.CreateKeyResponse>(
                service, METHODID_CREATE_KEY)))
        .addMethod(
          getGetKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.GetKeyRequest,
              io.cipherd.api.v1.GetKeyResponse>(
                service, METHODID_GET_KEY)))
        .addMethod(
          getListKeysMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ListKeysRequest,
              io.cipherd.api.v1.ListKeysResponse>(
                service, METHODID_LIST_KEYS)))
        .addMethod(
          getRotateKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.RotateKeyRequest,
              io.cipherd.api.v1.RotateKeyResponse>(
                service, METHODID_ROTATE_KEY)))
        .addMethod(
          getUpdateKeyPolicyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.UpdateKeyPolicyRequest,
              io.cipherd.api.v1.UpdateKeyPolicyResponse>(
                service, METHODID_UPDATE_KEY_POLICY)))
        .addMethod(
          getImportKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ImportKeyRequest,
              io.cipherd.api.v1.ImportKeyResponse>(
                service, METHODID_IMPORT_KEY)))
        .addMethod(
          getCreateImportJobMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.CreateImportJobRequest,
              io.cipherd.api.v1.CreateImportJobResponse>(
                service, METHODID_CREATE_IMPORT_JOB)))
        .addMethod(
          getSetKeyExportableMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.SetKeyExportableRequest,
              io.cipherd.api.v1.SetKeyExportableResponse>(
                service, METHODID_SET_KEY_EXPORTABLE)))
        .addMethod(
          getBackupKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.BackupKeyRequest,
              io.cipherd.api.v1.BackupKeyResponse>(
                service, METHODID_BACKUP_KEY)))
        .addMethod(
          getRestoreKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.RestoreKeyRequest,
              io.cipherd.api.v1.RestoreKeyResponse>(
                service, METHODID_RESTORE_KEY)))
        .addMethod(
          getGetKeyCensusMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.GetKeyCensusRequest,
              io.cipherd.api.v1.GetKeyCensusResponse>(
                service, METHODID_GET_KEY_CENSUS)))
        .addMethod(
          getDisableKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.DisableKeyRequest,
              io.cipherd.api.v1.DisableKeyResponse>(
                service, METHODID_DISABLE_KEY)))
        .addMethod(
          getEnableKeyMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.EnableKeyRequest,
              io.cipherd.api.v1.EnableKeyResponse>(
                service, METHODID_ENABLE_KEY)))
        .addMethod(
          getScheduleKeyVersionDestructionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest,
              io.cipherd.api.v1.ScheduleKeyVersionDestructionResponse>(
                service, METHODID_SCHEDULE_KEY_VERSION_DESTRUCTION)))
        .addMethod(
          getCancelKeyVersionDestructionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.CancelKeyVersionDestructionRequest,
              io.cipherd.api.v1.CancelKeyVersionDestructionResponse>(
                service, METHODID_CANCEL_KEY_VERSION_DESTRUCTION)))
        .addMethod(
          getScheduleKeyDeletionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.ScheduleKeyDeletionRequest,
              io.cipherd.api.v1.ScheduleKeyDeletionResponse>(
                service, METHODID_SCHEDULE_KEY_DELETION)))
        .addMethod(
          getCancelKeyDeletionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.CancelKeyDeletionRequest,
              io.cipherd.api.v1.CancelKeyDeletionResponse>(
                service, METHODID_CANCEL_KEY_DELETION)))
        .addMethod(
          getRetireKeyVersionsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.cipherd.api.v1.RetireKeyVersionsRequest,
              io.cipherd.api.v1.RetireKeyVersionsResponse>(
                service, METHODID_RETIRE_KEY_VERSIONS)))
        .build();
  }

  private static abstract class KeyAdminServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    KeyAdminServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return io.cipherd.api.v1.KeyAdminServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("KeyAdminService");
    }
  }

  private static final class KeyAdminServiceFileDescriptorSupplier
      extends KeyAdminServiceBaseDescriptorSupplier {
    KeyAdminServiceFileDescriptorSupplier() {}
  }

  private static final class KeyAdminServiceMethodDescriptorSupplier
      extends KeyAdminServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    KeyAdminServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (KeyAdminServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new KeyAdminServiceFileDescriptorSupplier())
              .addMethod(getCreateKeyMethod())
              .addMethod(getGetKeyMethod())
              .addMethod(getListKeysMethod())
              .addMethod(getRotateKeyMethod())
              .addMethod(getUpdateKeyPolicyMethod())
              .addMethod(getImportKeyMethod())
              .addMethod(getCreateImportJobMethod())
              .addMethod(getSetKeyExportableMethod())
              .addMethod(getBackupKeyMethod())
              .addMethod(getRestoreKeyMethod())
              .addMethod(getGetKeyCensusMethod())
              .addMethod(getDisableKeyMethod())
              .addMethod(getEnableKeyMethod())
              .addMethod(getScheduleKeyVersionDestructionMethod())
              .addMethod(getCancelKeyVersionDestructionMethod())
              .addMethod(getScheduleKeyDeletionMethod())
              .addMethod(getCancelKeyDeletionMethod())
              .addMethod(getRetireKeyVersionsMethod())
              .build();
        }
      }
    }
    return result;
  }
}
