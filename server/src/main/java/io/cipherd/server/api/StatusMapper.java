package io.cipherd.server.api;

import io.cipherd.api.v1.ItemError;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where domain errors become gRPC statuses, for whole calls and for batch items
 * alike, by their {@link ErrorKind}. Anything unexpected is INTERNAL with a generic message; its
 * details go to the log only.
 */
public final class StatusMapper {
  private static final Logger log = LoggerFactory.getLogger(StatusMapper.class);

  private StatusMapper() {}

  /** The status a failed call answers with. */
  public static Status toStatus(Throwable error) {
    if (error instanceof StatusRuntimeException e) {
      return e.getStatus();
    }
    if (error instanceof CipherdException e) {
      if (e.kind() == ErrorKind.INTERNAL) {
        log.error("crypto provider failure while serving a call", e);
      }
      return codeOf(e.kind()).toStatus().withDescription(e.getMessage());
    }
    if (error instanceof RejectedExecutionException) {
      return Status.RESOURCE_EXHAUSTED.withDescription("server is busy; retry later");
    }
    if (error instanceof OutOfMemoryError) {
      log.error("out of memory while serving a call", error);
      return Status.RESOURCE_EXHAUSTED.withDescription("server is out of memory; retry later");
    }
    // Our own exception messages are safe to show; anything else may not be, so it stays in the log.
    log.error("unexpected error while serving a call", error);
    return Status.INTERNAL.withDescription("internal error");
  }

  /** The same status as a batch or stream item's error. */
  public static ItemError toItemError(Throwable error) {
    Status status = toStatus(error);
    return ItemError.newBuilder()
        .setCode(status.getCode().value())
        .setMessage(status.getDescription() == null ? "" : status.getDescription())
        .build();
  }

  /** The exception a failed call is closed with. */
  public static StatusRuntimeException toException(Throwable error) {
    return toStatus(error).asRuntimeException();
  }

  /** The status code of each kind; the switch is exhaustive, so a new kind does not compile unmapped. */
  static Status.Code codeOf(ErrorKind kind) {
    return switch (kind) {
      case INVALID_ARGUMENT, INVALID_CIPHERTEXT, DECRYPTION_FAILED -> Status.Code.INVALID_ARGUMENT;
      case KEY_NOT_FOUND -> Status.Code.NOT_FOUND;
      case KEY_ALREADY_EXISTS -> Status.Code.ALREADY_EXISTS;
      case POLICY_DENIED -> Status.Code.FAILED_PRECONDITION;
      case CONCURRENT_UPDATE -> Status.Code.ABORTED;
      case STORE_UNAVAILABLE -> Status.Code.UNAVAILABLE;
      case STORE_ACCESS_DENIED, ACCESS_DENIED -> Status.Code.PERMISSION_DENIED;
      case POOL_EXHAUSTED -> Status.Code.RESOURCE_EXHAUSTED;
      case UNAUTHENTICATED -> Status.Code.UNAUTHENTICATED;
      case INTERNAL -> Status.Code.INTERNAL;
    };
  }
}
