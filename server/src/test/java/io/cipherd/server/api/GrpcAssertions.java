package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
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
}
