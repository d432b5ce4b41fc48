package io.cipherd.server.api;

import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.ItemError;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where domain errors become gRPC statuses, for whole calls and for batch items
 * alike, by their {@link ErrorKind}. A failed call carries a {@code google.rpc.ErrorInfo} (domain
 * {@value #DOMAIN}, reason the name of the kind's {@link ErrorKind#reason() ErrorReason}) in its
 * status details, and an item error the same reason, so clients tell errors apart without reading
 * messages. Anything unexpected is INTERNAL with a generic message; its details go to the log only.
 */
public final class StatusMapper {
  /** The ErrorInfo domain of every cipherd error. */
  public static final String DOMAIN = "cipherd.io";

  /**
   * The longest message of an item error, in UTF-8 bytes: a longer one is cut, so a batch's error
   * results have a size bound ({@link PlaintextLimit#ERROR_RESULT}) as its ciphertexts do.
   */
  static final int MAX_ITEM_MESSAGE_BYTES = 256;

  private static final Logger log = LoggerFactory.getLogger(StatusMapper.class);

  private StatusMapper() {}

  /** The status a failed call answers with. */
  public static Status toStatus(Throwable error) {
    if (error instanceof StatusRuntimeException e) {
      return e.getStatus();
    }
    ErrorKind kind = kindOf(error);
    if (error instanceof CipherdException e) {
      if (kind == ErrorKind.INTERNAL) {
        log.error("crypto provider failure while serving a call", e);
      }
      return codeOf(kind).toStatus().withDescription(e.getMessage());
    }
    if (error instanceof RejectedExecutionException) {
      return Status.RESOURCE_EXHAUSTED.withDescription("server is busy; retry later");
    }
    if (error instanceof OutOfMemoryError) {
      log.error("out of memory while serving a call", error);
      return Status.RESOURCE_EXHAUSTED.withDescription("server is out of memory; retry later");
    }
    // Our own exception messages are safe to show; anything else may not be, so it stays in the
    // log.
    log.error("unexpected error while serving a call", error);
    return Status.INTERNAL.withDescription("internal error");
  }

  /**
   * What kind of error {@code error} is: its own kind for cipherd's errors, {@link
   * ErrorKind#SERVER_BUSY} when the server could not take the work, else {@link
   * ErrorKind#INTERNAL}.
   */
  public static ErrorKind kindOf(Throwable error) {
    if (error instanceof CipherdException e) {
      return e.kind();
    }
    if (error instanceof RejectedExecutionException || error instanceof OutOfMemoryError) {
      return ErrorKind.SERVER_BUSY;
    }
    return ErrorKind.INTERNAL;
  }

  /** The same status as a batch or stream item's error, with the same reason. */
  public static ItemError toItemError(Throwable error) {
    Status status = toStatus(error);
    return ItemError.newBuilder()
        .setCode(status.getCode().value())
        .setMessage(itemMessage(status.getDescription()))
        .setReason(kindOf(error).reason().name())
        .build();
  }

  private static String itemMessage(String description) {
    if (description == null) {
      return "";
    }
    if (utf8Length(description) <= MAX_ITEM_MESSAGE_BYTES) {
      return description;
    }
    // Each character takes a byte at least; then cut by code points until the message and its
    // ellipsis (3 bytes) fit, never splitting a surrogate pair.
    String cut = description.substring(0, Math.min(description.length(), MAX_ITEM_MESSAGE_BYTES));
    if (Character.isHighSurrogate(cut.charAt(cut.length() - 1))) {
      cut = cut.substring(0, cut.length() - 1);
    }
    while (utf8Length(cut) > MAX_ITEM_MESSAGE_BYTES - 3) {
      int end = cut.offsetByCodePoints(cut.length(), -1);
      cut = cut.substring(0, end);
    }
    return cut + "\u2026";
  }

  /** As protobuf encodes it: an unpaired surrogate becomes one '?'. */
  private static int utf8Length(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * The exception a failed call is closed with: its status, and an ErrorInfo with the error's
   * reason in the status details. A status that was already an exception (a call the transport or
   * an interceptor ended) passes through as it is.
   */
  public static StatusRuntimeException toException(Throwable error) {
    if (error instanceof StatusRuntimeException e) {
      return e;
    }
    Map<String, String> details =
        error instanceof CipherdException e ? e.details() : Map.<String, String>of();
    return withReason(toStatus(error), kindOf(error), details);
  }

  /** Closes {@code call} (one an interceptor refuses) with {@code error}'s status and details. */
  public static void close(ServerCall<?, ?> call, Throwable error) {
    StatusRuntimeException e = toException(error);
    call.close(e.getStatus(), e.getTrailers() == null ? new Metadata() : e.getTrailers());
  }

  /** {@code status} as an exception whose details hold an ErrorInfo of {@code kind}. */
  public static StatusRuntimeException withReason(Status status, ErrorKind kind) {
    return withReason(status, kind, Map.of());
  }

  /**
   * {@code status} as an exception whose details hold an ErrorInfo of {@code kind} with {@code
   * metadata} (the key and version the error is about).
   */
  static StatusRuntimeException withReason(
      Status status, ErrorKind kind, Map<String, String> metadata) {
    // No trailers yet: the google.rpc.Status is the status's code and description alone.
    return StatusProto.toStatusRuntimeException(
        StatusProto.fromStatusAndTrailers(status, new Metadata()).toBuilder()
            .addDetails(
                Any.pack(
                    ErrorInfo.newBuilder()
                        .setDomain(DOMAIN)
                        .setReason(kind.reason().name())
                        .putAllMetadata(metadata)
                        .build()))
            .build());
  }

  /**
   * The status code of each kind; the switch is exhaustive, so a new kind does not compile
   * unmapped.
   */
  static Status.Code codeOf(ErrorKind kind) {
    return switch (kind) {
      case INVALID_ARGUMENT, INVALID_CIPHERTEXT, UNEXPECTED_KEY, DECRYPTION_FAILED ->
          Status.Code.INVALID_ARGUMENT;
      case KEY_NOT_FOUND -> Status.Code.NOT_FOUND;
      case KEY_ALREADY_EXISTS -> Status.Code.ALREADY_EXISTS;
      case POLICY_DENIED,
          KEY_DISABLED,
          KEY_VERSION_DESTRUCTION_SCHEDULED,
          KEY_VERSION_DESTROYED,
          KEY_VERSIONS_IN_USE,
          SUBJECT_ERASED,
          SUBJECT_STORE_NOT_CONFIGURED,
          PLAINTEXT_IMPORT_DISABLED,
          IMPORT_JOB_UNUSABLE,
          KEY_NOT_EXPORTABLE,
          KEY_MATERIAL_UNUSABLE ->
          Status.Code.FAILED_PRECONDITION;
      case CONCURRENT_UPDATE -> Status.Code.ABORTED;
      case STORE_UNAVAILABLE, AUDIT_UNAVAILABLE -> Status.Code.UNAVAILABLE;
      case STORE_ACCESS_DENIED, ACCESS_DENIED -> Status.Code.PERMISSION_DENIED;
      case POOL_EXHAUSTED, SERVER_BUSY, SUBJECT_QUOTA_EXCEEDED -> Status.Code.RESOURCE_EXHAUSTED;
      case UNAUTHENTICATED -> Status.Code.UNAUTHENTICATED;
      case STREAM_IDLE -> Status.Code.CANCELLED;
      case INTERNAL -> Status.Code.INTERNAL;
    };
  }
}
