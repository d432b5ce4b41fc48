package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorDetailsProto;
import io.cipherd.api.v1.CryptoServiceProto;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.ErrorReasonProto;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reflection serves the error schema, as grpcurl needs it to show a failed call's reason: the file
 * of google.rpc.ErrorInfo and that of cipherd.v1.ErrorReason, over the v1 and the v1alpha service,
 * while the services it lists and the files of theirs it serves stay as they were.
 */
class ErrorSchemaReflectionTest {
  @TempDir Path dataDir;

  @Test
  void reflection_servesTheFileOfErrorInfo_andOfErrorReason() throws Exception {
    try (InProcessCipherd cipherd = InProcessCipherd.start(dataDir)) {
      assertThat(fileNames(ask(cipherd, symbol("google.rpc.ErrorInfo"))))
          .startsWith(ErrorDetailsProto.getDescriptor().getName());
      // By name: grpc-java's index has the messages, services and extensions of a file as symbols,
      // not its top-level enums.
      assertThat(
              fileNames(
                  ask(
                      cipherd,
                      ServerReflectionRequest.newBuilder()
                          .setFileByFilename(ErrorReasonProto.getDescriptor().getName())
                          .build())))
          .startsWith(ErrorReasonProto.getDescriptor().getName());
    }
  }

  @Test
  void theServicesListed_andTheirFiles_areAsGenerated() throws Exception {
    try (InProcessCipherd cipherd = InProcessCipherd.start(dataDir)) {
      List<String> services =
          ask(cipherd, ServerReflectionRequest.newBuilder().setListServices("").build())
              .getListServicesResponse()
              .getServiceList()
              .stream()
              .map(ServiceResponse::getName)
              .toList();
      assertThat(services)
          .containsExactlyInAnyOrder(
              "cipherd.v1.CryptoService",
              "cipherd.v1.KeyAdminService",
              "cipherd.v1.SubjectService",
              "cipherd.v1.FormatPreservingService",
              "cipherd.v1.AuditService",
              "grpc.health.v1.Health",
              "grpc.reflection.v1.ServerReflection",
              "grpc.reflection.v1alpha.ServerReflection");

      List<ByteString> files =
          ask(cipherd, symbol("cipherd.v1.CryptoService"))
              .getFileDescriptorResponse()
              .getFileDescriptorProtoList();
      assertThat(FileDescriptorProto.parseFrom(files.get(0)))
          .isEqualTo(CryptoServiceProto.getDescriptor().toProto());
    }
  }

  /**
   * What grpcurl does with a failed call: it decodes the ErrorInfo in the status details with the
   * descriptors reflection gave it, knowing none of its own.
   */
  @Test
  void aFailedCallsReason_decodes_withWhatReflectionServes() throws Exception {
    try (InProcessCipherd cipherd = InProcessCipherd.start(dataDir)) {
      Throwable failed =
          catchThrowable(
              () ->
                  cipherd.crypto.decrypt(
                      DecryptRequest.newBuilder().setCiphertext("cipherd:v1:nope").build()));
      assertThat(failed).isInstanceOf(StatusRuntimeException.class);
      Descriptor errorInfo =
          linked(ask(cipherd, symbol("google.rpc.ErrorInfo"))).findMessageTypeByName("ErrorInfo");
      var detail = StatusProto.fromThrowable(failed).getDetails(0);
      assertThat(detail.getTypeUrl()).endsWith("/google.rpc.ErrorInfo");

      DynamicMessage decoded = DynamicMessage.parseFrom(errorInfo, detail.getValue());
      FieldDescriptor reason = errorInfo.findFieldByName("reason");
      assertThat(decoded.getField(reason)).isEqualTo("INVALID_CIPHERTEXT");
    }
  }

  /** The first file of a reflection answer, linked against the others it sent (its imports). */
  private static FileDescriptor linked(ServerReflectionResponse response)
      throws InvalidProtocolBufferException, DescriptorValidationException {
    Map<String, FileDescriptorProto> byName = new HashMap<>();
    List<FileDescriptorProto> files = new ArrayList<>();
    for (ByteString bytes : response.getFileDescriptorResponse().getFileDescriptorProtoList()) {
      FileDescriptorProto file = FileDescriptorProto.parseFrom(bytes);
      byName.put(file.getName(), file);
      files.add(file);
    }
    return build(files.get(0), byName, new HashMap<>());
  }

  private static FileDescriptor build(
      FileDescriptorProto file,
      Map<String, FileDescriptorProto> byName,
      Map<String, FileDescriptor> built)
      throws DescriptorValidationException {
    if (built.containsKey(file.getName())) {
      return built.get(file.getName());
    }
    List<FileDescriptor> imports = new ArrayList<>();
    for (String name : file.getDependencyList()) {
      assertThat(byName).as("reflection sent the import %s", name).containsKey(name);
      imports.add(build(byName.get(name), byName, built));
    }
    FileDescriptor descriptor =
        FileDescriptor.buildFrom(file, imports.toArray(FileDescriptor[]::new));
    built.put(file.getName(), descriptor);
    return descriptor;
  }

  private static ServerReflectionRequest symbol(String name) {
    return ServerReflectionRequest.newBuilder().setFileContainingSymbol(name).build();
  }

  private static List<String> fileNames(ServerReflectionResponse response) throws Exception {
    assertThat(response.hasErrorResponse())
        .as("reflection error: %s", response.getErrorResponse())
        .isFalse();
    List<String> names = new ArrayList<>();
    for (ByteString file : response.getFileDescriptorResponse().getFileDescriptorProtoList()) {
      names.add(FileDescriptorProto.parseFrom(file).getName());
    }
    return names;
  }

  private static ServerReflectionResponse ask(
      InProcessCipherd cipherd, ServerReflectionRequest request) throws Exception {
    CompletableFuture<ServerReflectionResponse> response = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> requests =
        ServerReflectionGrpc.newStub(cipherd.channel).serverReflectionInfo(answer(response));
    requests.onNext(request);
    requests.onCompleted();
    return response.get(10, TimeUnit.SECONDS);
  }

  static <T> StreamObserver<T> answer(CompletableFuture<T> response) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        response.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        response.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {}
    };
  }
}
