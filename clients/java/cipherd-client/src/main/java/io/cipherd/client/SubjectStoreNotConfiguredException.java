package io.cipherd.client;

/**
 * A call with a subject (or on a subject-bound ciphertext, or an erasure) reached a server that
 * keeps its keys in Vault and has no subject store every replica shares
 * (SUBJECT_STORE_NOT_CONFIGURED; no --subject-store-url, docs/subject-store.md): the operator must
 * configure one. Calls without a subject still work.
 */
public class SubjectStoreNotConfiguredException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  SubjectStoreNotConfiguredException(ErrorDetails details) {
    super(details);
  }
}
