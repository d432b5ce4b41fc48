package io.cipherd.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.ErrorReason;
import io.cipherd.api.v1.ItemError;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Map;

/**
 * The one mapping from a status to an exception, for calls and for the failed items of batches and
 * streams alike, so {@code catch (NotFoundException e)} catches a missing key wherever it shows up.
 * The status code picks the class; the reason (the generated {@link ErrorReason}) refines it only
 * within that code, so an exception's class and code never disagree, and a reason this client does
 * not know leaves the class to the code.
 */
public final class Errors {
  /** The ErrorInfo domain of cipherd's own errors; another domain's (a proxy's) is not ours. */
  public static final String DOMAIN = "cipherd.io";

  private Errors() {}

  /** The exception for a status code, a reason as sent ("" for none), message and metadata. */
  public static CipherdException of(
      Status.Code code, String reason, String message, Map<String, String> metadata) {
    return of(new ErrorDetails(code, reason, message, metadata, null));
  }

  /**
   * The exception for a failed call: a StatusRuntimeException or StatusException from grpc-java.
   */
  public static CipherdException fromGrpc(Throwable failure) {
    if (failure instanceof CipherdException cipherd) {
      return cipherd;
    }
    Status status = Status.fromThrowable(failure);
    ErrorInfo info = errorInfo(failure);
    String message = status.getDescription();
    return of(
        new ErrorDetails(
            status.getCode(),
            info.getReason(),
            message == null ? status.getCode().name().toLowerCase(java.util.Locale.ROOT) : message,
            info.getMetadataMap(),
            failure instanceof StatusRuntimeException || failure instanceof StatusException
                ? null
                : failure));
  }

  /** The exception for a failed item of a batch or stream. */
  static CipherdException fromItem(ItemError error) {
    return of(
        new ErrorDetails(
            Status.fromCodeValue(error.getCode()).getCode(),
            error.getReason(),
            error.getMessage(),
            Map.of(),
            null));
  }

  /** The generated enum value of a reason as sent; UNSPECIFIED for none or an unknown one. */
  static ErrorReason reasonOf(String reason) {
    if (reason.isEmpty()) {
      return ErrorReason.ERROR_REASON_UNSPECIFIED;
    }
    try {
      ErrorReason known = ErrorReason.valueOf(reason);
      return known == ErrorReason.UNRECOGNIZED ? ErrorReason.ERROR_REASON_UNSPECIFIED : known;
    } catch (IllegalArgumentException unknown) {
      return ErrorReason.ERROR_REASON_UNSPECIFIED;
    }
  }

  private static CipherdException of(ErrorDetails details) {
    ErrorReason reason = reasonOf(details.reason());
    return switch (details.code()) {
      case INVALID_ARGUMENT ->
          switch (reason) {
            case DECRYPTION_FAILED -> new DecryptionFailedException(details);
            case INVALID_CIPHERTEXT -> new InvalidCiphertextException(details);
            case UNEXPECTED_KEY -> new UnexpectedKeyException(details);
            default -> new InvalidArgumentException(details);
          };
      case FAILED_PRECONDITION ->
          switch (reason) {
            case KEY_DISABLED -> new KeyDisabledException(details);
            case KEY_VERSION_DESTRUCTION_SCHEDULED ->
                new KeyVersionDestructionScheduledException(details);
            case KEY_VERSION_DESTROYED -> new KeyVersionDestroyedException(details);
            case KEY_VERSIONS_IN_USE -> new KeyVersionsInUseException(details);
            case SUBJECT_ERASED -> new SubjectErasedException(details);
            case SUBJECT_STORE_NOT_CONFIGURED -> new SubjectStoreNotConfiguredException(details);
            case PLAINTEXT_IMPORT_DISABLED -> new PlaintextImportDisabledException(details);
            case IMPORT_JOB_UNUSABLE -> new ImportJobUnusableException(details);
            case KEY_NOT_EXPORTABLE -> new KeyNotExportableException(details);
            case KEY_MATERIAL_UNUSABLE -> new KeyMaterialUnusableException(details);
            default -> new FailedPreconditionException(details);
          };
      case UNAVAILABLE ->
          reason == ErrorReason.AUDIT_UNAVAILABLE
              ? new AuditUnavailableException(details)
              : new UnavailableException(details);
      case NOT_FOUND -> new NotFoundException(details);
      case ALREADY_EXISTS -> new AlreadyExistsException(details);
      case PERMISSION_DENIED -> new PermissionDeniedException(details);
      case UNAUTHENTICATED -> new UnauthenticatedException(details);
      case ABORTED -> new AbortedException(details);
      case RESOURCE_EXHAUSTED ->
          reason == ErrorReason.SUBJECT_QUOTA_EXCEEDED
              ? new SubjectQuotaExceededException(details)
              : new ResourceExhaustedException(details);
      case DEADLINE_EXCEEDED -> new DeadlineExceededException(details);
      case CANCELLED -> new CancelledException(details);
      case INTERNAL -> new InternalException(details);
      default -> new CipherdException(details);
    };
  }

  /** The call's cipherd ErrorInfo, or an empty one when its status carries none. */
  private static ErrorInfo errorInfo(Throwable failure) {
    com.google.rpc.Status status = StatusProto.fromThrowable(failure);
    if (status == null) {
      return ErrorInfo.getDefaultInstance();
    }
    for (Any detail : status.getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        try {
          ErrorInfo info = detail.unpack(ErrorInfo.class);
          if (DOMAIN.equals(info.getDomain())) {
            return info;
          }
        } catch (InvalidProtocolBufferException notOurs) {
          // details that do not parse are not the server's: read as none
        }
      }
    }
    return ErrorInfo.getDefaultInstance();
  }
}
