package io.cipherd.server.api;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.rpc.ErrorDetailsProto;
import io.cipherd.api.v1.ErrorReasonProto;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.protobuf.ProtoServiceDescriptorSupplier;

/**
 * Server reflection that also serves the schema of cipherd's errors: {@code
 * google/rpc/error_details.proto} (the ErrorInfo in a failed call's status details) and {@code
 * cipherd/v1/error_reason.proto} (the values of its reason), so grpcurl shows a failed call's
 * reason rather than an unrecognized blob. grpc-java's reflection serves only the files reachable
 * from a registered service's file, and no request or response names those two; so the reflection
 * service's own definition points at a {@value #ROOT} that imports its real file and the two error
 * files and declares nothing. Every file served stays exactly as generated. Each reflection service
 * (v1 and v1alpha) indexes every service of the server, so this one definition serves both.
 * grpc-java finds a file's messages, services and extensions by symbol, not its top-level enums:
 * {@code ErrorReason}'s file is found by its name.
 */
public final class ErrorSchemaReflection {
  /** The name of the file that only imports; reflection serves it by that name if asked. */
  static final String ROOT = "cipherd/reflection/error_schema.proto";

  private ErrorSchemaReflection() {}

  /** {@code reflection}'s definition, its schema reaching the error files too. */
  public static ServerServiceDefinition of(BindableService reflection) {
    ServerServiceDefinition bound = reflection.bindService();
    ServiceDescriptor service = bound.getServiceDescriptor();
    if (!(service.getSchemaDescriptor() instanceof ProtoServiceDescriptorSupplier own)) {
      throw new IllegalArgumentException(service.getName() + " has no protobuf schema");
    }
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(service.getName())
            .setSchemaDescriptor(new Root(own, root(own.getFileDescriptor())));
    for (MethodDescriptor<?, ?> method : service.getMethods()) {
      descriptor.addMethod(method);
    }
    ServerServiceDefinition.Builder definition =
        ServerServiceDefinition.builder(descriptor.build());
    for (ServerMethodDefinition<?, ?> method : bound.getMethods()) {
      definition.addMethod(method);
    }
    return definition.build();
  }

  private static FileDescriptor root(FileDescriptor reflectionFile) {
    FileDescriptor[] imports = {
      reflectionFile, ErrorDetailsProto.getDescriptor(), ErrorReasonProto.getDescriptor()
    };
    FileDescriptorProto.Builder root = FileDescriptorProto.newBuilder().setName(ROOT);
    for (FileDescriptor file : imports) {
      root.addDependency(file.getName());
    }
    try {
      return FileDescriptor.buildFrom(root.build(), imports);
    } catch (DescriptorValidationException e) {
      throw new IllegalStateException("a file of imports alone did not validate", e);
    }
  }

  /** The reflection service's schema: its own service, found through the root of imports. */
  private record Root(ProtoServiceDescriptorSupplier own, FileDescriptor file)
      implements ProtoServiceDescriptorSupplier {
    @Override
    public FileDescriptor getFileDescriptor() {
      return file;
    }

    @Override
    public Descriptors.ServiceDescriptor getServiceDescriptor() {
      return own.getServiceDescriptor();
    }
  }
}
