package io.cipherd.server.api;

import io.cipherd.api.v1.ItemError;
import io.cipherd.server.CipherdException;
import io.cipherd.server.InvalidArgumentException;
import io.cipherd.server.crypto.CipherPoolExhaustedException;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.InvalidCiphertextException;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.security.AccessDeniedException;
import io.cipherd.server.security.UnauthenticatedException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where domain errors become gRPC statuses, for whole calls and for batch items
 * alike. Anything unexpected is INTERNAL with a generic message; its details go to the log only.
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
      return codeOf(e).toStatus().withDescription(e.getMessage());
    }
    if (error instanceof java.util.concurrent.RejectedExecutionException) {
      return Status.RESOURCE_EXHAUSTED.withDescription("server is busy; retry later");
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

  private static Status.Code codeOf(CipherdException e) {
    if (e instanceof InvalidArgumentException
        || e instanceof InvalidCiphertextException
        || e instanceof DecryptionFailedException) {
      return Status.Code.INVALID_ARGUMENT;
    }
    if (e instanceof KeyNotFoundException) {
      return Status.Code.NOT_FOUND;
    }
    if (e instanceof KeyAlreadyExistsException) {
      return Status.Code.ALREADY_EXISTS;
    }
    if (e instanceof KeyPolicyViolationException) {
      return Status.Code.FAILED_PRECONDITION;
    }
    if (e instanceof ConcurrentKeyUpdateException) {
      return Status.Code.ABORTED;
    }
    if (e instanceof KeyStoreUnavailableException) {
      return Status.Code.UNAVAILABLE;
    }
    if (e instanceof KeyStoreAccessDeniedException) {
      return Status.Code.PERMISSION_DENIED;
    }
    if (e instanceof CipherPoolExhaustedException) {
      return Status.Code.RESOURCE_EXHAUSTED;
    }
    if (e instanceof AccessDeniedException) {
      return Status.Code.PERMISSION_DENIED;
    }
    if (e instanceof UnauthenticatedException) {
      return Status.Code.UNAUTHENTICATED;
    }
    log.error("unmapped domain error", e);
    return Status.Code.INTERNAL;
  }
}
