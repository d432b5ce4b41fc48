package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.rpc.ErrorDetailsProto;
import io.grpc.reflection.v1alpha.ServerReflectionGrpc;
import io.grpc.reflection.v1alpha.ServerReflectionRequest;
import io.grpc.reflection.v1alpha.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The v1alpha reflection service, which older tools ask, serves the error schema too. */
@SuppressWarnings("deprecation")
class LegacyReflectionErrorSchemaTest {
  @TempDir Path dataDir;

  @Test
  void v1alpha_servesTheFileOfErrorInfo() throws Exception {
    try (InProcessCipherd cipherd = InProcessCipherd.start(dataDir)) {
      CompletableFuture<ServerReflectionResponse> response = new CompletableFuture<>();
      StreamObserver<ServerReflectionRequest> requests =
          ServerReflectionGrpc.newStub(cipherd.channel)
              .serverReflectionInfo(ErrorSchemaReflectionTest.answer(response));
      requests.onNext(
          ServerReflectionRequest.newBuilder()
              .setFileContainingSymbol("google.rpc.ErrorInfo")
              .build());
      requests.onCompleted();

      ServerReflectionResponse answer = response.get(10, TimeUnit.SECONDS);
      assertThat(answer.hasErrorResponse()).as("%s", answer.getErrorResponse()).isFalse();
      assertThat(
              FileDescriptorProto.parseFrom(
                      answer.getFileDescriptorResponse().getFileDescriptorProto(0))
                  .getName())
          .isEqualTo(ErrorDetailsProto.getDescriptor().getName());
    }
  }
}
