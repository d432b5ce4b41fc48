package io.cipherd.client;

/**
 * ImportKey carried key material in the clear and the server takes only material wrapped for an
 * import job (CreateImportJob), unless its operator allows plaintext import
 * (PLAINTEXT_IMPORT_DISABLED).
 */
public class PlaintextImportDisabledException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  PlaintextImportDisabledException(ErrorDetails details) {
    super(details);
  }
}
