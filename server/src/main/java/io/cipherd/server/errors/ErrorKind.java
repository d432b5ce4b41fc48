package io.cipherd.server.errors;

import io.cipherd.api.v1.ErrorReason;

/**
 * What went wrong, as the one taxonomy every layer reads: the gRPC status mapper turns a kind into
 * a status code and its {@link #reason()} (the schema's {@link ErrorReason}, whose name is the
 * {@code reason} of the call's ErrorInfo), and metrics into the {@code outcome} label. Each {@link
 * CipherdException} carries one.
 */
public enum ErrorKind {
  /** A request that can never succeed as sent. */
  INVALID_ARGUMENT(ErrorReason.INVALID_ARGUMENT, "invalid_argument"),
  /** A ciphertext that is not in the envelope format. */
  INVALID_CIPHERTEXT(ErrorReason.INVALID_CIPHERTEXT, "invalid_ciphertext"),
  /**
   * A ciphertext whose header names a key other than the one the request expects: refused before
   * the key is looked up, authorized or used.
   */
  UNEXPECTED_KEY(ErrorReason.UNEXPECTED_KEY, "unexpected_key"),
  /** A well-formed ciphertext that did not decrypt: wrong key, context or tampered bytes. */
  DECRYPTION_FAILED(ErrorReason.DECRYPTION_FAILED, "decryption_failed"),
  /** A key, or a version of one, that does not exist. */
  KEY_NOT_FOUND(ErrorReason.KEY_NOT_FOUND, "key_not_found"),
  /** A key created under a name that is taken. */
  KEY_ALREADY_EXISTS(ErrorReason.KEY_ALREADY_EXISTS, "key_already_exists"),
  /** The key exists but its policy refuses the operation. */
  POLICY_DENIED(ErrorReason.POLICY_DENIED, "policy_denied"),
  /** The key is disabled, or scheduled for deletion, or deleted: it serves no call. */
  KEY_DISABLED(ErrorReason.KEY_DISABLED, "key_disabled"),
  /**
   * The version is scheduled for destruction: it refuses every call until the destruction is
   * cancelled, so its loss shows while it can still be undone.
   */
  KEY_VERSION_DESTRUCTION_SCHEDULED(
      ErrorReason.KEY_VERSION_DESTRUCTION_SCHEDULED, "key_version_destruction_scheduled"),
  /** The version's bytes were destroyed: its ciphertexts can never be decrypted again. */
  KEY_VERSION_DESTROYED(ErrorReason.KEY_VERSION_DESTROYED, "key_version_destroyed"),
  /**
   * Retiring versions was refused: some of them were used within the quiet period on some replica,
   * so their data is still read.
   */
  KEY_VERSIONS_IN_USE(ErrorReason.KEY_VERSIONS_IN_USE, "key_versions_in_use"),
  /** Another writer changed the key between our read and our write; safe to retry. */
  CONCURRENT_UPDATE(ErrorReason.CONCURRENT_UPDATE, "concurrent_update"),
  /** The key store cannot be reached now. */
  STORE_UNAVAILABLE(ErrorReason.STORE_UNAVAILABLE, "store_unavailable"),
  /**
   * The call's audit record could not be written, and the server is told to serve no call unaudited
   * ({@code --audit-required}).
   */
  AUDIT_UNAVAILABLE(ErrorReason.AUDIT_UNAVAILABLE, "audit_unavailable"),
  /** The key store refused this service (its credentials lack a capability). */
  STORE_ACCESS_DENIED(ErrorReason.STORE_ACCESS_DENIED, "store_access_denied"),
  /** Every pooled cipher stayed busy: the server is overloaded. */
  POOL_EXHAUSTED(ErrorReason.POOL_EXHAUSTED, "pool_exhausted"),
  /**
   * The server cannot take the call now (its key-store work queue is full, or it ran out of
   * memory): retry later.
   */
  SERVER_BUSY(ErrorReason.SERVER_BUSY, "server_busy"),
  /** The access policy does not let this caller do this with this key. */
  ACCESS_DENIED(ErrorReason.ACCESS_DENIED, "access_denied"),
  /** An access policy is configured and the caller presented no identity. */
  UNAUTHENTICATED(ErrorReason.UNAUTHENTICATED, "unauthenticated"),
  /**
   * An item stream sent nothing for the server's idle timeout and was closed, every item answered.
   */
  STREAM_IDLE(ErrorReason.STREAM_IDLE, "stream_idle"),
  /** The crypto provider failed where it should not: a bug, not bad input. */
  INTERNAL(ErrorReason.INTERNAL, "error"),
  /**
   * The ciphertext's subject was erased, so its data never decrypts again; or an encryption named
   * an erased subject without asking for a new subject key.
   */
  SUBJECT_ERASED(ErrorReason.SUBJECT_ERASED, "subject_erased"),
  /** This caller made new subject keys faster than the server's creation rate allows. */
  SUBJECT_QUOTA_EXCEEDED(ErrorReason.SUBJECT_QUOTA_EXCEEDED, "subject_quota_exceeded"),
  /**
   * The call needs a subject store and this server has none its replicas share (keys in Vault, no
   * --subject-store-url): an operator's fix, not the caller's.
   */
  SUBJECT_STORE_NOT_CONFIGURED(
      ErrorReason.SUBJECT_STORE_NOT_CONFIGURED, "subject_store_not_configured"),
  /**
   * ImportKey carried key material in the clear and this server takes only wrapped material (no
   * --allow-plaintext-key-import).
   */
  PLAINTEXT_IMPORT_DISABLED(ErrorReason.PLAINTEXT_IMPORT_DISABLED, "plaintext_import_disabled"),
  /** The import job named is unknown, expired, already used, or made for another key. */
  IMPORT_JOB_UNUSABLE(ErrorReason.IMPORT_JOB_UNUSABLE, "import_job_unusable"),
  /** BackupKey named a key that is not exportable. */
  KEY_NOT_EXPORTABLE(ErrorReason.KEY_NOT_EXPORTABLE, "key_not_exportable"),
  /** A key version's stored material did not unwrap with the key-encryption key. */
  KEY_MATERIAL_UNUSABLE(ErrorReason.KEY_MATERIAL_UNUSABLE, "key_material_unusable");

  private final ErrorReason reason;
  private final String outcome;

  ErrorKind(ErrorReason reason, String outcome) {
    this.reason = reason;
    this.outcome = outcome;
  }

  /**
   * The reason a failed call's ErrorInfo and an item's error carry, as {@code
   * proto/cipherd/v1/error_reason.proto} defines it: clients read the same enum from their
   * generated code.
   */
  public ErrorReason reason() {
    return reason;
  }

  /** The {@code outcome} label of crypto metrics for an operation that failed this way. */
  public String outcome() {
    return outcome;
  }
}
