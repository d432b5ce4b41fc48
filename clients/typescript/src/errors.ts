/**
 * cipherd's errors as typed exceptions: one class per gRPC status, refined by the reason of the
 * server's google.rpc.ErrorInfo, mapped in one place. Calls and the failed items of batches and streams
 * go through the same mapping, so `instanceof NotFoundError` catches a missing key wherever it shows up.
 */
import { status, type ServiceError } from "@grpc/grpc-js";
import type { ItemError } from "./gen/cipherd/v1/crypto_service.js";
import { ErrorReason } from "./gen/cipherd/v1/error_reason.js";
import { errorInfoOfMetadata } from "./status-details.js";

/**
 * Base of every error the client throws; `code` is the gRPC status, `details` the server's message and
 * `reason` its ErrorInfo reason (proto/README.md, "Errors"), "" when the status had none.
 */
export class CipherdError extends Error {
  readonly code: status;
  readonly details: string;
  /** What kind of error this is, e.g. "KEY_NOT_FOUND": compare it, never `details`, whose wording may change. */
  readonly reason: string;
  /**
   * The ErrorInfo's metadata (proto/README.md, "Errors"): the key, version or versions the error is about;
   * empty for a batch or stream item's error and when the server sent none.
   */
  metadata: Readonly<Record<string, string>> = {};
  /**
   * Set when an item stream broke: the reference of the last item answered before it did (undefined if
   * none was), which the stream's `resumeAfter` option takes to go on with the items after it.
   */
  lastReference?: string;

  constructor(details: string, code: status = status.UNKNOWN, reason = "") {
    super(`${status[code]}: ${details}`);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
    this.reason = reason;
  }
}

export class InvalidArgumentError extends CipherdError {
  constructor(details: string, reason = "") {
    super(details, status.INVALID_ARGUMENT, reason);
  }
}

/** What a failed decryption's message adds, in every client: the server never says which it was. */
export const DECRYPTION_FAILED_HINT =
  "check that the context is the one given at encryption, byte for byte (none if none was), " +
  "that the ciphertext is intact, and that its key is this server's";

/**
 * A well-formed ciphertext did not decrypt: wrong key, context or tampered. Never says which: its
 * message says what to check.
 */
export class DecryptionFailedError extends InvalidArgumentError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.DECRYPTION_FAILED]);
    this.message = `${this.message} (${DECRYPTION_FAILED_HINT})`;
  }
}

/**
 * A ciphertext broke the format. When this client's parser found it, `defect` says how (one of
 * proto/README.md's ciphertext defects, e.g. "version_invalid"); the server does not say, so from a
 * call it is undefined.
 */
export class InvalidCiphertextError extends InvalidArgumentError {
  constructor(
    details: string,
    readonly defect?: string,
  ) {
    super(details, ErrorReason[ErrorReason.INVALID_CIPHERTEXT]);
  }
}

/**
 * The ciphertext's header names a key other than the call's `expectedKey` (reason UNEXPECTED_KEY):
 * refused before anything was decrypted, as a value planted under another key must be. `metadata`
 * names both: `key` (the ciphertext's) and `expected_key`.
 */
export class UnexpectedKeyError extends InvalidArgumentError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.UNEXPECTED_KEY]);
  }
}

/** Why a data-key file does not read (proto/README.md, Data-key file format). */
export type FileDefect = "header_invalid" | "truncated" | "chunk_invalid";

/**
 * A data-key file broke its format or failed to authenticate, found by this client; `defect` says how:
 * the header is bad, the file ends before its last chunk, or a chunk (changed, moved, with bytes after
 * it) does not verify.
 */
export class InvalidFileError extends InvalidArgumentError {
  constructor(
    readonly defect: FileDefect,
    details: string,
  ) {
    super(details);
  }
}

function statusError(code: status) {
  return class extends CipherdError {
    constructor(details: string, reason = "") {
      super(details, code, reason);
    }
  };
}

export class NotFoundError extends statusError(status.NOT_FOUND) {}
export class AlreadyExistsError extends statusError(status.ALREADY_EXISTS) {}
export class PermissionDeniedError extends statusError(status.PERMISSION_DENIED) {}
export class UnauthenticatedError extends statusError(status.UNAUTHENTICATED) {}
export class FailedPreconditionError extends statusError(status.FAILED_PRECONDITION) {}
/** Another writer changed the key first (reason CONCURRENT_UPDATE); safe to retry. */
export class AbortedError extends statusError(status.ABORTED) {}
export class ResourceExhaustedError extends statusError(status.RESOURCE_EXHAUSTED) {}
export class UnavailableError extends statusError(status.UNAVAILABLE) {}
export class DeadlineExceededError extends statusError(status.DEADLINE_EXCEEDED) {}
/** The call was cancelled: by an AbortSignal, by leaving a stream early, or by the server. */
export class CancelledError extends statusError(status.CANCELLED) {}
export class InternalError extends statusError(status.INTERNAL) {}

/** The key is disabled, scheduled for deletion or deleted: it serves no call until enabled (or its deletion cancelled). */
export class KeyDisabledError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.KEY_DISABLED]);
  }
}

/** The version is scheduled for destruction and refuses every call until the destruction is cancelled. */
export class KeyVersionDestructionScheduledError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.KEY_VERSION_DESTRUCTION_SCHEDULED]);
  }
}

/**
 * The version's bytes were destroyed: its ciphertexts can never be decrypted again. Never a
 * DecryptionFailedError: nothing is wrong with the ciphertext.
 */
export class KeyVersionDestroyedError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.KEY_VERSION_DESTROYED]);
  }
}

/**
 * retireKeyVersions refused: `versions` of the key were used within the quiet period on some replica, or
 * the inventory `source` still counts ciphertexts under them. Rewrap their data, scan again or wait a quiet
 * period, retry.
 */
export class KeyVersionsInUseError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.KEY_VERSIONS_IN_USE]);
  }

  /** The versions in use, ascending, from the error's metadata; empty when it names none. */
  get versions(): number[] {
    const fields = (this.metadata.versions ?? "").split(",").filter((f) => f.trim() !== "");
    const versions = fields.map((f) => (/^\s*\d+\s*$/.test(f) ? Number(f) : NaN));
    return versions.some(Number.isNaN) ? [] : versions; // not the server's list: say nothing rather than something wrong
  }

  /** The source of the inventory that refused ("postgres:users.email"); undefined when traffic did. */
  get source(): string | undefined {
    return this.metadata.source || undefined;
  }
}

/** The server requires an audit record for every call and could not write this one, so it did not serve the call. */
export class AuditUnavailableError extends UnavailableError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.AUDIT_UNAVAILABLE]);
  }
}

/**
 * The ciphertext's data subject was erased (eraseSubject): its data can never be decrypted again; or an
 * encrypt named an erased subject without `renewErasedSubject`. Never a DecryptionFailedError. `metadata`
 * names the key and the erase_time (RFC 3339), never the subject.
 */
export class SubjectErasedError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.SUBJECT_ERASED]);
  }

  /** When the subject was erased, from the error's metadata; undefined when it names none (an item's error). */
  get eraseTime(): Date | undefined {
    const time = this.metadata.erase_time ? new Date(this.metadata.erase_time) : undefined;
    return time === undefined || Number.isNaN(time.getTime()) ? undefined : time;
  }
}

/** This caller made new subject keys faster than the server allows; existing subjects still work; retry later. */
export class SubjectQuotaExceededError extends ResourceExhaustedError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.SUBJECT_QUOTA_EXCEEDED]);
  }
}

/**
 * A call with a subject (or on a subject-bound ciphertext, or an erasure) reached a server that keeps its keys in
 * Vault and has no subject store every replica shares (no --subject-store-url; docs/subject-store.md): the operator
 * must configure one. Calls without a subject still work.
 */
export class SubjectStoreNotConfiguredError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.SUBJECT_STORE_NOT_CONFIGURED]);
  }
}

/**
 * ImportKey carried key material in the clear and the server takes only material wrapped for an import job
 * (createImportJob), unless its operator allows plaintext import.
 */
export class PlaintextImportDisabledError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.PLAINTEXT_IMPORT_DISABLED]);
  }
}

/** The import job named is unknown, expired, already used, or made for another key: create a new one. */
export class ImportJobUnusableError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.IMPORT_JOB_UNUSABLE]);
  }
}

/** backupKey named a key that was not made exportable (createKey's `exportable`, setKeyExportable). */
export class KeyNotExportableError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.KEY_NOT_EXPORTABLE]);
  }
}

/**
 * The key version's stored material did not unwrap with the server's key-encryption key: retrying
 * does not help, the server's operator must (its log says why). metadata has the key and version.
 */
export class KeyMaterialUnusableError extends FailedPreconditionError {
  constructor(details: string) {
    super(details, ErrorReason[ErrorReason.KEY_MATERIAL_UNUSABLE]);
  }
}

/** An error class of the table: made from the server's message and its ErrorInfo reason. */
export type ErrorClass = new (details: string, reason?: string) => CipherdError;

export const ERROR_BY_STATUS: ReadonlyMap<status, ErrorClass> = new Map<status, ErrorClass>([
  [status.INVALID_ARGUMENT, InvalidArgumentError],
  [status.NOT_FOUND, NotFoundError],
  [status.ALREADY_EXISTS, AlreadyExistsError],
  [status.PERMISSION_DENIED, PermissionDeniedError],
  [status.UNAUTHENTICATED, UnauthenticatedError],
  [status.FAILED_PRECONDITION, FailedPreconditionError],
  [status.ABORTED, AbortedError],
  [status.RESOURCE_EXHAUSTED, ResourceExhaustedError],
  [status.UNAVAILABLE, UnavailableError],
  [status.DEADLINE_EXCEEDED, DeadlineExceededError],
  [status.CANCELLED, CancelledError],
  [status.INTERNAL, InternalError],
]);

/** The reasons a server sends: every value of the schema's ErrorReason but the zero one (and UNRECOGNIZED). */
export type SentReason = Exclude<keyof typeof ErrorReason, "ERROR_REASON_UNSPECIFIED" | "UNRECOGNIZED">;

/**
 * Every reason of the schema (ErrorReason of error_reason.proto, the values of ErrorInfo.reason;
 * proto/README.md, "Errors") and its class: a subclass of its status's class where the reason picks out
 * a finer kind, else the status's class itself. Typed by the generated enum, so a value the proto adds
 * does not compile here until it has a class.
 */
const CLASS_BY_REASON: Readonly<Record<SentReason, ErrorClass>> = {
  INVALID_ARGUMENT: InvalidArgumentError,
  INVALID_CIPHERTEXT: InvalidCiphertextError,
  UNEXPECTED_KEY: UnexpectedKeyError,
  DECRYPTION_FAILED: DecryptionFailedError,
  KEY_NOT_FOUND: NotFoundError,
  KEY_ALREADY_EXISTS: AlreadyExistsError,
  POLICY_DENIED: FailedPreconditionError,
  KEY_DISABLED: KeyDisabledError,
  KEY_VERSION_DESTRUCTION_SCHEDULED: KeyVersionDestructionScheduledError,
  KEY_VERSION_DESTROYED: KeyVersionDestroyedError,
  KEY_VERSIONS_IN_USE: KeyVersionsInUseError,
  CONCURRENT_UPDATE: AbortedError,
  STORE_UNAVAILABLE: UnavailableError,
  AUDIT_UNAVAILABLE: AuditUnavailableError,
  STORE_ACCESS_DENIED: PermissionDeniedError,
  POOL_EXHAUSTED: ResourceExhaustedError,
  SERVER_BUSY: ResourceExhaustedError,
  ACCESS_DENIED: PermissionDeniedError,
  UNAUTHENTICATED: UnauthenticatedError,
  STREAM_IDLE: CancelledError,
  INTERNAL: InternalError,
  SUBJECT_ERASED: SubjectErasedError,
  SUBJECT_QUOTA_EXCEEDED: SubjectQuotaExceededError,
  SUBJECT_STORE_NOT_CONFIGURED: SubjectStoreNotConfiguredError,
  PLAINTEXT_IMPORT_DISABLED: PlaintextImportDisabledError,
  IMPORT_JOB_UNUSABLE: ImportJobUnusableError,
  KEY_NOT_EXPORTABLE: KeyNotExportableError,
  KEY_MATERIAL_UNUSABLE: KeyMaterialUnusableError,
};

/**
 * Every reason's class, by the reason's name as the wire carries it ("DECRYPTION_FAILED"); a reason this
 * client does not know yet is not here and gets its status's class.
 */
export const ERROR_BY_REASON: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>(
  Object.entries(CLASS_BY_REASON),
);

/**
 * The error for a status of a failed call or of a batch item: its reason decides where it has a class of
 * its own, its status code otherwise. The message never decides.
 */
export function errorFor(
  code: number,
  details: string,
  reason = "",
  metadata: Readonly<Record<string, string>> = {},
): CipherdError {
  const error = classify(code, details, reason);
  error.metadata = metadata;
  return error;
}

function classify(code: number, details: string, reason: string): CipherdError {
  const byReason = ERROR_BY_REASON.get(reason);
  if (byReason !== undefined) {
    const error = new byReason(details, reason);
    if (error.code === code) return error; // A reason never moves an error to another status.
  }
  const known = ERROR_BY_STATUS.get(code);
  if (known !== undefined) return new known(details, reason);
  return new CipherdError(details, code in status ? code : status.UNKNOWN, reason);
}

/** The error for a batch or stream item's ItemError (undefined: the server answered neither result nor error). */
export function fromItemError(error: ItemError | undefined): CipherdError {
  if (error === undefined) return new CipherdError("no result");
  return errorFor(error.code, error.message, error.reason);
}

/** The error for a failed grpc-js call, by the ErrorInfo in its `grpc-status-details-bin` trailer. */
export function fromServiceError(error: unknown): CipherdError {
  if (error instanceof CipherdError) return error;
  const e = error as Partial<ServiceError>;
  if (typeof e.code === "number") {
    const info = errorInfoOfMetadata(e.metadata);
    return errorFor(e.code, e.details || status[e.code] || "", info.reason, info.metadata);
  }
  return new CipherdError(String((error as Error)?.message ?? error));
}
