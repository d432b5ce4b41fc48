package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Asserts that a call fails with a given status code, and returns the status for more checks. */
final class GrpcAssertions {
  private GrpcAssertions() {}

  static Status failsWith(Status.Code code, ThrowingCallable call) {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call);
    assertThat(e).as("expected the call to fail with %s", code).isNotNull();
    assertThat(e.getStatus().getCode()).as("status of: %s", e.getStatus()).isEqualTo(code);
    assertThat(e.getStatus().getDescription()).as("a failed call explains itself").isNotBlank();
    return e.getStatus();
  }

  /**
   * Asserts that {@code call} fails with {@code code} and the ErrorInfo reason {@code reason}, and
   * returns the status.
   */
  static Status failsWith(Status.Code code, String reason, ThrowingCallable call) {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call);
    assertThat(e).as("expected the call to fail with %s", code).isNotNull();
    assertThat(e.getStatus().getCode()).as("status of: %s", e.getStatus()).isEqualTo(code);
    String sent = "";
    for (Any detail : StatusProto.fromThrowable(e).getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        try {
          sent = detail.unpack(ErrorInfo.class).getReason();
        } catch (InvalidProtocolBufferException malformed) {
          throw new AssertionError(malformed);
        }
      }
    }
    assertThat(sent).as("reason of: %s", e.getStatus()).isEqualTo(reason);
    return e.getStatus();
  }
}
