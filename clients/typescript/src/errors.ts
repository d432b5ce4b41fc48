/**
 * cipherd's errors as typed exceptions: one class per gRPC status, mapped in one table. Calls and
 * the failed items of batches and streams go through the same table, so `instanceof NotFoundError`
 * catches a missing key wherever it shows up.
 */
import { status, type ServiceError } from "@grpc/grpc-js";

/** The server says only this when a well-formed ciphertext does not decrypt (proto/README.md, Errors). */
export const DECRYPTION_FAILED_MESSAGE = "decryption failed";

/** Base of every error the client throws; `code` is the gRPC status, `details` the server's message. */
export class CipherdError extends Error {
  readonly code: status;
  readonly details: string;
  /**
   * Set when an item stream broke: the reference of the last item answered before it did (undefined if
   * none was), which the stream's `resumeAfter` option takes to go on with the items after it.
   */
  lastReference?: string;

  constructor(details: string, code: status = status.UNKNOWN) {
    super(`${status[code]}: ${details}`);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

export class InvalidArgumentError extends CipherdError {
  constructor(details: string) {
    super(details, status.INVALID_ARGUMENT);
  }
}

/** A well-formed ciphertext did not decrypt: wrong key, context or tampered. Never says which. */
export class DecryptionFailedError extends InvalidArgumentError {}

/** A ciphertext broke the format; `reason` is one of proto/README.md's reasons (e.g. "version_invalid"). */
export class InvalidCiphertextError extends InvalidArgumentError {
  constructor(readonly reason: string, details: string) {
    super(details);
  }
}

/** Why a data-key file does not read (proto/README.md, Data-key file format). */
export type FileDefect = "header_invalid" | "truncated" | "chunk_invalid";

/**
 * A data-key file broke its format or failed to authenticate; `reason` says which: the header is bad,
 * the file ends before its last chunk, or a chunk (changed, moved, with bytes after it) does not verify.
 */
export class InvalidFileError extends InvalidArgumentError {
  constructor(readonly reason: FileDefect, details: string) {
    super(details);
  }
}

function statusError(code: status) {
  return class extends CipherdError {
    constructor(details: string) {
      super(details, code);
    }
  };
}

export class NotFoundError extends statusError(status.NOT_FOUND) {}
export class AlreadyExistsError extends statusError(status.ALREADY_EXISTS) {}
export class PermissionDeniedError extends statusError(status.PERMISSION_DENIED) {}
export class UnauthenticatedError extends statusError(status.UNAUTHENTICATED) {}
export class FailedPreconditionError extends statusError(status.FAILED_PRECONDITION) {}
export class ResourceExhaustedError extends statusError(status.RESOURCE_EXHAUSTED) {}
export class UnavailableError extends statusError(status.UNAVAILABLE) {}
export class DeadlineExceededError extends statusError(status.DEADLINE_EXCEEDED) {}
/** The call was cancelled: by an AbortSignal, by leaving a stream early, or by the server. */
export class CancelledError extends statusError(status.CANCELLED) {}
export class InternalError extends statusError(status.INTERNAL) {}

export const ERROR_BY_STATUS: ReadonlyMap<status, new (details: string) => CipherdError> = new Map<
  status,
  new (details: string) => CipherdError
>([
  [status.INVALID_ARGUMENT, InvalidArgumentError],
  [status.NOT_FOUND, NotFoundError],
  [status.ALREADY_EXISTS, AlreadyExistsError],
  [status.PERMISSION_DENIED, PermissionDeniedError],
  [status.UNAUTHENTICATED, UnauthenticatedError],
  [status.FAILED_PRECONDITION, FailedPreconditionError],
  [status.RESOURCE_EXHAUSTED, ResourceExhaustedError],
  [status.UNAVAILABLE, UnavailableError],
  [status.DEADLINE_EXCEEDED, DeadlineExceededError],
  [status.CANCELLED, CancelledError],
  [status.INTERNAL, InternalError],
]);

/** The error for a status number, of a failed call or of a batch item. */
export function errorFor(code: number, details: string): CipherdError {
  if (code === status.INVALID_ARGUMENT && details === DECRYPTION_FAILED_MESSAGE) {
    return new DecryptionFailedError(details);
  }
  const known = ERROR_BY_STATUS.get(code);
  if (known !== undefined) return new known(details);
  return new CipherdError(details, code in status ? code : status.UNKNOWN);
}

/** The error for a failed grpc-js call. */
export function fromServiceError(error: unknown): CipherdError {
  if (error instanceof CipherdError) return error;
  const e = error as Partial<ServiceError>;
  if (typeof e.code === "number") return errorFor(e.code, e.details || status[e.code] || "");
  return new CipherdError(String((error as Error)?.message ?? error));
}
